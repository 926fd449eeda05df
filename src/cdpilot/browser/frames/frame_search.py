"""Running the DOM libraries in the page and in each of its cross-origin iframes, each in its own place.

A page-side scan cannot enter a cross-origin iframe: it stops at its element and names it by
its tree path (a `FrameSlot`). Here each slot's element is asked of CDP for the frame it holds
(``DOM.describeNode``), and the same library runs again in that frame, down through nested
ones: in its own target when Chrome runs it out of process (another site: `ChildTargets`
attaches to it), else in an isolated world of ours in the frame (another origin of the same
site, or an opaque one, shares the page's process and has no target). A slot whose frame
cannot be found (an out-of-process frame not attached yet) or fails to answer is reported
as not searched.

Frame-scoped selectors (`iframe#pay >> #card`) name a frame by its iframe's selector first,
then the element within it: `scope_place` walks the frame parts down from the page.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from cdpilot.browser.dom.dom_scripts import script
from cdpilot.browser.dom.element_facts import SCOPE_MARK, QueryFindings, UnsearchedFrame
from cdpilot.browser.frames.frame_facts import FrameQuery, FrameSlot, frame_name, join_where
from cdpilot.browser.observe.child_targets import ChildTargets
from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.page.evaluation import FrameDocument, exception_text
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpSession
from cdpilot.errors import (
    ArgumentError,
    BrowserConnectionError,
    CdpCommandError,
    CdpTimeoutError,
    ExecutionError,
    FieldProblem,
    StateError,
)

ISOLATED_WORLD = "cdpilot"  # our world in an in-process frame: the frame's DOM, none of its script globals
SCRIPT_TIMEOUT_S = 15.0  # a page-side scan of a huge DOM is slow, never this slow
FRAME_TIMEOUT_S = 5.0  # an iframe that does not answer in this long is reported, not waited for
FRAME_FAILURES = (BrowserConnectionError, ExecutionError)  # gone, crashed, navigating, stuck
T = TypeVar("T")


@dataclass(frozen=True)
class FrameHop:
    """One cross-origin iframe on the way from the page to an element: the session holding
    its iframe element, and its frame id. An out-of-process frame's coordinates are its own, so
    actions add up those iframes' boxes to find the element in the page's viewport; an in-process
    one (`local`: same site, or opaque) shares its process's."""

    parent: CdpSession
    frame_id: str
    local: bool = False


@dataclass(frozen=True)
class FramePlace:
    """Where one frame's page scripts run: a session, and the execution context there (None:
    the session's own document, else our isolated world in an in-process frame of another
    origin), with the iframes on the way to it and how answers name it."""

    session: CdpSession
    context_id: int | None = None
    hops: tuple[FrameHop, ...] = ()
    outer: str = ""  # how the frame around it is named ("" for the page)
    slot: FrameSlot | None = None  # its iframe element in the frame around it; None for the page
    scope: str = ""  # its frame-scoped selector prefix, e.g. "iframe#pay >> "; "" for the page
    shown: bool = True  # its iframe, and every iframe around it, is visible

    def name(self, url: str) -> str:
        """The frame as answers name it: "" for the page, else as `frame_name` does."""
        return "" if self.slot is None else frame_name(self.outer, self.slot, url)


@dataclass(frozen=True)
class FrameCount:
    """How many elements match in one frame, and in each cross-origin iframe in it."""

    place: FramePlace
    prefix: str  # as `frame_name` names the frame; "" for the page
    count: int
    slots: tuple[tuple[FrameSlot, FrameCount | UnsearchedFrame], ...]

    @property
    def hops(self) -> tuple[FrameHop, ...]:
        return self.place.hops

    @property
    def shown(self) -> bool:
        return self.place.shown

    def searched(self) -> list[FrameCount]:
        """This frame and every cross-origin frame below it that answered."""
        found = [self]
        for _, child in self.slots:
            found += child.searched() if isinstance(child, FrameCount) else []
        return found

    @property
    def total(self) -> int:
        return self.count + sum(child.total for _, child in self.slots if isinstance(child, FrameCount))

    def locate(self, index: int) -> tuple[FrameCount, int] | None:
        """The frame holding match `index` of this frame's subtree, and its index there."""
        inside = 0
        for slot, child in sorted(self.slots, key=lambda s: s[0].before):
            if index < slot.before + inside:
                break
            if isinstance(child, FrameCount):
                if index < slot.before + inside + child.total:
                    return child.locate(index - slot.before - inside)
                inside += child.total
        local = index - inside
        return (self, local) if local < self.count else None

    def unsearched(self) -> list[UnsearchedFrame]:
        found: list[UnsearchedFrame] = []
        for _, child in self.slots:
            found += child.unsearched() if isinstance(child, FrameCount) else [child]
        return found


