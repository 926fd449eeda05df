"""JavaScript evaluation in the page and in a paused frame, under a time limit that holds.

Both kinds run the expression by reference and read the result with `value_reader`, so a
value reads the same wherever it was evaluated.

Time: the expression's own run gets the whole deadline, and when it passes the expression is
stopped (``Runtime.terminateExecution``), so a busy loop cannot hold the page, and every later
call to it, hostage. That command stops whatever script runs, and that is not always the
expression: the page runs commands that need its main thread one after another, in the order
sent, once its own script lets go. So a no-op is sent just before the expression; while it has
not answered, the expression has not started, and what the stop ends is the page's own script.
The value then comes with that news (`PageEvaluation`): the page was busy, and its work was cut
short to answer. A promise the expression returns is then awaited (``Runtime.awaitPromise``)
until the same deadline. A promise cannot be stopped from outside: when it has not settled in
time, the error says that the work it started may still go on in the page. While either waits,
a client that asked for progress hears every few seconds how long it has waited.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

from cdpilot import progress
from cdpilot.browser.debugger.debugger_facts import Frame
from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.own_scripts import own_expression, own_function, page_script
from cdpilot.browser.page.dialogs import DialogWatcher
from cdpilot.browser.page.page_facts import PageEvaluation
from cdpilot.browser.remote_values import render_remote
from cdpilot.browser.target import Target
from cdpilot.browser.value_facts import ReadLimits, Value
from cdpilot.browser.value_reader import new_object_group, read_value, release_values
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpilotError, CdpTimeoutError, DialogOpenError, ExecutionError, ExecutionPausedError
from cdpilot.text import clip

PROGRESS_EVERY_S = 3.0
STOP_GRACE_S = 2.0  # how long a stopped expression has to answer that it stopped
MAX_TIMEOUT_MS = 120_000  # the most timeout_ms the evaluate schemas accept
THROWN_CHARS = 1000
THROWN_STACK_LINES = 3
# Answered once the page's main thread serves the commands sent after it (see the module docstring);
# marked as ours, so a pause requested meanwhile is not taken in it.
READY_PROBE = {"expression": own_expression("0"), "silent": True}


@dataclass(frozen=True)
class FrameDocument:
    """An iframe to evaluate in, as its own scripts see it: the session holding it, and its
    document's object in its main world when the session's own document is another's (an
    in-process frame of another origin, which has no session of its own)."""

    session: CdpSession
    document_id: str | None = None


async def evaluate(
    conn: Target,
    expression: str,
    *,
    await_promise: bool,
    timeout_ms: int,
    limits: ReadLimits,
    frame: FrameDocument | None = None,
) -> PageEvaluation:
    """The value of `expression` in the page (or in `frame`), awaited when it is a promise and
    `await_promise`; with how long the page's own script had run when it had to be stopped for
    the expression to run."""
    deadline = asyncio.get_running_loop().time() + timeout_ms / 1000
    group = new_object_group()
    session = frame.session if frame is not None else conn.session
    params: dict[str, Any] = {"generatePreview": True, "userGesture": True, "objectGroup": group}
    if frame is not None and frame.document_id is not None:  # run there as the page would: global code
        method = "Runtime.callFunctionOn"
        function = own_function(page_script("global_eval"))
        params |= {"objectId": frame.document_id, "functionDeclaration": function, "arguments": [{"value": expression}]}
    else:
        method, params = "Runtime.evaluate", {**params, "expression": expression}
    ran = await _run(conn, method, params, deadline, timeout_ms, session)
    reply = ran.reply
    try:
        _raise_if_thrown(reply, "The expression threw", stopped_page_s=ran.stopped_page_s)
        remote = reply["result"]
        # A paused page runs no microtasks, so no promise can settle there (and awaiting one never ends).
        if await_promise and remote.get("subtype") == "promise" and conn.features.get(PageDebugger).paused is None:
            reply = await _settle(conn, session, remote["objectId"], deadline, timeout_ms)
            _raise_if_thrown(reply, "The promise it returned was rejected with", stopped_page_s=ran.stopped_page_s)
            remote = reply["result"]
        return PageEvaluation(await read_value(session, remote, limits), ran.stopped_page_s)
    finally:
        await _release(conn, group, session)
        if frame is not None and frame.document_id is not None:
            with contextlib.suppress(CdpilotError):
                await session.send("Runtime.releaseObject", {"objectId": frame.document_id}, timeout_s=STOP_GRACE_S)


async def evaluate_on_frame(
    conn: Target, frame: Frame, expression: str, *, timeout_ms: int, limits: ReadLimits
) -> Value:
    """The value of `expression` in a paused frame's scope."""
    deadline = asyncio.get_running_loop().time() + timeout_ms / 1000
    group = new_object_group()
    params = {
        "callFrameId": frame.call_frame_id,
        "expression": expression,
        "generatePreview": True,
        "objectGroup": group,
    }
    reply = (await _run(conn, "Debugger.evaluateOnCallFrame", params, deadline, timeout_ms)).reply
    try:
        _raise_if_thrown(reply, "The expression threw", hint="it sees the frame's variables as they are now")
        return await read_value(conn.session, reply["result"], limits)
    finally:
        await _release(conn, group)


