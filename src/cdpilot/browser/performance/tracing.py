"""Performance traces, recorded as DevTools' Performance panel records them.

``Tracing.start`` with the panel's categories, then either a wait of the asked duration or a
reload of the page up to its load; ``Tracing.end`` hands back a stream (``ReturnAsStream``)
that is read in chunks (``IO.read``) straight into the file, so a trace of tens of megabytes
never sits whole in memory. Chrome writes it as ``{"traceEvents": [...], "metadata": {...}}``,
the shape the panel saves and loads. A browser traces once at a time: a trace already running
(another call, or DevTools) is a STATE error, as Chrome reports it on start.

A browser context of a shared browser is refused a trace: the trace records the browser
process, which every context shares, so it would show other sessions' navigations and hold
up their traces.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from cdpilot import progress
from cdpilot.browser.page import loading
from cdpilot.browser.performance.performance_facts import Recording, TraceFile
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpCommandError, CdpilotError, CdpTimeoutError, StateError

CATEGORIES = (
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "disabled-by-default-devtools.timeline.stack",
    "disabled-by-default-v8.cpu_profiler",
    "v8.execute",
    "toplevel",
    "blink.console",
    "blink.user_timing",
    "latencyInfo",
    "loading",
)
"""The Performance panel's own (without screenshots, which would make a trace ten times larger)."""
CHUNK_BYTES = 1 << 20
SAVE_TIMEOUT_S = 30.0  # Chrome flushes the trace buffers before it hands the stream over
MAIN_THREAD = "CrRendererMain"

Opener = Callable[[], tuple[Path, BinaryIO]]


async def record(conn: BrowserConnection, *, duration_ms: int, reload: bool) -> Recording:
    """Record for `duration_ms`, or around a reload (bounded by `duration_ms`); the trace waits
    in the browser, as a stream, for `save`."""
    if conn.lease is not None:
        raise StateError(
            "A trace records the whole browser, and this connection is a context of the browser the "
            "server's sessions share: it would show what other sessions do.",
            suggestion="Start the server with --browser-per-session to give each session browsers of its own.",
        )
    page = conn.page
    try:
        await page.send(
            "Tracing.start",
            {
                "transferMode": "ReturnAsStream",
                "streamFormat": "json",
                "traceConfig": {"includedCategories": list(CATEGORIES), "excludedCategories": ["*"]},
            },
        )
    except CdpCommandError as exc:
        if "already" not in exc.cdp_message:
            raise
        raise StateError(
            "A trace is already being recorded in this browser (by another call, or by DevTools).",
            suggestion="Wait until that recording ends, then call {tool:record_trace} again.",
        ) from exc
    loop = asyncio.get_running_loop()
    started, load_missed = loop.time(), False
    try:
        if reload:
            await progress.report("Recording a trace around a reload")
            try:
                await loading.reload(conn, timeout_ms=duration_ms)
            except CdpTimeoutError:
                load_missed = True
        else:
            await _wait(duration_ms)
    except BaseException:
        await _abandon(page)
        raise
    recorded_ms = (loop.time() - started) * 1000
    await progress.report("Saving the trace")
    async with asyncio.timeout(SAVE_TIMEOUT_S):
        with page.listen("Tracing.tracingComplete") as events:
            await page.send("Tracing.end")
            complete = await events.next()
    return Recording(str(complete.params["stream"]), recorded_ms, load_missed)


async def _wait(duration_ms: int) -> None:
    """The recording's time, said once a second to a client that asked for progress."""
    total_s = duration_ms / 1000
    loop = asyncio.get_running_loop()
    end = loop.time() + total_s
    while (left := end - loop.time()) > 0:
        await progress.report(f"Recording a trace: {total_s - left:.0f} s of {total_s:g} s")
        await asyncio.sleep(min(1.0, left))


async def _abandon(page: CdpSession) -> None:
    """Stop a recording whose call failed or was cancelled, so the browser can trace again."""
    with contextlib.suppress(CdpilotError):  # the page may be gone: the call's own error is the news
        await page.send("Tracing.end")


async def save(conn: BrowserConnection, recording: Recording, open_file: Opener) -> TraceFile:
    """Stream the recorded trace into the file `open_file` opens (only now, so a trace that
    failed never truncated a file), then read back what it holds. A file left incomplete is
    removed: a part of a trace opens nowhere."""
    page = conn.page
    try:
        path, file = await asyncio.to_thread(open_file)
    except BaseException:
        await _close_stream(page, recording.stream)
        raise
    try:
        with file:
            size = await _stream(page, recording.stream, file)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return await asyncio.to_thread(trace_file, path, size, recording)


async def _stream(page: CdpSession, handle: str, file: BinaryIO) -> int:
    size = 0
    try:
        while True:
            chunk = await page.send("IO.read", {"handle": handle, "size": CHUNK_BYTES})
            text = chunk.get("data", "")
            data = base64.b64decode(text) if chunk.get("base64Encoded") else text.encode()
            await asyncio.to_thread(file.write, data)
            size += len(data)
            if chunk.get("eof"):
                return size
    finally:
        await _close_stream(page, handle)


async def _close_stream(page: CdpSession, handle: str) -> None:
    """Close the browser's stream of the trace, which holds the whole trace in its memory until
    then: also when the call was cancelled (the command goes out all the same and finishes in the
    background) or the page is gone (nothing left to close)."""
    closing = asyncio.ensure_future(page.send("IO.close", {"handle": handle}))
    closing.add_done_callback(lambda done: done.cancelled() or done.exception())
    with contextlib.suppress(CdpilotError):
        await asyncio.shield(closing)


def trace_file(path: Path, size: int, recording: Recording) -> TraceFile:
    """What a saved trace holds, read back from the file (blocking: run it in a thread)."""
    document = json.loads(path.read_bytes())
    events: list[dict[str, Any]] = document["traceEvents"] if isinstance(document, dict) else document
    main_threads = {
        (e.get("pid"), e.get("tid"))
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("args", {}).get("name") == MAIN_THREAD
    }
    timed = [e for e in events if e.get("ph") != "M" and e.get("ts", 0) > 0]
    span_ms = None
    if timed:
        first = min(e["ts"] for e in timed)
        last = max(e["ts"] + e.get("dur", 0) for e in timed)
        span_ms = (last - first) / 1000
    tasks = [
        e["dur"] / 1000
        for e in timed
        if e.get("name") == "RunTask" and "dur" in e and (e.get("pid"), e.get("tid")) in main_threads
    ]
    navigations = tuple(
        dict.fromkeys(
            str(url)
            for e in timed
            if e.get("name") == "navigationStart"
            and (url := e.get("args", {}).get("data", {}).get("documentLoaderURL"))
        )
    )
    return TraceFile(
        path=str(path),
        size=size,
        events=len(events),
        span_ms=span_ms,
        recorded_ms=recording.recorded_ms,
        longest_task_ms=max(tasks, default=None),
        navigations=navigations,
        load_missed=recording.load_missed,
    )