def page_place(conn: Target) -> FramePlace:
    return FramePlace(page_of(conn))


async def run_page_script(
    conn: Target,
    expression: str,
    *,
    by_value: bool = True,
    session: CdpSession | None = None,
    context_id: int | None = None,
    timeout_s: float = SCRIPT_TIMEOUT_S,
) -> dict[str, Any]:
    """Evaluate one of our scripts in the page (or a frame's `session`, in its execution context
    `context_id` when given); its value (by value), or its RemoteObject."""
    params: dict[str, Any] = {"expression": own_expression(expression), "returnByValue": by_value, "silent": True}
    if context_id is not None:
        params["contextId"] = context_id
    send = (session or page_of(conn)).send("Runtime.evaluate", params, timeout_s=timeout_s)
    reply = await conn.features.unless_blocked(send)
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side DOM search failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="The page may be navigating; try again, or check it with {tool:evaluate_js}.",
        )
    result: dict[str, Any] = reply["result"]
    return result.get("value", {}) if by_value else result


async def run_in(conn: Target, place: FramePlace, expression: str, *, by_value: bool = True) -> dict[str, Any]:
    """`run_page_script` in the frame of `place`, within the deadline of a page or of a frame."""
    timeout_s = SCRIPT_TIMEOUT_S if place.slot is None else FRAME_TIMEOUT_S
    return await run_page_script(
        conn, expression, by_value=by_value, session=place.session, context_id=place.context_id, timeout_s=timeout_s
    )


def invalid_selector(message: str) -> ArgumentError:
    """VALIDATION for a selector the browser refuses; `message` is the browser's own words."""
    return ArgumentError(
        "The selector is not valid CSS.",
        problems=[FieldProblem("selector", "a valid CSS selector", message)],
        suggestion='Fix the selector (quote attribute values: a[href="/x"]), or let {tool:inspect_element} '
        "suggest one.",
    )


def slots_of(value: list[Any]) -> tuple[FrameSlot, ...]:
    return tuple(FrameSlot.from_page(slot) for slot in value)


@dataclass(frozen=True)
class _Owner:
    """A frame element met in one frame's documents (`dom_query.js` ``frameOwners``)."""

    slot: FrameSlot
    selector: str  # unique for it in that frame's documents
    entered: bool  # its document is the same origin's: the frame's scan enters it itself
    frame_id: str | None  # the frame it holds, as CDP names it


async def _owners(conn: Target, place: FramePlace, selector: str | None) -> tuple[list[_Owner], str]:
    """The frame elements of `place`'s documents: the cross-origin ones its scan could not
    enter (`selector` None), or those `selector` matches; each with the frame CDP says it holds;
    and the URL of `place`'s document."""
    wrapper = await run_in(conn, place, script("query", "frameOwners", selector, place.shown), by_value=False)
    session = place.session
    try:
        reply = await session.send("Runtime.getProperties", {"objectId": wrapper["objectId"], "ownProperties": True})
        props = {p["name"]: p["value"] for p in reply["result"] if "value" in p}
        if "error" in props:
            raise invalid_selector(str(props["error"].get("value")))
        owners = []
        for info in json.loads(str(props["info"]["value"])):
            node = props[str(info["key"])].get("objectId")
            described = await session.send("DOM.describeNode", {"objectId": node}) if node else {}
            frame_id = described.get("node", {}).get("frameId")
            slot = FrameSlot.from_page(info)
            owners.append(_Owner(slot, str(info["selector"]), bool(info["entered"]), frame_id and str(frame_id)))
        return owners, str(props["url"]["value"])
    finally:
        await session.send("Runtime.releaseObject", {"objectId": wrapper["objectId"]})


async def _place_of(conn: Target, place: FramePlace, owner: _Owner, name: str) -> FramePlace | None:
    """Where the frame of `owner` (an iframe element of `place`, named `name` there) runs our
    scripts: its own target when it is out of process, else our isolated world in it (which
    sees its DOM, not the page's script globals); None when CDP knows no such frame (yet)."""
    if owner.frame_id is None:
        return None
    around = replace(
        place,
        outer=name,
        slot=owner.slot,
        scope=f"{place.scope}{owner.selector} {SCOPE_MARK} ",
        shown=place.shown and owner.slot.shown,
    )
    for frame in conn.features.get(ChildTargets).frames_in(place.session):
        if frame.frame_id == owner.frame_id:
            hop = FrameHop(place.session, frame.frame_id)
            return replace(around, session=frame.session, context_id=None, hops=(*place.hops, hop))
    try:
        params = {"frameId": owner.frame_id, "worldName": ISOLATED_WORLD}
        world = await place.session.send("Page.createIsolatedWorld", params, timeout_s=FRAME_TIMEOUT_S)
    except CdpCommandError:
        return None  # an out-of-process frame not attached yet: not this session's to enter
    hops = place.hops
    if not owner.entered:
        hops = (*hops, FrameHop(place.session, owner.frame_id, local=True))
    return replace(around, context_id=int(world["executionContextId"]), hops=hops)


