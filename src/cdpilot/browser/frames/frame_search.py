"""Running the DOM libraries in the page and in its cross-origin iframes, each in its own session.

With site isolation a cross-origin iframe is a frame target of its own, which `ChildTargets`
attaches to and holds as its parent's child. A page-side scan stops at such an iframe's
element and names it by its tree path (a `FrameSlot`); here each slot is matched with its
frame target (``DOM.getFrameOwner`` names the owner element, whose tree path is asked of the
parent's document) and the same library runs again in the frame's session, down through
nested ones. A slot with no target (not attached yet, or a cross-origin frame Chrome keeps
in the page's process) or whose frame fails to answer is reported as not searched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from cdpilot.browser.dom.dom_scripts import method, script
from cdpilot.browser.dom.element_facts import QueryFindings, UnsearchedFrame
from cdpilot.browser.frames.frame_facts import FrameQuery, FrameSlot, frame_name, join_where
from cdpilot.browser.observe.child_targets import ChildTargets, FrameTarget
from cdpilot.browser.own_scripts import own_expression, own_function
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpSession
from cdpilot.errors import ArgumentError, BrowserConnectionError, CdpTimeoutError, ExecutionError, FieldProblem

SCRIPT_TIMEOUT_S = 15.0  # a page-side scan of a huge DOM is slow, never this slow
FRAME_TIMEOUT_S = 5.0  # an iframe that does not answer in this long is reported, not waited for
FRAME_FAILURES = (BrowserConnectionError, ExecutionError)  # gone, crashed, navigating, stuck
T = TypeVar("T")


@dataclass(frozen=True)
class FrameHop:
    """One cross-origin iframe on the way from the page to an element: the session holding
    its iframe element, and its frame id. Actions add up the iframes' boxes to find the
    element in the page's viewport."""

    parent: CdpSession
    frame_id: str


@dataclass(frozen=True)
class FrameCount:
    """How many elements match in one frame, and in each cross-origin iframe in it."""

    session: CdpSession
    prefix: str  # as `frame_name` names the frame; "" for the page
    hops: tuple[FrameHop, ...]
    count: int
    slots: tuple[tuple[FrameSlot, FrameCount | UnsearchedFrame], ...]
    shown: bool = True  # its iframe, and every iframe around it, is visible

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


async def run_page_script(
    conn: Target,
    expression: str,
    *,
    by_value: bool = True,
    session: CdpSession | None = None,
    timeout_s: float = SCRIPT_TIMEOUT_S,
) -> dict[str, Any]:
    """Evaluate one of our scripts in the page (or a frame's `session`); its value (by value), or its RemoteObject."""
    params = {"expression": own_expression(expression), "returnByValue": by_value, "silent": True}
    send = (session or page_of(conn)).send("Runtime.evaluate", params, timeout_s=timeout_s)
    reply = await conn.features.unless_blocked(send)
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side DOM search failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="The page may be navigating; try again, or check it with {tool:evaluate_js}.",
        )
    result: dict[str, Any] = reply["result"]
    return result.get("value", {}) if by_value else result


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


async def frames_for(conn: Target, parent: CdpSession, slots: tuple[FrameSlot, ...]) -> dict[str, FrameTarget]:
    """The running frame targets of `slots` (met in `parent`'s documents), by slot key."""
    keys = {slot.key for slot in slots}
    found: dict[str, FrameTarget] = {}
    for frame in conn.features.get(ChildTargets).frames_in(parent) if keys else []:
        try:
            owner = await parent.send("DOM.getFrameOwner", {"frameId": frame.frame_id}, timeout_s=FRAME_TIMEOUT_S)
            node = await parent.send("DOM.resolveNode", {"backendNodeId": owner["backendNodeId"]})
            object_id = node["object"]["objectId"]
            try:
                params = {"functionDeclaration": own_function(method("basics", "treePath")), "objectId": object_id}
                reply = await parent.send("Runtime.callFunctionOn", {**params, "returnByValue": True, "silent": True})
            finally:
                await parent.send("Runtime.releaseObject", {"objectId": object_id})
        except FRAME_FAILURES:
            continue  # its iframe element went away meanwhile: the slot says so
        key = str(reply["result"].get("value"))
        if key in keys:
            found[key] = frame
    return found