async def _release(conn: Target, group: str, session: CdpSession | None = None) -> None:
    """Free what the evaluation left in `group` (only its reply can have put anything there). A page
    showing a dialog answers nothing until it closes: those objects then go with the page instead."""
    if conn.features.get(DialogWatcher).open is None:
        await release_values(session or conn.session, group, timeout_s=STOP_GRACE_S)


def exception_text(details: dict[str, Any]) -> str:
    """The JS error message, as the console would print its first line."""
    exception = details.get("exception") or {}
    description = str(exception.get("description") or details.get("text") or "unknown error")
    return description.splitlines()[0]


def thrown_text(details: dict[str, Any]) -> str:
    """What was thrown, bounded: an error's message with the first frames of its stack, or any
    other value as the console previews it."""
    exception = details.get("exception")
    if exception is None:
        return clip(str(details.get("text") or "unknown error"), THROWN_CHARS)
    if exception.get("subtype") != "error":
        return clip(render_remote(exception), THROWN_CHARS)
    lines = str(exception.get("description") or "Error").splitlines()
    message = [line for line in lines if not line.lstrip().startswith("at ")]
    frames = [clip(line.strip(), 160) for line in lines if line.lstrip().startswith("at ")]
    shown = ["    " + line for line in frames[:THROWN_STACK_LINES]]
    if len(frames) > THROWN_STACK_LINES:
        shown.append(f"    … {len(frames) - THROWN_STACK_LINES} more frames")
    return "\n".join([clip("\n".join(message), THROWN_CHARS), *shown])


def _raise_if_thrown(
    reply: dict[str, Any],
    what: str,
    *,
    hint: str = "it runs in the page as written (wrap statements in an IIFE)",
    stopped_page_s: float | None = None,
) -> None:
    details = reply.get("exceptionDetails")
    if details is not None:
        busy = "" if stopped_page_s is None else f"\n{stopped_page_script_text(stopped_page_s)}"
        raise ExecutionError(f"{what}: {thrown_text(details)}{busy}", suggestion=f"Fix the expression; {hint}.")


def stopped_page_script_text(seconds: float) -> str:
    """For an error: what stopping the page's own script to run an expression means for the page
    (a value answers with `answers.value_answers.stopped_page_script_answer`)."""
    return (
        f"The page was busy: its own script had been running for at least {round(seconds, 1):g} s, so cdpilot "
        "stopped that script to run the expression. The page did not finish that work; {tool:reload} starts it afresh."
    )


@dataclass(frozen=True)
class _Ran:
    reply: dict[str, Any]
    stopped_page_s: float | None = None  # the page's own script, stopped after running this long


async def _run(
    conn: Target,
    method: str,
    params: dict[str, Any],
    deadline: float,
    timeout_ms: int,
    session: CdpSession | None = None,
) -> _Ran:
    """Run the expression until `deadline`; past it, stop what runs so the page is free again: the
    expression, or the page's own script that kept it from starting (see the module docstring)."""
    session = session or conn.session
    loop = asyncio.get_running_loop()
    started = loop.time()
    budget_s = timeout_ms / 1000 + 2 * STOP_GRACE_S + 1
    # Sent first, so answered first: until it is, the expression has not started.
    ready = asyncio.ensure_future(session.send("Runtime.evaluate", READY_PROBE, timeout_s=budget_s))
    command = session.send(method, params, timeout_s=budget_s)
    task = asyncio.ensure_future(conn.features.unless_blocked(command))
    try:
        try:
            return _Ran(await _waited(task, deadline, timeout_ms, "Running the expression"))
        except TimeoutError:
            pass
        if not ready.done():
            return await _stop_page_script(conn, session, task, loop.time() - started)
        stopped, reply = await _stop(session, task)
    finally:
        conn.features.finish_later(ready)  # its answer, if still to come, says nothing any more
    if reply is not None:  # it finished as the deadline passed
        return _Ran(reply)
    outcome = (
        "so it was stopped; the page is free again."
        if stopped
        else "and the page has not confirmed that it stopped: it may still be busy."
    )
    raise CdpTimeoutError(
        f"The expression did not finish within {timeout_ms} ms, {outcome}",
        suggestion=_more_time(timeout_ms, "Make the expression do less"),
    )


