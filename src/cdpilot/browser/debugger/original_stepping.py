"""Stepping in the code the user wrote, as DevTools does with source maps.

The browser steps by generated statement. In a source-mapped script one original line is
often several generated statements (or none: glue the bundler wrote), so a step that lands on
the same original line, in the same frame, or on generated code no map covers, steps again.
A step that lands in library code (ignore-listed by its map, or under node_modules) steps out
of it at once, and the answer says what it went through. Plain scripts step as the browser
does. The extra steps are bounded: a step never turns into a run.
"""

from __future__ import annotations

from dataclasses import replace

from cdpilot.browser.debugger.debugger_facts import Location, Pause, RunOutcome, StepKind
from cdpilot.browser.debugger.mapped_scripts import MappedScripts
from cdpilot.browser.debugger.run_control import RunControl

MAX_EXTRA_STEPS = 20  # steps taken on our own to reach the next original line, at most
STEP_COMMANDS: dict[StepKind, str] = {
    "over": "Debugger.stepOver",
    "into": "Debugger.stepInto",
    "out": "Debugger.stepOut",
}


async def step_in_original(
    run: RunControl, maps: MappedScripts, paused: Pause, kind: StepKind, timeout_ms: int
) -> RunOutcome:
    """Step `kind` from `paused` to the next place in the user's own code."""
    start = await maps.original(paused.top.location)
    depth = len(paused.frames)
    outcome = await run.go_on(STEP_COMMANDS[kind], timeout_ms, stepping=True)
    through: list[str] = []
    for _ in range(MAX_EXTRA_STEPS):
        if outcome.pause is None:
            break
        here = await maps.original(outcome.pause.top.location)
        again = _step_again(maps, kind, start, depth, here, len(outcome.pause.frames))
        if again is None:
            break
        if again == "out" and here.original is not None and here.original.source not in through:
            through.append(here.original.source)
        outcome = await run.go_on(STEP_COMMANDS[again], timeout_ms, stepping=True)
    return replace(outcome, stepped_through=tuple(through))


def _step_again(
    maps: MappedScripts, kind: StepKind, start: Location, depth: int, here: Location, here_depth: int
) -> StepKind | None:
    """The step to take after landing `here`, or None to stop there."""
    if not maps.has_map(here.script_id):
        return None  # a plain script: every statement is the user's
    if here.original is None:
        return kind if kind != "out" else "over"  # generated glue no map covers
    if here.original.library and (start.original is None or not start.original.library):
        return "out"
    same_line = start.original is not None and (start.original.url, start.original.line) == (
        here.original.url,
        here.original.line,
    )
    return kind if kind != "out" and same_line and here_depth == depth else None