def frame_failure(exc: BaseException | None) -> str:
    """Why a cross-origin iframe could not be read: no target (yet), gone, or silent."""
    if exc is None:
        return "no frame target of its own (yet)"
    if isinstance(exc, CdpTimeoutError):
        return "it did not answer"
    if isinstance(exc, BrowserConnectionError):
        return "its target is gone (crashed or detached)"
    return "its document was changing"


def not_searched(prefix: str, slot: FrameSlot, exc: BaseException | None) -> UnsearchedFrame:
    return UnsearchedFrame(join_where(prefix, slot.where), slot.src, frame_failure(exc))


async def _each_slot(
    conn: Target,
    here: CdpSession,
    prefix: str,
    slots: tuple[FrameSlot, ...],
    search: Callable[[FrameSlot, FrameTarget], Awaitable[T]],
) -> tuple[tuple[FrameSlot, T | UnsearchedFrame], ...]:
    """`search` run in the frame target of each slot met in `here`'s documents, or why it could not be."""
    frames = await frames_for(conn, here, slots)
    children: list[tuple[FrameSlot, T | UnsearchedFrame]] = []
    for slot in slots:
        frame = frames.get(slot.key)
        try:
            children.append((slot, await search(slot, frame) if frame else not_searched(prefix, slot, None)))
        except FRAME_FAILURES as exc:
            children.append((slot, not_searched(prefix, slot, exc)))
    return tuple(children)


async def query_tree(
    conn: Target,
    args: tuple[str, int, str | None, bool],
    session: CdpSession | None = None,
    place: tuple[str, FrameSlot] | None = None,
) -> FrameQuery:
    """query_elements' page-side query (`args`: selector, limit, text, include_hidden) in the page,
    or in the frame of `session` at `place` (the prefix of its parent and its slot there), and
    in every cross-origin iframe below."""
    shown = place is None or place[1].shown
    expression = script("query", "query", *args, shown)
    timeout_s = SCRIPT_TIMEOUT_S if session is None else FRAME_TIMEOUT_S
    value = await run_page_script(conn, expression, session=session, timeout_s=timeout_s)
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    prefix = "" if place is None else frame_name(place[0], place[1], str(value["url"]))

    async def search(slot: FrameSlot, frame: FrameTarget) -> FrameQuery:
        return await query_tree(conn, args, frame.session, (prefix, slot))

    slots = await _each_slot(conn, session or page_of(conn), prefix, slots_of(value["slots"]), search)
    return FrameQuery(prefix, QueryFindings.from_page(value), slots)


async def count_tree(
    conn: Target,
    selector: str | None,
    top: tuple[int, tuple[FrameSlot, ...]],
    session: CdpSession | None = None,
    place: tuple[str, FrameSlot, tuple[FrameHop, ...], bool] | None = None,
) -> FrameCount:
    """How many elements match `selector` in the page (whose count and slots are `top`), and in
    each cross-origin iframe below; with the sessions to act in each."""
    here = session or page_of(conn)
    prefix, (count, slots) = "", top
    hops: tuple[FrameHop, ...] = ()
    shown = place is None or place[3]
    if place is not None:
        value = await run_page_script(conn, script("query", "count", selector), session=here, timeout_s=FRAME_TIMEOUT_S)
        if "error" in value:
            raise invalid_selector(str(value["error"]))
        count, slots = int(value["count"]), slots_of(value["slots"])
        prefix, hops = frame_name(place[0], place[1], str(value["url"])), place[2]

    async def search(slot: FrameSlot, frame: FrameTarget) -> FrameCount:
        inner = (prefix, slot, (*hops, FrameHop(here, frame.frame_id)), shown and slot.shown)
        return await count_tree(conn, selector, (0, ()), frame.session, inner)

    return FrameCount(here, prefix, hops, count, await _each_slot(conn, here, prefix, slots, search), shown)


def unsearched_note(frames: list[UnsearchedFrame]) -> str:
    """The sentence an error adds when cross-origin iframes could not be searched."""
    named = "; ".join(f"{f.where} ({f.url}): {f.reason}" if f.url else f"{f.where}: {f.reason}" for f in frames)
    many = "iframes were" if len(frames) != 1 else "iframe was"
    return f"{len(frames)} cross-origin {many} not searched: {named}."
