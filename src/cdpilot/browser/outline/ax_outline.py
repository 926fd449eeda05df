"""page_outline: the page's structure and controls, read from Chrome's accessibility tree.

Roles, names and states come from ``Accessibility.getFullAXTree`` of every frame
(`frame_outline` reads them, a cross-origin iframe's in its own target); each frame's
entries stand under its iframe's line. An iframe whose document could not be read is
listed as not outlined, with the reason. Ignored nodes (hidden, aria-hidden,
presentational) are left out, their children kept. A table is read as its caption (its
accessible name), its column headers and its rows' cell texts, with the controls in them, so
an outline can show what the table holds and not only what can be clicked in it. Selectors are made by
`outline_selectors` for as many entries as an outline of `max_chars` could show; inside an
iframe of another origin each starts with the frame-scoped prefix the element tools give that
frame (`frame_places`), so that every selector printed works as printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cdpilot.browser.dom.query import resolve_element
from cdpilot.browser.frames.frame_search import FramePlace, frame_places, page_place
from cdpilot.browser.outline.frame_outline import OutlineTrees, frame_key, read_trees
from cdpilot.browser.outline.outline_facts import PART_KINDS, EntryKind, OutlineEntry, PageOutline
from cdpilot.browser.outline.outline_selectors import SelectorWanted, outline_selectors
from cdpilot.browser.target import Target, page_of

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
TABLES = frozenset(("table", "grid", "treegrid"))
CELLS = frozenset(("cell", "gridcell", "columnheader", "rowheader"))
FLAG_STATES = ("disabled", "required", "readonly", "focused", "selected", "modal")
MIN_LINE_CHARS = 8  # the shortest line an outline can hold, e.g. "link #a"


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
    frame_url: str = ""
    not_outlined: str = ""
    cells: tuple[str, ...] = ()
    rows: int = 0

    def entry(self, selector: str) -> OutlineEntry:
        return OutlineEntry(
            self.kind, self.role, self.name, self.depth, selector, self.value, self.states, self.inside,
            frame_url=self.frame_url, not_outlined=self.not_outlined, cells=self.cells, rows=self.rows,
        )  # fmt: skip


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

    def __init__(self, read: OutlineTrees) -> None:
        self.read = read
        self.drafts: list[_Draft] = []
        self.tables: list[_Draft] = []  # the tables the walk is in, innermost last

    def nodes(self, tree: str, ids: list[str], scope: _Scope) -> None:
        for node_id in ids:
            node = self.read.trees[tree].get(node_id)
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
        elif role in TABLES:
            self.table(tree, node, name, backend, scope)
        elif role == "row" and self.tables:
            self.row(tree, node, scope)
        elif role == "caption" and self.tables:
            self.tables[-1].name = self.tables[-1].name or name
        elif role in LANDMARKS or role == "Iframe":
            kind: EntryKind = "landmark" if role in LANDMARKS else "frame"
            draft = _Draft(kind, ROLE_WORDS.get(role, role), name, scope.depth, tree, backend, states=_states(props))
            self.drafts.append(draft)
            start = len(self.drafts)
            inner = _Scope(scope.depth + 1)
            if kind == "frame":
                self.frame(tree, backend, draft, inner)
            else:
                self.nodes(tree, children, inner)
            draft.inside = len(self.drafts) - start
        else:
            self.nodes(tree, children, scope)

    def table(self, tree: str, node: dict[str, Any], name: str, backend: Any, scope: _Scope) -> None:
        """A table (or grid), its rows under it; its caption is its accessible name."""
        draft = _Draft("table", "table", name, scope.depth, tree, backend)
        self.drafts.append(draft)
        start = len(self.drafts)
        self.tables.append(draft)
        self.nodes(tree, [str(c) for c in node.get("childIds", ())], _Scope(scope.depth + 1))
        self.tables.pop()
        draft.inside = len(self.drafts) - start

    def row(self, tree: str, node: dict[str, Any], scope: _Scope) -> None:
        """A row of the innermost table: its cells' texts, then the controls in them under it. The
        first row of column headers alone, before any other row, is the table's header instead."""
        table = self.tables[-1]
        cells = [n for c in node.get("childIds", ()) if (n := self.read.trees[tree].get(str(c))) is not None]
        cells = [n for n in cells if not n.get("ignored") and n.get("role", {}).get("value") in CELLS]
        texts = tuple(" ".join(str(n.get("name", {}).get("value", "")).split()) for n in cells)
        if not table.rows and not table.cells and all(n["role"]["value"] == "columnheader" for n in cells) and cells:
            table.cells = texts
            return
        table.rows += 1
        draft = _Draft("row", "row", "", scope.depth, tree, None, cells=texts)
        self.drafts.append(draft)
        start = len(self.drafts)
        inner = _Scope(scope.depth + 1)
        for cell in cells:
            self.nodes(tree, [str(c) for c in cell.get("childIds", ())], inner)
        draft.inside = len(self.drafts) - start

    def frame(self, tree: str, backend: Any, draft: _Draft, inner: _Scope) -> None:
        """The document an iframe holds, under it; or why it could not be read."""
        key = frame_key(self.read.sessions[tree], backend) if isinstance(backend, int) else None
        framed = self.read.frames.get(key) if key is not None else None
        if framed is None:
            draft.not_outlined = self.read.unread.get(key, "") if key is not None else ""
            draft.not_outlined = draft.not_outlined or "its frame is not attached"
            return
        draft.frame_url = self.read.urls.get(framed, "") if self.read.foreign(framed, tree) else ""
        self.nodes(framed, self.read.root_children(framed), inner)


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


