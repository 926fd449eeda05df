"""The selectors of page_outline: unique across the page, so that the element tools reach what the outline lists.

Selectors are not guessed from the accessibility tree: the nodes that need one (landmarks,
frames and controls) are resolved to elements (``DOM.resolveNode``, sent together), and one
call per document hands them all to the same selector generator that inspect_element uses
(``dom_selectors.js``), in the session of that document. Only as many as an outline of
`max_chars` could show are resolved, so a page of thousands of links costs no more than one
that fits.

The element tools number the matches of a selector across the page and every cross-origin
iframe in it, so a selector unique in its own document may still reach another frame's
element first. With more than one target, each element gets a few candidates, every target
counts the other targets' candidates, and the first that matches nowhere else is kept
(none, rather than one that would reach the wrong element).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from cdpilot.browser.dom.dom_scripts import outline_function, script
from cdpilot.browser.frames.frame_search import FRAME_FAILURES, SCRIPT_TIMEOUT_S, run_page_script
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


async def outline_selectors(
    conn: Target, wanted: list[SelectorWanted], sessions: list[CdpSession], most: int
) -> dict[int, str]:
    """A selector for each part and for the controls ranked first, `most` in all (or the parts alone
    when they are more), by index in `wanted`; unique across the page and the cross-origin iframes
    read (their `sessions`, the page's first)."""
    parts = [i for i, w in enumerate(wanted) if w.part and w.backend_id is not None]
    controls = sorted(
        (i for i, w in enumerate(wanted) if not w.part and w.backend_id is not None), key=lambda i: wanted[i].rank
    )
    chosen = parts + controls[: max(0, most - len(parts))]  # every part: the hint of a cut names them
    candidates = CANDIDATES if len(sessions) > 1 else 1

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
    if len(sessions) == 1:
        return {index: sels[0] for index, sels in found.items() if sels}
    elsewhere = await _counts_elsewhere(conn, sessions, {i: (wanted[i].session, sels) for i, sels in found.items()})
    return {
        index: next((s for s in sels if not elsewhere.get((id(wanted[index].session), s))), "")
        for index, sels in found.items()
    }


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


async def _counts_elsewhere(
    conn: Target, sessions: list[CdpSession], found: dict[int, tuple[CdpSession, list[str]]]
) -> dict[tuple[int, str], int]:
    """How many elements each candidate matches in the targets other than its own, by (its target, selector)."""
    counts: dict[tuple[int, str], int] = {}
    for target in sessions:
        asked = [(id(s), sel) for s, sels in found.values() if s is not target for sel in sels]
        selectors = list(dict.fromkeys(sel for _, sel in asked))
        if not selectors:
            continue
        timeout_s = SCRIPT_TIMEOUT_S if target is page_of(conn) else FRAME_DEADLINE_S
        try:
            value = await run_page_script(
                conn, script("outline", "countsOf", selectors), session=target, timeout_s=timeout_s
            )
        except FRAME_FAILURES:
            continue  # a frame that does not answer cannot be checked
        matches = dict(zip(selectors, value, strict=False))
        for key in dict.fromkeys(asked):
            counts[key] = counts.get(key, 0) + int(matches.get(key[1], 0))
    return counts