async def _stop_page_script(
    conn: Target, session: CdpSession, task: asyncio.Future[dict[str, Any]], busy_s: float
) -> _Ran:
    """The page's own script held the page past the deadline, the expression waiting behind it:
    stop that script, and give the expression, which runs next, the grace to answer."""
    with contextlib.suppress(CdpilotError):  # it ended by itself meanwhile: the expression is on its way
        await session.send("Runtime.terminateExecution", timeout_s=STOP_GRACE_S)
    done, _ = await asyncio.wait({task}, timeout=STOP_GRACE_S)
    if done and not task.cancelled():
        failure = task.exception()
        if failure is None:
            return _Ran(task.result(), busy_s)
        if isinstance(failure, ExecutionPausedError | DialogOpenError):  # the expression's own news
            raise failure
    stopped = True if done else (await _stop(session, task))[0]  # the expression itself runs on: stop it too
    outcome = (
        "the page is free again." if stopped else "the page has not confirmed that it stopped: it may still be busy."
    )
    raise CdpTimeoutError(
        f"{stopped_page_script_text(busy_s)} The expression was then stopped too before it answered; {outcome}",
        suggestion="Make the expression do less, and look at what keeps the page busy (a loop in its own code).",
    )


async def _stop(session: CdpSession, task: asyncio.Future[dict[str, Any]]) -> tuple[bool, dict[str, Any] | None]:
    """Stop the running expression: whether it ended within the grace, and its reply if it
    finished before the stop took effect."""
    with contextlib.suppress(CdpilotError):  # nothing left to stop: the reply, or the page's end, is on its way
        await session.send("Runtime.terminateExecution", timeout_s=STOP_GRACE_S)
    done, _ = await asyncio.wait({task}, timeout=STOP_GRACE_S)
    if not done:
        task.cancel()
        return False, None
    if task.cancelled() or task.exception() is not None:  # "Execution was terminated": stopped as asked
        return True, None
    return True, task.result()


async def _settle(
    conn: Target, session: CdpSession, promise_id: str, deadline: float, timeout_ms: int
) -> dict[str, Any]:
    """Await a promise until `deadline`."""
    params = {"promiseObjectId": promise_id, "generatePreview": True}
    command = session.send("Runtime.awaitPromise", params, timeout_s=timeout_ms / 1000 + 1)
    task = asyncio.ensure_future(conn.features.unless_blocked(command))
    try:
        return await _waited(task, deadline, timeout_ms, "Awaiting the promise")
    except TimeoutError:
        task.cancel()
    raise CdpTimeoutError(
        f"The promise did not settle within {timeout_ms} ms. cdpilot stopped waiting, but a promise cannot be "
        "stopped: the work it started (timers, requests) may still go on in the page.",
        suggestion=_more_time(timeout_ms, "Keep the result in a page variable and read it in a later call"),
    )


def _more_time(timeout_ms: int, alternative: str) -> str:
    if timeout_ms < MAX_TIMEOUT_MS:
        return f"{alternative}. A higher {{param:timeout_ms}} (up to {MAX_TIMEOUT_MS}) gives it more time."
    return (
        f"{MAX_TIMEOUT_MS} ms is the longest one call waits: start the work in one call "
        "(window.job = doWork()) and read its outcome in later ones."
    )


async def _waited(task: asyncio.Future[dict[str, Any]], deadline: float, timeout_ms: int, doing: str) -> dict[str, Any]:
    """`task`'s result, reporting progress while it runs; TimeoutError at `deadline` (the task runs on)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError
            done, _ = await asyncio.wait({task}, timeout=min(PROGRESS_EVERY_S, remaining))
            if done:
                return task.result()
            if loop.time() < deadline:
                await progress.report(f"{doing}: {loop.time() - started:.0f} s of {timeout_ms / 1000:g} s")
    except asyncio.CancelledError:
        task.cancel()
        raise
