"""Snapshots of a pause for an answer: everything the pause bundle and the call stack show,
read from the page at once so that rendering them needs no browser.

Every answer that leaves the page paused (an input, a navigation, an evaluation, a step)
takes a `PauseSnapshot`, in short or in full; reading its locals also remembers them, so the
next step's snapshot can mark what changed even when this one is shown short.

A call stack reads what it shows: the top frame and every frame of the user's code (library
frames below the top, which the answer folds, are not read), the first `max_frames` of them
with their scopes' variables, the rest with their source line only. A pause on an exception
that stopped in library code (a framework that caught the Error and threw it again) also reads
where the Error was made: the first frame of the user's code in its own stack.
"""

from __future__ import annotations

from dataclasses import replace

from cdpilot.browser.debugger.debugger_facts import (
    CallStack,
    FrameDetail,
    Location,
    Pause,
    PauseSnapshot,
    ThrownAt,
)
from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.observe.console import ConsoleLog
from cdpilot.browser.target import Target
from cdpilot.text import clip

SNAPSHOT_LOCALS = 10  # the top frame's variables in a bundle
ORIGINAL_LINE_CHARS = 160
LISTED_FRAMES = 20  # frames of the user's code a call stack shows, with or without their variables


async def take_pause_snapshot(conn: Target, pause: Pause, *, full: bool, console_mark: int | None) -> PauseSnapshot:
    """`pause` with its source line and top frame's variables; in `full`, with the console
    output since `console_mark` too (none without a mark)."""
    debugger = conn.features.get(PageDebugger)
    pause = await debugger.names.annotate(pause)
    source = await _source_line(debugger, pause.top.location)
    variables = await debugger.variables.locals_marked(pause, SNAPSHOT_LOCALS)
    console = conn.features.get(ConsoleLog).since(console_mark) if full and console_mark is not None else []
    failure = await _map_failure(debugger, pause.top.location)
    thrown_at = await _thrown_at(debugger, pause)
    place = pause.top.location.original
    missing = debugger.maps.missing_source_once(place.url) if place is not None and not source else None
    conn.pause_shown(pause)
    return PauseSnapshot(pause, source, full, variables, tuple(console), failure, thrown_at, missing, conn.pause_owner)


async def take_call_stack(debugger: PageDebugger, *, max_frames: int, max_variables: int) -> CallStack:
    """The current pause's top frame and its frames of the user's code (up to `LISTED_FRAMES`),
    each with its source line; the first `max_frames` of them with up to `max_variables`
    variables of every scope but the global ones. Library frames below the top are left out:
    the answer folds them from the pause's frames."""
    pause = await debugger.names.annotate(debugger.require_paused())
    shown = [frame for frame in pause.frames if frame.index == 0 or not frame.location.library]
    frames = []
    for number, frame in enumerate(shown[: max(max_frames, LISTED_FRAMES)]):
        source = await _source_line(debugger, frame.location)
        read = number < max_frames
        scopes = tuple([await debugger.variables.scope(scope, max_variables) for scope in frame.scopes]) if read else ()
        frames.append(FrameDetail(frame, source, scopes))
    return CallStack(pause, tuple(frames), await _thrown_at(debugger, pause))


async def _thrown_at(debugger: PageDebugger, pause: Pause) -> ThrownAt | None:
    """For a pause on an exception in library code: the first frame of the user's code in the
    thrown Error's own stack, with its source line (None when it has none)."""
    if not pause.thrown or not pause.top.location.library:
        return None
    for frame in pause.thrown:
        where = await debugger.maps.original(frame.location)
        if where.script_id and not where.library:
            return ThrownAt(replace(frame, location=where), await _source_line(debugger, where))
    return None


async def _source_line(debugger: PageDebugger, location: Location) -> str:
    """The line's text: the original source's when a map covers the place, else the generated
    script's. An original line whose text cannot be had shows none, rather than the generated
    text under the original line's number."""
    if location.original is None:
        return await debugger.scripts.source_line(location)
    original = await debugger.maps.original_source_line(location)
    return clip(original.strip(), ORIGINAL_LINE_CHARS) if original is not None else ""


async def _map_failure(debugger: PageDebugger, location: Location) -> str | None:
    """Why the paused script is shown at its generated lines though it names a source map."""
    await debugger.maps.map_for(location.script_id)  # tried once, so a failure is known
    return debugger.maps.failure_once(location.script_id)
