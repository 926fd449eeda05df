"""One round of wait_for, in the page and in its cross-origin iframes at once.

Each frame runs the page-side watcher (dom_wait.js) in its own place (`FramePlace`); while there is no
cross-origin iframe, the page's watcher alone, which stops when one appears. For "attached",
"visible" and texts the first frame whose condition holds wins, and the others are told to
stop (an event named by a random token, which only their watcher listens for) so that none
is left watching until its deadline. For "hidden" every frame must see it hidden. A frame that
fails meanwhile (its target gone, its document replaced) counts as holding nothing; a failure
of the page itself is the caller's to handle (a navigation starts the round again).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from cdpilot.browser.dom.dom_scripts import script
from cdpilot.browser.frames.frame_facts import join_where
from cdpilot.browser.frames.frame_search import (
    FRAME_FAILURES,
    FrameCount,
    FramePlace,
    count_tree,
    page_place,
    scope_place,
    split_scope,
)
from cdpilot.browser.observe.child_targets import ChildTargets
from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.target import Target
from cdpilot.errors import ExecutionError

STOP_TIMEOUT_S = 2.0  # a stopped watcher answers at once; this bounds a frame that went silent


async def wait_round(
    conn: Target, selector: str | None, state: str, texts: list[str] | None, left_ms: int
) -> dict[str, Any]:
    """The page-side wait's value (dom_wait.js ``waitFor``) for the page and its cross-origin
    iframes together (for a frame-scoped selector, the frame it names and those below it):
    `where` names the frame, `count` adds up every frame's matches. A frame target attached
    meanwhile (an iframe added, or one not attached yet when the wait began) starts the wait
    again in every frame."""
    place = page_place(conn)
    if selector is not None:
        scope, selector = split_scope(selector)
        place = await scope_place(conn, scope) if scope else place
    expression = script("wait", "waitFor", selector, state, texts, left_ms, place.shown)
    alone = await await_page(conn, place, expression, left_ms)
    if not alone.get("slots"):
        return {**alone, "where": join_where(place.name(str(alone.get("url", ""))), str(alone.get("where", "")))}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + left_ms / 1000
    while True:
        left_ms = max(1, round((deadline - loop.time()) * 1000))
        added = asyncio.ensure_future(conn.features.get(ChildTargets).frame_added())
        try:
            frames = (await count_tree(conn, selector, place)).searched()
            values = await _race(conn, frames, (selector, state, texts, left_ms), added)
        finally:
            added.cancel()
        if values is not None:
            return _combined(values, state)


async def _race(
    conn: Target,
    frames: list[FrameCount],
    wait: tuple[str | None, str, list[str] | None, int],
    added: asyncio.Future[None],
) -> list[tuple[FrameCount, dict[str, Any]]] | None:
    """Every frame's watcher, until one meets the condition (for hidden: until all do), or all
    time out; None when a frame target was `added` first."""
    selector, state, texts, left_ms = wait
    token = f"cdpilot-stop-{secrets.token_hex(8)}"
    watch = [(f, script("wait", "waitFor", selector, state, texts, left_ms, f.shown, token)) for f in frames]
    pending: dict[asyncio.Future[Any], FrameCount] = {
        asyncio.ensure_future(await_page(conn, f.place, expression, left_ms)): f for f, expression in watch
    }
    values: list[tuple[FrameCount, dict[str, Any]]] = []
    try:
        while pending and not (state != "hidden" and any(_met(v) for _, v in values)):
            waiting: set[asyncio.Future[Any]] = {*pending, added}
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if added in done:
                return None
            for task in done:
                frame = pending.pop(task)
                if frame.place is frames[0].place or not isinstance(task.exception(), FRAME_FAILURES):
                    values.append((frame, task.result()))
    finally:
        await _stop(list(pending), [pending[t].place for t in pending], token)
    return values


def _met(value: dict[str, Any]) -> bool:
    return "error" in value or not (value.get("timedOut") or value.get("stopped"))


def _combined(values: list[tuple[FrameCount, dict[str, Any]]], state: str) -> dict[str, Any]:
    """One value for every frame's: the winner's (or, for hidden, a frame still showing it),
    with its frame named and the matches of all frames counted."""
    for _, value in values:
        if "error" in value:
            return value
    counts = [int(v["count"]) for _, v in values if "count" in v]
    if state == "hidden":
        chosen = next(((f, v) for f, v in values if v.get("timedOut")), values[0])
    else:
        chosen = next(((f, v) for f, v in values if _met(v)), values[0])
    frame, value = chosen
    value = {**value, "where": join_where(frame.prefix, str(value.get("where", "")))}
    if any(v.get("timedOut") for _, v in values):
        value["timedOut"] = True
    if counts:
        value["count"] = sum(counts)
    return value


async def _stop(tasks: list[asyncio.Future[dict[str, Any]]], places: list[FramePlace], token: str) -> None:
    """Stop the watchers still running, and let their calls end."""
    expression = own_expression(f'dispatchEvent(new Event("{token}"))')
    for place in places:
        params = _in_context(place, {"expression": expression, "silent": True})
        with contextlib.suppress(*FRAME_FAILURES):
            await place.session.send("Runtime.evaluate", params, timeout_s=STOP_TIMEOUT_S)
    if tasks:
        await asyncio.wait(tasks, timeout=STOP_TIMEOUT_S)
        for task in tasks:
            if task.done():
                task.exception()  # consumed: a stopped frame's failure is nobody's
            else:
                task.cancel()


def _in_context(place: FramePlace, params: dict[str, Any]) -> dict[str, Any]:
    return params if place.context_id is None else {**params, "contextId": place.context_id}


async def await_page(conn: Target, place: FramePlace, expression: str, timeout_ms: int) -> dict[str, Any]:
    """Evaluate the awaited page-side wait in the frame of `place`; its value."""
    conn.features.raise_if_blocked()  # a paused page never settles what the wait watches
    params = {"expression": own_expression(expression), "returnByValue": True, "awaitPromise": True, "silent": True}
    send = place.session.send("Runtime.evaluate", _in_context(place, params), timeout_s=timeout_ms / 1000 + 2)
    reply = await conn.features.unless_blocked(send)
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side wait failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="Try again; if it keeps failing, check the page with {tool:evaluate_js}.",
        )
    value: dict[str, Any] = reply["result"].get("value", {})
    return value
