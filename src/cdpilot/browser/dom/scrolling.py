"""Scrolling the page or a scrollable element: a page at a time, to either end, an element into
view, or step by step until a text or selector is in the page.

Each move is the box's own ``scrollTo`` (``scroll_box.js``), not a synthetic wheel: it moves
by an exact amount whatever the page's scroll behaviour, and fires the ``scroll`` events that
virtualized and infinite lists render their rows from; after it the page gets two animation
frames, so those rows are there before anything is looked for. A search is bounded three ways:
the end of the box (after a last chance for an infinite list to load more), `max_steps`, and
`SEARCH_LIMIT_S`. Its answer says which one stopped it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from cdpilot.browser.dom.element_input import call_script
from cdpilot.browser.dom.query import ElementHandle, resolve_element
from cdpilot.browser.dom.scroll_facts import SEARCH_LIMIT_S, ScrollMove, ScrollReport, SearchStop
from cdpilot.browser.frames.frame_points import scroll_frames_into_view
from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.target import Target, page_of
from cdpilot.errors import ArgumentError, FieldProblem

GROW_MS = 1000  # at the end of a box searched downwards: how long an infinite list may take to load more
STEP_TIMEOUT_S = 5.0  # one step: a move, two frames (1 s at most without them) and GROW_MS


def check_scroll(to: str | None, until: str | None) -> None:
    """VALIDATION for a search that has no direction to go, or nothing to look for."""
    if until is not None and not until.strip():
        raise ArgumentError(
            "until is empty: give the text or CSS selector to scroll to.",
            problems=[FieldProblem("until", "a text or CSS selector", repr(until))],
        )
    if until is not None and to in ("top", "bottom"):
        raise ArgumentError(
            f"A search scrolls a page at a time, down or up; {{param:to}}={to} jumps to the end and would skip rows.",
            problems=[FieldProblem("to", "down or up with until", to)],
            suggestion="Call {tool:scroll} again with {param:scroll.to}=down (the default) or up.",
        )


async def scroll(
    conn: Target,
    selector: str | None,
    index: int,
    *,
    to: str | None,
    until: str | None,
    max_steps: int,
) -> ScrollReport:
    """Scroll as `check_scroll` allows: a box (`selector`, else the page) by `to`; with only a
    selector, that element into view; with `until`, a page at a time until it is found."""
    conn.features.raise_if_blocked("Scrolling needs the page running.")
    element = await resolve_element(conn, selector, index) if selector is not None else None
    into_view = element is not None and to is None and until is None
    subject = element if element is not None else await _page_document(conn)
    if element is not None:
        await scroll_frames_into_view(conn, element.frames)
    outcome = _Outcome()
    if into_view:
        outcome.take(await _step(conn, subject, "into_view", None))
    elif until is None:
        outcome.take(await _step(conn, subject, to or "down", None))
    else:
        await _search(conn, subject, to or "down", until, max_steps, outcome)
    return ScrollReport(
        element=element.target if element is not None else None,
        asked="into_view" if into_view else to or "down",
        moves=tuple(outcome.moves.values()),
        until=until,
        found=str(outcome.last.get("found") or ""),
        found_by=str(outcome.last.get("by") or ""),
        steps=outcome.steps,
        stop=outcome.stop,
        in_view=outcome.last.get("inView"),
    )


@dataclass
class _Outcome:
    """What the steps of one scroll found, as they come: each box's first and latest position."""

    moves: dict[str, ScrollMove] = field(default_factory=dict)
    last: dict[str, Any] = field(default_factory=dict)  # the last step's reply
    steps: int = 0  # page-sized steps that moved, while searching
    stop: SearchStop = ""

    def take(self, reply: dict[str, Any]) -> None:
        self.last = reply
        for value in reply["moves"]:
            move = ScrollMove.from_page(value)
            first = self.moves.get(move.box)
            self.moves[move.box] = move if first is None else replace(move, before=first.before)


async def _search(
    conn: Target, subject: ElementHandle, direction: str, until: str, max_steps: int, outcome: _Outcome
) -> None:
    """A page at a time until `until` is found, the box ends, or the steps or time run out."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SEARCH_LIMIT_S
    while True:
        outcome.take(await _step(conn, subject, direction, until))
        if outcome.last["found"]:
            return
        move = ScrollMove.from_page(outcome.last["moves"][0])
        if move.after == move.before:
            outcome.stop = "end"
            return
        outcome.steps += 1
        if outcome.steps >= max_steps or loop.time() >= deadline:
            out_of_steps = outcome.steps >= max_steps
            outcome.take(await _step(conn, subject, "look", until))  # the rows the last step brought in
            if not outcome.last["found"]:
                outcome.stop = "steps" if out_of_steps else "time"
            return


async def _step(conn: Target, subject: ElementHandle, op: str, until: str | None) -> dict[str, Any]:
    reply: dict[str, Any] = await call_script(
        conn, subject, "scroll_box", op, until, GROW_MS, await_promise=True, timeout_s=STEP_TIMEOUT_S
    )
    return reply


async def _page_document(conn: Target) -> ElementHandle:
    """The top document, as the subject of a page scroll."""
    params = {"expression": own_expression("document"), "silent": True}
    page = page_of(conn)
    reply = await conn.features.unless_blocked(page.send("Runtime.evaluate", params))
    return ElementHandle(reply["result"]["objectId"], page, "the page", 1, 0, "")
