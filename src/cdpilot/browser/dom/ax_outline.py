"""page_outline: the page's structure and controls, read from Chrome's accessibility tree.

Roles, names and states come from ``Accessibility.getFullAXTree``, one call per frame of the
page's own process: the main frame, then each same-process iframe (``Page.getFrameTree``
lists exactly those; ``DOM.getFrameOwner`` says which iframe element holds each). An iframe
in another process (a cross-origin one) has no tree here: it is listed as not outlined.
Ignored nodes (hidden, aria-hidden, presentational) are left out, their children kept.

Selectors are not guessed from the tree: the nodes that need one (landmarks, frames and
controls) are resolved to elements (``DOM.resolveNode``, sent together), and one call per
document hands them all to the same selector generator that inspect_element uses
(``dom_selectors.js``). Only as many as an outline of `max_chars` could show are resolved,
so a page of thousands of links costs no more than one that fits.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from cdpilot.browser.dom.dom_scripts import outline_function
from cdpilot.browser.dom.outline_facts import EntryKind, OutlineEntry, PageOutline
from cdpilot.browser.dom.query import resolve_element
from cdpilot.browser.own_scripts import own_function
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import CdpCommandError, ExecutionError

LANDMARKS = frozenset(
    (
        "banner",
        "navigation",
        "main",
        "form",
        "region",
        "contentinfo",
        "complementary",
        "search",
        "dialog",
        "alertdialog",
    )
)
CONTROLS = frozenset(
    (
        "link",
        "button",
        "textbox",
        "searchbox",
        "checkbox",
        "radio",
        "switch",
        "combobox",
        "listbox",
        "option",
        "slider",
        "spinbutton",
        "tab",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "treeitem",
        "DisclosureTriangle",
        "ColorWell",
        "Date",
        "DateTime",
        "InputTime",
    )
)
# Chrome's internal role names, as a reader knows the element.
ROLE_WORDS = {"DisclosureTriangle": "summary", "ColorWell": "color", "Date": "date", "DateTime": "datetime",
              "InputTime": "time", "Iframe": "iframe"}  # fmt: skip
FLAG_STATES = ("disabled", "required", "readonly", "focused", "selected", "modal")
MIN_LINE_CHARS = 8  # the shortest line an outline can hold, e.g. "link #a"
OBJECT_GROUP = "cdpilot-outline"


@dataclass
class _Draft:
    """An entry before its selector is known."""

    kind: EntryKind
    role: str
    name: str
    depth: int
    tree: str  # the frame whose document holds the node
    backend_id: int | None
    value: str = ""
    states: tuple[str, ...] = ()
    inside: int = 0
    cross_origin: bool = False


@dataclass
class _Scope:
    """A landmark's (or the page's) indentation: its base depth and the open heading levels."""

    base: int
    levels: list[int] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return self.base + len(self.levels)


class _Walk:
    """The outline of the trees of one page, walked in document order."""

    def __init__(self, trees: dict[str, dict[str, dict[str, Any]]], frames: dict[int, str]) -> None:
        self.trees = trees  # frame id -> AX node id -> node
        self.frames = frames  # an iframe element's backend node id -> the frame it holds (same process)
        self.drafts: list[_Draft] = []

    def nodes(self, tree: str, ids: list[str], scope: _Scope) -> None:
        for node_id in ids:
            node = self.trees[tree].get(node_id)
            if node is not None:
                self.node(tree, node, scope)

    def node(self, tree: str, node: dict[str, Any], scope: _Scope) -> None:
        children = [str(c) for c in node.get("childIds", ())]
        if node.get("ignored"):
            self.nodes(tree, children, scope)
            return
        role = str(node.get("role", {}).get("value", ""))
        name = " ".join(str(node.get("name", {}).get("value", "")).split())
        backend = node.get("backendDOMNodeId")
        props = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", ())}
        if role in CONTROLS:
            value = " ".join(str(node.get("value", {}).get("value", "")).split())
            self.drafts.append(
                _Draft(
                    "control",
                    ROLE_WORDS.get(role, role),
                    name,
                    scope.depth,
                    tree,
                    backend,
                    value=value,
                    states=_states(props),
                )
            )
        elif role == "heading":
            level = int(props.get("level") or 2)
            while scope.levels and scope.levels[-1] >= level:
                scope.levels.pop()
            self.drafts.append(_Draft("heading", f"h{level}", name, scope.depth, tree, None))
            scope.levels.append(level)
        elif role in LANDMARKS or role == "Iframe":
            kind: EntryKind = "landmark" if role in LANDMARKS else "frame"
            draft = _Draft(kind, ROLE_WORDS.get(role, role), name, scope.depth, tree, backend, states=_states(props))
            self.drafts.append(draft)
            start = len(self.drafts)
            inner = _Scope(scope.depth + 1)
            framed = self.frames.get(backend) if kind == "frame" and isinstance(backend, int) else None
            if framed is not None:
                root = next(iter(self.trees[framed].values()), None)
                if root is not None:
                    self.nodes(framed, [str(c) for c in root.get("childIds", ())], inner)
            elif kind == "frame":
                draft.cross_origin = True
            else:
                self.nodes(tree, children, inner)
            draft.inside = len(self.drafts) - start
        else:
            self.nodes(tree, children, scope)


def _states(props: dict[str, Any]) -> tuple[str, ...]:
    states = []
    checked = props.get("checked", props.get("pressed"))
    if checked in ("true", "mixed"):
        states.append("mixed" if checked == "mixed" else "checked" if "checked" in props else "pressed")
    if "expanded" in props:
        states.append("expanded" if props["expanded"] else "collapsed")
    states += [flag for flag in FLAG_STATES if props.get(flag) is True]
    if props.get("invalid") not in (None, "false"):
        states.append("invalid")
    return tuple(states)


async def page_outline(conn: BrowserConnection, *, selector: str | None, max_chars: int) -> PageOutline:
    """The outline of the page, or of the first element `selector` matches (a `StateError`
    when none does), with selectors for as many entries as `max_chars` could show."""
    page = conn.page
    tree_reply = await conn.features.unless_blocked(page.send("Accessibility.getFullAXTree"))
    main_nodes = tree_reply["nodes"]
    main_frame = str(main_nodes[0].get("frameId", "")) if main_nodes else ""
    trees = {main_frame: {str(n["nodeId"]): n for n in main_nodes}}
    frames: dict[int, str] = {}
    frame_tree = (await page.send("Page.getFrameTree"))["frameTree"]
    for frame_id in _child_frames(frame_tree):
        try:
            owner = await page.send("DOM.getFrameOwner", {"frameId": frame_id})
            nodes = (await page.send("Accessibility.getFullAXTree", {"frameId": frame_id}))["nodes"]
        except CdpCommandError:
            continue  # it went away meanwhile
        frames[int(owner["backendNodeId"])] = frame_id
        trees[frame_id] = {str(n["nodeId"]): n for n in nodes}
    walk = _Walk(trees, frames)
    match_count = 0
    if selector is None:
        root = next(iter(trees[main_frame].values()), None)
        if root is not None:
            walk.nodes(main_frame, [str(c) for c in root.get("childIds", ())], _Scope(0))
    else:
        element = await resolve_element(conn, selector, 0)
        match_count = element.match_count
        described = await page.send("DOM.describeNode", {"objectId": element.object_id})
        await page.send("Runtime.releaseObject", {"objectId": element.object_id})
        backend = described["node"]["backendNodeId"]
        for tree, nodes in trees.items():
            found = next((n for n in nodes.values() if n.get("backendDOMNodeId") == backend), None)
            if found is not None:
                walk.node(tree, found, _Scope(0))
                break
    title = str(main_nodes[0].get("name", {}).get("value", "")) if main_nodes else ""
    selectors = await _selectors(conn, walk.drafts, max_chars // MIN_LINE_CHARS)
    entries = tuple(
        OutlineEntry(d.kind, d.role, d.name, d.depth, selectors.get(i, ""), d.value, d.states, d.inside, d.cross_origin)
        for i, d in enumerate(walk.drafts)
    )
    return PageOutline(title, selector or "", match_count, entries)


def _child_frames(frame_tree: dict[str, Any]) -> list[str]:
    """The ids of every frame below the main one, in this process, outer ones first."""
    found = []
    for child in frame_tree.get("childFrames", ()):
        found.append(str(child["frame"]["id"]))
        found += _child_frames(child)
    return found


async def _selectors(conn: BrowserConnection, drafts: list[_Draft], most: int) -> dict[int, str]:
    """A unique selector for each landmark and frame and for the first controls, `most` in
    all (or the parts alone when they are more), by draft index."""
    parts = [(i, d) for i, d in enumerate(drafts) if d.kind in ("landmark", "frame") and d.backend_id is not None]
    controls = [(i, d) for i, d in enumerate(drafts) if d.kind == "control" and d.backend_id is not None]
    wanted = parts + controls[: max(0, most - len(parts))]  # every part: the hint of a cut names them
    page = conn.page

    async def resolve(backend_id: int) -> str | None:
        params = {"backendNodeId": backend_id, "objectGroup": OBJECT_GROUP}
        try:
            return str((await page.send("DOM.resolveNode", params))["object"]["objectId"])
        except CdpCommandError:
            return None  # gone since the tree was read

    object_ids = await asyncio.gather(*(resolve(d.backend_id) for _, d in wanted if d.backend_id is not None))
    by_document: dict[str, list[tuple[int, str]]] = {}
    for (index, draft), object_id in zip(wanted, object_ids, strict=True):
        if object_id is not None:
            by_document.setdefault(draft.tree, []).append((index, object_id))
    found: dict[int, str] = {}
    try:
        for members in by_document.values():
            params = {
                "functionDeclaration": own_function(outline_function()),
                "objectId": members[0][1],
                "arguments": [{"objectId": object_id} for _, object_id in members],
                "returnByValue": True,
                "silent": True,
            }
            reply = await conn.features.unless_blocked(page.send("Runtime.callFunctionOn", params))
            if "exceptionDetails" in reply:
                raise ExecutionError(
                    f"The page-side outline failed: {exception_text(reply['exceptionDetails'])}",
                    suggestion="The page may be navigating; try again, or check it with {tool:evaluate_js}.",
                )
            values = reply["result"].get("value") or []
            found.update((index, str(sel)) for (index, _), sel in zip(members, values, strict=False) if sel)
    finally:
        await page.send("Runtime.releaseObjectGroup", {"objectGroup": OBJECT_GROUP})
    return found
