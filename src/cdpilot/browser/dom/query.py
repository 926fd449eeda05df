"""Finding elements: by selector (query, resolve), by description (inspect), and waiting for them.

Every search covers the document, open shadow roots and same-origin iframes, recursively,
in document order (dom_scripts.py explains the order), and cross-origin iframes, each in its
own target or our isolated world in it (`frame_search`); a frame-scoped selector
(`iframe#pay >> #card`) searches the frame it names. One ``Runtime.evaluate`` per frame
does the page-side work; an open JavaScript dialog fails the call instead of hanging it.

Indexes: the index of an element is its position among ALL matches of the selector,
visible or not, in that order. `resolve_element` (used by click/fill/hover/select) takes
that index, and query_elements shows that same index next to each element even when its
filters hide some matches, so ``query_elements`` → ``[3] …`` → ``click_element(index=3)``
always means the same element, whatever filters the query used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, replace
from typing import Any, Literal, NoReturn

from cdpilot import progress
from cdpilot.browser.dom.dom_scripts import script
from cdpilot.browser.dom.element_facts import (
    ElementTarget,
    InspectCandidate,
    InspectFindings,
    QueryFindings,
    WaitResult,
)
from cdpilot.browser.frames.frame_facts import FrameSlot, join_where, merge_inspect, merge_query
from cdpilot.browser.frames.frame_search import (
    FRAME_FAILURES,
    FrameCount,
    FrameHop,
    FramePlace,
    count_tree,
    invalid_selector,
    page_place,
    query_tree,
    run_in,
    run_page_script,
    scope_place,
    slots_of,
    split_scope,
    unsearched_note,
)
from cdpilot.browser.frames.frame_waits import wait_round
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, CdpTimeoutError, FieldProblem, StateError
from cdpilot.text import plural


@dataclass(frozen=True)
class ElementHandle:
    """One element, resolved for acting on it.

    `object_id` is the element's Runtime RemoteObjectId (valid in the execution context of
    the element's own frame): use it with DOM.scrollIntoViewIfNeeded, DOM.getContentQuads,
    Runtime.callFunctionOn, all sent on `session`: the page's, or a cross-origin iframe's,
    reached through `frames` (outermost first; in-process ones of another origin among them).
    """

    object_id: str
    session: CdpSession
    description: str  # e.g. button#submit "Sign in"
    match_count: int  # how many elements the selector matched in all
    index: int
    where: str  # "" in the main document, else e.g. "iframe#inner-frame > shadow root of div#host"
    frames: tuple[FrameHop, ...] = ()  # the cross-origin iframes it is in, outermost first

    @property
    def target(self) -> ElementTarget:
        """The element as an answer names it."""
        return ElementTarget(self.description, self.where, self.index, self.match_count)


WaitState = Literal["attached", "visible", "hidden"]
# After a navigation killed a pending wait, either event says the new document is there.
NEW_DOCUMENT_EVENTS = ("Page.frameNavigated", "Runtime.executionContextCreated")
# What Runtime.evaluate answers when the page navigates away under a pending wait.
CONTEXT_GONE = (
    "Execution context was destroyed",
    "Inspected target navigated",
    "Cannot find default execution context",
)

WAIT_HINT = (
    "Look at what the page has with {tool:query_elements} or {tool:browser_screenshot}. "
    "A higher {param:timeout_ms} waits longer."
)


async def resolve_element(conn: Target, selector: str, index: int, *, role: str = "") -> ElementHandle:
    """The element at `index` (0-based) among ALL matches of `selector`, visible or not.

    Matches are counted in document order across the document, open shadow roots, same-origin
    iframes and cross-origin ones (each in its own place: `frame_search`); a frame-scoped
    selector (`iframe#pay >> #card`) counts within the frame it names. Hidden matches count
    too, so an index stays stable while things appear and disappear. Raises `ArgumentError`
    for an invalid selector and `StateError` when nothing matches or `index` is out of range;
    `role` (e.g. "destination") says which of a call's selectors that was, when it has more than one.
    """
    frames, inner = split_scope(selector)
    place = await scope_place(conn, frames) if frames else page_place(conn)
    found = await _resolve_in(conn, place, inner, index)
    if not found.slots:
        alone = FrameCount(place, place.name(found.url), found.count, ())
        return _handle(conn, found, alone, index, alone, role)
    tree = await count_tree(conn, inner, place)
    spot = tree.locate(index)
    if spot is None or spot[0] is not tree or spot[1] != index:  # not the element the first resolve found
        await found.release()
        if spot is None:
            _none_at(conn, index, tree, role)
        found = await _resolve_in(conn, spot[0].place, inner, spot[1])
    return _handle(conn, found, spot[0], index, tree, role)


@dataclass(frozen=True)
class _Resolved:
    """What `resolve` answered in one frame: its count and slots, and the element at the index asked."""

    session: CdpSession
    count: int
    slots: tuple[FrameSlot, ...]
    object_id: str | None
    description: str
    where: str
    url: str

    async def release(self) -> None:
        if self.object_id is not None:
            with contextlib.suppress(*FRAME_FAILURES):
                await self.session.send("Runtime.releaseObject", {"objectId": self.object_id})


async def _resolve_in(conn: Target, place: FramePlace, selector: str, index: int) -> _Resolved:
    wrapper = await run_in(conn, place, script("query", "resolve", selector, index), by_value=False)
    session = place.session
    try:
        reply = await session.send("Runtime.getProperties", {"objectId": wrapper["objectId"], "ownProperties": True})
    finally:
        await session.send("Runtime.releaseObject", {"objectId": wrapper["objectId"]})
    props = {p["name"]: p["value"] for p in reply["result"] if "value" in p}
    if "error" in props:
        raise invalid_selector(str(props["error"].get("value")))
    element = props["element"].get("objectId")
    return _Resolved(
        session,
        int(props["count"]["value"]),
        slots_of(json.loads(props["slots"]["value"])),
        str(element) if element is not None else None,
        str(props["description"]["value"]),
        str(props["where"]["value"]),
        str(props["url"]["value"]),
    )


def _handle(
    conn: Target, found: _Resolved, frame: FrameCount, index: int, tree: FrameCount, role: str
) -> ElementHandle:
    """The element `found` in `frame`, as match `index` of all in the page's `tree`."""
    if found.object_id is None:  # the frame's matches changed since they were counted
        _none_at(conn, index, tree, role)
    return ElementHandle(
        object_id=found.object_id,
        session=found.session,
        description=found.description,
        match_count=tree.total,
        index=index,
        where=join_where(frame.prefix, found.where),
        frames=frame.hops,
    )