async def _frame_scopes(
    conn: Target, read: OutlineTrees, main_frame: str
) -> tuple[list[FramePlace], dict[str, str | None]]:
    """Where the element tools search in the page (each frame of another origin a place of its own,
    as `frame_places` finds them), and the frame-scoped prefix of each frame read: its own, or its
    parent's for a frame of its parent's origin (which that search enters); None for a frame of
    another origin that the element tools cannot reach (it did not answer): its entries get no selector."""
    parents = read.parents()
    foreign = any(read.foreign(frame, parent) for frame, parent in parents.items())
    found = await frame_places(conn) if foreign else {}
    scopes: dict[str, str | None] = {}

    def scope(frame: str) -> str | None:
        if frame not in scopes:
            parent = parents.get(frame)
            if parent is None:
                scopes[frame] = "" if frame == main_frame else None  # a frame whose iframe went away
            elif frame in found:
                scopes[frame] = found[frame].scope
            else:
                scopes[frame] = None if read.foreign(frame, parent) else scope(parent)
        return scopes[frame]

    for frame in read.trees:
        scope(frame)
    return list(found.values()) or [page_place(conn)], scopes


def _run_ranks(drafts: list[_Draft]) -> list[int]:
    """Each entry's place in its run of like controls (same role and depth, one after the other), so
    that selectors go to the first controls of every run before the long tail of one: an outline
    too long for its budget shows those first."""
    ranks: list[int] = []
    for index, draft in enumerate(drafts):
        before = drafts[index - 1] if index else None
        alike = (
            before is not None
            and before.kind == draft.kind == "control"
            and (before.role, before.depth) == (draft.role, draft.depth)
        )
        ranks.append(ranks[-1] + 1 if alike else 0)
    return ranks


async def page_outline(conn: Target, *, selector: str | None, max_chars: int, offset: int = 0) -> PageOutline:
    """The outline of the page, or of the first element `selector` matches (a `StateError`
    when none does), with selectors for as many entries as `max_chars` could show: from the
    start (a map), or in page order from entry `offset` on (a continuation)."""
    page = page_of(conn)
    tree_reply = await conn.features.unless_blocked(page.send("Accessibility.getFullAXTree"))
    main_nodes = tree_reply["nodes"]
    read = await read_trees(conn, main_nodes)
    main_frame = str(main_nodes[0].get("frameId", "")) if main_nodes else ""
    walk = _Walk(read)
    match_count, scope_frame = 0, ""
    if selector is None:
        walk.nodes(main_frame, read.root_children(main_frame), _Scope(0))
    else:
        element = await resolve_element(conn, selector, 0)
        match_count, scope_frame = element.match_count, element.where if element.frames else ""
        described = await element.session.send("DOM.describeNode", {"objectId": element.object_id})
        await element.session.send("Runtime.releaseObject", {"objectId": element.object_id})
        backend = described["node"]["backendNodeId"]
        for tree, nodes in read.trees.items():
            if read.sessions[tree] is not element.session:
                continue
            found = next((n for n in nodes.values() if n.get("backendDOMNodeId") == backend), None)
            if found is not None:
                walk.node(tree, found, _Scope(0))
                break
    title = str(main_nodes[0].get("name", {}).get("value", "")) if main_nodes else ""
    # A continuation shows no entry before `offset`, and those after it in page order.
    ranks = _run_ranks(walk.drafts) if not offset else [index - offset for index in range(len(walk.drafts))]
    places, scopes = await _frame_scopes(conn, read, main_frame)
    wanted = [
        SelectorWanted(
            d.kind in PART_KINDS,
            read.sessions[d.tree],
            d.tree,
            d.backend_id if rank >= 0 and scope is not None else None,
            rank,
            scope or "",
        )
        for d, rank in zip(walk.drafts, ranks, strict=True)
        for scope in (scopes.get(d.tree),)
    ]
    sessions = list({id(s): s for s in read.sessions.values()}.values())
    selectors = await outline_selectors(conn, wanted, sessions, places, max_chars // MIN_LINE_CHARS)
    entries = tuple(d.entry(selectors.get(i, "")) for i, d in enumerate(walk.drafts))
    return PageOutline(title, selector or "", match_count, entries, scope_frame)