def frame_failure(exc: BaseException | None) -> str:
    """Why a cross-origin iframe could not be read: not attached yet, gone, or silent."""
    if exc is None:
        return "its frame is not attached yet"
    if isinstance(exc, CdpTimeoutError):
        return "it did not answer"
    if isinstance(exc, BrowserConnectionError):
        return "its target is gone (crashed or detached)"
    return "its document was changing"


def not_searched(prefix: str, slot: FrameSlot, exc: BaseException | None) -> UnsearchedFrame:
    return UnsearchedFrame(join_where(prefix, slot.where), slot.src, frame_failure(exc))


async def _each_slot(
    conn: Target,
    place: FramePlace,
    prefix: str,
    slots: tuple[FrameSlot, ...],
    search: Callable[[FramePlace], Awaitable[T]],
) -> tuple[tuple[FrameSlot, T | UnsearchedFrame], ...]:
    """`search` run in the frame of each slot met in `place`'s documents, or why it could not be."""
    if not slots:
        return ()
    try:
        owners = {owner.slot.key: owner for owner in (await _owners(conn, place, None))[0]}
    except FRAME_FAILURES as exc:
        return tuple((slot, not_searched(prefix, slot, exc)) for slot in slots)
    children: list[tuple[FrameSlot, T | UnsearchedFrame]] = []
    for slot in slots:
        owner = owners.get(slot.key)
        try:
            inner = await _place_of(conn, place, owner, prefix) if owner else None
            children.append((slot, await search(inner) if inner else not_searched(prefix, slot, None)))
        except FRAME_FAILURES as exc:
            children.append((slot, not_searched(prefix, slot, exc)))
    return tuple(children)


def split_scope(selector: str) -> tuple[list[str], str]:
    """A frame-scoped selector's frame parts and its element's: `iframe#pay >> #card` is
    (["iframe#pay"], "#card"). CSS never uses `>>`, so the split cannot cut a selector."""
    parts = [part.strip() for part in selector.split(SCOPE_MARK)]
    if any(not part for part in parts):
        raise ArgumentError(
            "A part of the frame-scoped selector is empty.",
            problems=[FieldProblem("selector", "iframe selectors, then the element's, joined by >>", selector)],
            suggestion='Write it as "iframe#pay >> #card" (nested frames: "iframe#a >> iframe#b >> input").',
        )
    return parts[:-1], parts[-1]


async def scope_place(conn: Target, frames: list[str]) -> FramePlace:
    """The frame that the frame parts of a frame-scoped selector name, from the page down; each
    part must match exactly one iframe in the frame named before it."""
    place = page_place(conn)
    for part in frames:
        inner = await _one_frame(conn, place, part)
        if isinstance(inner, str):
            raise StateError(
                f'The frame part "{part}" {inner}.',
                suggestion="Name one iframe (e.g. by its id); {tool:inspect_element} gives a frame-scoped selector "
                "for an element inside a frame.",
            )
        place = inner
    return place


async def _one_frame(conn: Target, place: FramePlace, part: str) -> FramePlace | str:
    """The frame of the one iframe `part` matches in `place`'s documents, or why there is none."""
    owners, url = await _owners(conn, place, part)
    where = place.scope.removesuffix(f" {SCOPE_MARK} ") or "the page"
    if not owners:
        return f"matches no element in {where}"
    if len(owners) > 1:
        return f"matches {len(owners)} elements in {where}: " + ", ".join(o.slot.where for o in owners[:5])
    if owners[0].frame_id is None:
        return f"matches {owners[0].slot.where}, which holds no frame"
    inner = await _place_of(conn, place, owners[0], place.name(url))
    return inner or f"matches {owners[0].slot.where}, whose frame is not attached yet"


