"""The selectors of page_outline: unique across the page, so that the element tools reach what the outline lists.

Selectors are not guessed from the accessibility tree: the nodes that need one (landmarks,
frames and controls) are resolved to elements (``DOM.resolveNode``, sent together), and one
call per document hands them all to the same selector generator that inspect_element uses
(``dom_selectors.js``), in the session of that document. Only as many as an outline of
`max_chars` could show are resolved, so a page of thousands of links costs no more than one
that fits.

The element tools number the matches of a plain selector across the page and every iframe in
it, and those of a frame-scoped one (`iframe#pay >> #card`) across that iframe's frame and the
frames inside it; the page's own search enters a same-origin iframe, not one of another origin.
So an element in a frame of another origin gets its frame's prefix, and a selector unique in its
own document may still reach another frame's element first. With frames of another origin on
the page, each element gets a few candidates, every frame (each a `FramePlace`) counts those its
element's prefix reaches it with, and the first that matches only the element is kept (none,
rather than one that would reach the wrong element).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from cdpilot.browser.dom.dom_scripts import outline_function, script
from cdpilot.browser.frames.frame_search import FRAME_FAILURES, SCRIPT_TIMEOUT_S, FramePlace, run_page_script
from cdpilot.browser.outline.frame_outline import FRAME_DEADLINE_S
from cdpilot.browser.own_scripts import own_function
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpCommandError, ExecutionError

OBJECT_GROUP = "cdpilot-outline"
CANDIDATES = 4  # selectors tried per element when other targets may match them too


@dataclass(frozen=True)
class SelectorWanted:
    """An outline entry that may get a selector: a part (landmark or frame) always does, a control while they fit."""

    part: bool
    session: CdpSession  # the target whose document holds it
    tree: str  # the frame whose document holds it
    backend_id: int | None  # None for a heading: it gets no selector
    rank: int = 0  # a control: its place in its run of like controls; the first of every run get theirs first
    scope: str = ""  # the frame-scoped prefix of its document, e.g. "iframe#pay >> "; "" for the page's


async def outline_selectors(
    conn: Target, wanted: list[SelectorWanted], sessions: list[CdpSession], places: list[FramePlace], most: int
) -> dict[int, str]:
    """A selector for each part and for the controls ranked first, `most` in all (or the parts alone
    when they are more), by index in `wanted`, its frame's prefix first; unique where the element
    tools search with it (`places`: the page and each frame of another origin). `sessions` are the
    targets the trees were read in, the page's first."""
    parts = [i for i, w in enumerate(wanted) if w.part and w.backend_id is not None]
    controls = sorted(
        (i for i, w in enumerate(wanted) if not w.part and w.backend_id is not None), key=lambda i: wanted[i].rank
    )
    chosen = parts + controls[: max(0, most - len(parts))]  # every part: the hint of a cut names them
    candidates = CANDIDATES if len(places) > 1 else 1

    async def resolve(item: SelectorWanted) -> str | None:
        params = {"backendNodeId": item.backend_id, "objectGroup": OBJECT_GROUP}
        try:
            return str((await item.session.send("DOM.resolveNode", params))["object"]["objectId"])
        except (CdpCommandError, *FRAME_FAILURES):
            return None  # gone since the tree was read

    object_ids = await asyncio.gather(*(resolve(wanted[i]) for i in chosen))
    by_document: dict[str, list[tuple[int, str]]] = {}
    for index, object_id in zip(chosen, object_ids, strict=True):
        if object_id is not None:
            by_document.setdefault(wanted[index].tree, []).append((index, object_id))
    found: dict[int, list[str]] = {}
    try:
        for members in by_document.values():
            session = wanted[members[0][0]].session
            values = await _generate(conn, session, [object_id for _, object_id in members], candidates)
            found.update((index, [str(s) for s in sels]) for (index, _), sels in zip(members, values, strict=False))
    finally:
        for session in sessions:
            with contextlib.suppress(CdpCommandError, *FRAME_FAILURES):
                await session.send("Runtime.releaseObjectGroup", {"objectGroup": OBJECT_GROUP})
    if len(places) == 1:
        return {index: wanted[index].scope + sels[0] for index, sels in found.items() if sels}
    counts = await _counts_in_reach(conn, places, [(wanted[i].scope, sels) for i, sels in found.items()])
    unique = {index: next((s for s in sels if counts.get((wanted[index].scope, s), 0) <= 1), None)
              for index, sels in found.items()}  # fmt: skip
    return {index: wanted[index].scope + sel if sel else "" for index, sel in unique.items()}


async def _generate(conn: Target, session: CdpSession, object_ids: list[str], candidates: int) -> list[list[str]]:
    """The candidate selectors of each element of one document; none for a frame that fails to answer."""
    params = {
        "functionDeclaration": own_function(outline_function(candidates)),
        "objectId": object_ids[0],
        "arguments": [{"objectId": object_id} for object_id in object_ids],
        "returnByValue": True,
        "silent": True,
    }
    if session is not page_of(conn):
        try:
            reply = await session.send("Runtime.callFunctionOn", params, timeout_s=FRAME_DEADLINE_S)
        except FRAME_FAILURES:
            return []
        return list(reply["result"].get("value") or []) if "exceptionDetails" not in reply else []
    reply = await conn.features.unless_blocked(session.send("Runtime.callFunctionOn", params))
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side outline failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="The page may be navigating; try again, or check it with {tool:evaluate_js}.",
        )
    return list(reply["result"].get("value") or [])


async def _counts_in_reach(
    conn: Target, places: list[FramePlace], found: list[tuple[str, list[str]]]
) -> dict[tuple[str, str], int]:
    """How many elements each candidate matches where the element tools search with its prefix (the
    places whose prefix starts with it), by (prefix, selector); the element itself is one of them.
    A frame that does not answer cannot be counted."""
    counts: dict[tuple[str, str], int] = {}
    for place in places:
        asked = [(scope, sel) for scope, sels in found if place.scope.startswith(scope) for sel in sels]
        selectors = list(dict.fromkeys(sel for _, sel in asked))
        if not selectors:
            continue
        timeout_s = SCRIPT_TIMEOUT_S if place.slot is None else FRAME_DEADLINE_S
        expression = script("outline", "countsOf", selectors)
        try:
            value = await run_page_script(
                conn, expression, session=place.session, context_id=place.context_id, timeout_s=timeout_s
            )
        except FRAME_FAILURES:
            continue
        matches = dict(zip(selectors, value, strict=False))
        for key in dict.fromkeys(asked):
            counts[key] = counts.get(key, 0) + int(matches.get(key[1], 0))
    return counts