def _none_at(conn: Target, index: int, tree: FrameCount, role: str) -> NoReturn:
    """No match at `index`: none at all, or fewer; with the cross-origin iframes left unsearched.
    On a paused page, the pause: what its script has not made yet is not missing."""
    which = f"{role} " if role else ""
    count = tree.total
    if count == 0:
        conn.features.raise_if_paused(
            f"No element matches the {which}selector yet, and the page cannot add one until it runs again."
        )
    conn.features.raise_if_paused(
        f"Only {plural(count, 'element')} match{'es' if count == 1 else ''} the {which}selector yet, and the page "
        "cannot add more until it runs again."
    )
    missed = tree.unsearched()
    unsearched = f" {unsearched_note(missed)}" if missed else ""
    if count == 0:
        raise StateError(
            f"No element matches the {which}selector.{unsearched}",
            suggestion="Call {tool:query_elements} to see what exists, or {tool:wait_for} if it appears later.",
        )
    raise StateError(
        f"{which}index {index} is out of range: {count} element{'s' if count != 1 else ''} match.{unsearched}",
        suggestion=f"Use an index from 0 to {count - 1}; {{tool:query_elements}} lists them.",
    )


async def query_elements(
    conn: Target, selector: str, *, limit: int, text_contains: str | None, include_hidden: bool
) -> QueryFindings:
    """Matches of `selector` in the page and its cross-origin iframes, filtered by visibility
    (unless `include_hidden`) then by text, the first `limit` described; with names that
    resemble the selector when nothing matched."""
    frames, inner = split_scope(selector)
    place = await scope_place(conn, frames) if frames else None
    tree = await query_tree(conn, (inner, limit, text_contains, include_hidden), place)
    findings = merge_query(tree, limit)
    if findings.kept == 0:
        conn.features.raise_if_paused(
            "No element matches the selector yet, and the page cannot add one until it runs again."
            if findings.total == 0
            else f"None of the {plural(findings.total, 'match', 'matches')} is shown yet, and the page cannot "
            "change that until it runs again."
        )
    return findings


def check_inspect_request(description: str | None, text: str | None, attributes: dict[str, str] | None) -> None:
    if not (description or text or attributes):
        raise ArgumentError(
            "Say what to look for.",
            problems=[FieldProblem("description | text | attributes", "at least one of them", "none")],
            suggestion="Call {tool:inspect_element} with e.g. "
            '{param:inspect_element.description}="login submit button" or {param:inspect_element.text}="Sign in".',
        )


def check_wait_request(selector: str | None, texts: list[str] | None) -> None:
    if (selector is None) == (texts is None):
        raise ArgumentError(
            "Wait for a selector or for texts, not both and not neither.",
            problems=[FieldProblem("selector | texts", "exactly one of them", "both" if selector else "neither")],
            suggestion='Call {tool:wait_for} with {param:wait_for.selector}="#results" (and a state), '
            'or with {param:wait_for.texts}=["Welcome"].',
        )