async def expression_frame(conn: Target, expression: str) -> tuple[FrameDocument | None, str]:
    """Where evaluate_js runs `expression`, and what it runs: `iframe#pay >> document.title`
    runs `document.title` in that iframe, as its own scripts would (nested: `iframe#a >> iframe#b >> …`).
    A leading part counts as a frame's only when it is CSS matching exactly one iframe where it
    is read, so JavaScript's own `>>` (a shift) keeps its meaning; else the page runs it all, as
    it does where frames cannot be looked for (no page: a Node.js program; a page that is paused
    or shows a dialog runs only the expression itself)."""
    parts = expression.split(SCOPE_MARK)
    if len(parts) == 1 or conn.page_session is None:
        return None, expression
    place, taken = page_place(conn), 0
    for part in parts[:-1]:
        try:
            inner = await _one_frame(conn, place, part.strip())
        except (ArgumentError, StateError, ExecutionError):  # not CSS (the expression's own code), or no answer
            break
        if isinstance(inner, str):
            break
        place, taken = inner, taken + 1
    if not taken:
        return None, expression
    rest = SCOPE_MARK.join(parts[taken:]).strip()
    if place.context_id is None:
        return FrameDocument(place.session), rest
    # Our isolated world sees the frame's DOM but not its script globals: evaluate in its main
    # world, reached through its document (DOM.resolveNode resolves a node there).
    document = await run_in(conn, place, "document", by_value=False)
    try:
        node = (await place.session.send("DOM.describeNode", {"objectId": document["objectId"]}))["node"]
    finally:
        await place.session.send("Runtime.releaseObject", {"objectId": document["objectId"]})
    resolved = await place.session.send("DOM.resolveNode", {"backendNodeId": node["backendNodeId"]})
    return FrameDocument(place.session, str(resolved["object"]["objectId"])), rest


async def frame_places(conn: Target) -> dict[str, FramePlace]:
    """Where our scripts run in each frame that the page's own search cannot enter (another
    origin: in-process or out of process, nested ones too), by frame id, each with its
    frame-scoped prefix (`FramePlace.scope`); the page itself under "". A frame that does not
    answer is left out, with the frames inside it."""
    found = {"": page_place(conn)}
    places = [found[""]]
    while places:
        place = places.pop(0)
        with contextlib.suppress(*FRAME_FAILURES):
            owners, url = await _owners(conn, place, None)
            for owner in owners:
                inner = await _place_of(conn, place, owner, place.name(url))
                if inner is not None and owner.frame_id is not None:
                    found[owner.frame_id] = inner
                    places.append(inner)
    return found


async def frame_scope_prefix(conn: Target, frame_id: str) -> str:
    """The frame-scoped selector prefix that reaches into the frame `frame_id` from the page
    (`iframe#pay >> `, nested: `iframe#a >> iframe#b >> `), for selectors found in that frame;
    "" for the page, a same-origin iframe (the page's own search enters it) or a frame not found."""
    place = (await frame_places(conn)).get(frame_id) if frame_id else None
    return place.scope if place is not None else ""


async def query_tree(
    conn: Target, args: tuple[str, int, str | None, bool], place: FramePlace | None = None
) -> FrameQuery:
    """query_elements' page-side query (`args`: selector, limit, text, include_hidden) in the
    page, or in the frame at `place`, and in every cross-origin iframe below."""
    place = place or page_place(conn)
    value = await run_in(conn, place, script("query", "query", *args, place.shown))
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    prefix = place.name(str(value["url"]))

    async def search(inner: FramePlace) -> FrameQuery:
        return await query_tree(conn, args, inner)

    slots = await _each_slot(conn, place, prefix, slots_of(value["slots"]), search)
    return FrameQuery(prefix, place.scope, QueryFindings.from_page(value), slots)


async def count_tree(conn: Target, selector: str | None, place: FramePlace | None = None) -> FrameCount:
    """How many elements match `selector` in the page (or the frame at `place`), and in each
    cross-origin iframe below; with where to act in each."""
    place = place or page_place(conn)
    value = await run_in(conn, place, script("query", "count", selector))
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    prefix = place.name(str(value["url"]))

    async def search(inner: FramePlace) -> FrameCount:
        return await count_tree(conn, selector, inner)

    slots = await _each_slot(conn, place, prefix, slots_of(value["slots"]), search)
    return FrameCount(place, prefix, int(value["count"]), slots)


def unsearched_note(frames: list[UnsearchedFrame]) -> str:
    """The sentence an error adds when cross-origin iframes could not be searched."""
    named = "; ".join(f"{f.where} ({f.url}): {f.reason}" if f.url else f"{f.where}: {f.reason}" for f in frames)
    many = "iframes were" if len(frames) != 1 else "iframe was"
    return f"{len(frames)} cross-origin {many} not searched: {named}."