async def inspect_element(
    conn: Target, *, description: str | None, text: str | None, attributes: dict[str, str] | None, limit: int
) -> InspectFindings:
    """The best-matching elements (sought as `check_inspect_request` allows) in the page and its
    cross-origin iframes, each with selectors unique in its own frame, ranked by how stable they are."""
    value = await run_page_script(conn, script("inspect", "inspect", description, text, attributes, limit, True))
    page = InspectFindings.from_page(value)
    frames = (await count_tree(conn, None)).searched()[1:] if value["slots"] else []
    found = [("", "", await _unique_across_frames(conn, page, frames))]
    for frame in frames:
        expression = script("inspect", "inspect", description, text, attributes, limit, frame.shown)
        with contextlib.suppress(*FRAME_FAILURES):  # a frame gone meanwhile has nothing to suggest
            inner = await run_in(conn, frame.place, expression)
            found.append((frame.prefix, frame.place.scope, InspectFindings.from_page(inner)))
    findings = merge_inspect(found, limit)
    if not findings.candidates:
        conn.features.raise_if_paused(
            "Nothing in the page matches that yet, and the page cannot add it until it runs again."
        )
    return findings


async def _unique_across_frames(conn: Target, page: InspectFindings, frames: list[FrameCount]) -> InspectFindings:
    """The page's suggestions, unique across every frame a plain selector searches: one that a
    cross-origin frame's documents match too is scoped to the same-origin frames around its
    element (`iframe#same >> #go`), or left out in the top document, where no scope narrows it.
    (A cross-origin frame's suggestions are scoped to it, so unique by construction.)"""
    selectors = list(dict.fromkeys(s.selector for c in page.candidates for s in c.selectors))
    elsewhere: set[str] = set()
    for frame in frames if selectors else []:
        with contextlib.suppress(*FRAME_FAILURES):  # a frame gone meanwhile matches nothing
            counts = (await run_in(conn, frame.place, script("query", "counts", selectors)))["counts"]
            elsewhere |= {selector for selector, count in zip(selectors, counts, strict=True) if count}

    def unique(candidate: InspectCandidate) -> InspectCandidate:
        kept = [s for s in candidate.selectors if s.selector not in elsewhere or candidate.scope]
        scoped = [replace(s, selector=candidate.scope + s.selector) if s.selector in elsewhere else s for s in kept]
        return replace(candidate, selectors=tuple(scoped))

    return replace(page, candidates=tuple(unique(c) for c in page.candidates))


async def wait_for(
    conn: Target, *, selector: str | None, state: WaitState, texts: list[str] | None, timeout_ms: int
) -> WaitResult:
    """Wait until `selector` reaches `state`, or any of `texts` is visible in the page.

    The page resolves a promise from a MutationObserver/animation-frame watcher (no polling
    from here); so does each cross-origin iframe (`frame_waits`). A navigation destroys the
    watcher with its document: it is started again in the new document, within what is left
    of `timeout_ms`. The request is one that `check_wait_request` allows.
    """
    conn.features.raise_if_blocked("Waiting needs the page running: nothing in it changes while it is paused.")
    awaited = f'"{selector}" to be {state}' if selector else "any of " + ", ".join(f'"{t}"' for t in texts or ())
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + timeout_ms / 1000
    try:
        async with asyncio.timeout(timeout_ms / 1000 + 1):  # the page's own deadline comes first
            while True:
                left_ms = max(1, round((deadline - loop.time()) * 1000))
                await progress.report(f"Waiting up to {left_ms / 1000:g} s for {awaited}")
                with page_of(conn).listen(*NEW_DOCUMENT_EVENTS) as new_documents:
                    try:
                        value = await wait_round(conn, selector, state, texts, left_ms)
                        break
                    except CdpCommandError as exc:
                        if not any(text in exc.cdp_message for text in CONTEXT_GONE):
                            raise
                    await new_documents.first(lambda event: _is_new_main_document(event, page_of(conn).target_id))
    except TimeoutError as exc:
        raise CdpTimeoutError(
            f"Timed out after {timeout_ms} ms; the page did not answer.\nWaited for {awaited}.", suggestion=WAIT_HINT
        ) from exc
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    elapsed_ms = round((loop.time() - started) * 1000)
    if value.get("timedOut"):
        what = "a selector to be " + state if selector else "a text"
        raise CdpTimeoutError(
            f"Timed out after {timeout_ms} ms waiting for {what}.\nWaited for {awaited}; {_last_seen(value, state)}.",
            suggestion=WAIT_HINT,
        )
    found = str(value.get("element") or value.get("text") or "")
    count = int(value["count"]) if "count" in value else None
    return WaitResult(awaited, found, str(value.get("where", "")), count, elapsed_ms)


def _is_new_main_document(event: CdpEvent, main_frame_id: str | None) -> bool:
    """The main frame committed a navigation, or its new document's context is ready
    (the latter only arrives while Runtime is enabled, which the console log does)."""
    if event.method == "Page.frameNavigated":
        return "parentId" not in event.params["frame"]
    aux = event.params["context"].get("auxData", {})
    return bool(aux.get("isDefault")) and aux.get("frameId") == main_frame_id


def _last_seen(value: dict[str, Any], state: str) -> str:
    """What the page looked like when the wait gave up."""
    if "count" not in value:
        return "none of the texts is visible"
    count = int(value["count"])
    if state == "hidden":
        return f"still visible: {value['element']}"
    if count == 0:
        return "nothing matches it"
    return f"{count} element{'s' if count != 1 else ''} match{'' if count != 1 else 'es'}, none visible"
