"""What a pause looks like in an answer: the bundle an agent needs to decide its next step,
and what resume and the steps answer when execution runs on instead.

A bundle leads with the reason and the location (url:line:column) with its source line,
then, in full, the top frames (and the newest async boundary behind them), the top frame's
variables (those a step changed marked ``[CHANGED]``) and the console output since the last
action. The short form points at the call stack instead. Everything is previewed compactly,
so a bundle stays near 1,000 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.answers.console_log import console_bundle_lines
from cdpilot.browser.debugger.debugger_facts import (
    AsyncSegment,
    Frame,
    Location,
    Pause,
    PauseSnapshot,
    RunCommand,
    Variable,
)
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.text import clip, one_line, plural

BUNDLE_FRAMES = 5
EXCEPTION_CHARS = 160
SCRIPT_NAME_CHARS = 60
CONSOLE_TITLE = "Console since the last action"
RUN_VERBS: dict[RunCommand, str] = {
    "resume": "Resumed",
    "over": "Stepped over",
    "into": "Stepped into",
    "out": "Stepped out",
}


def pause_bundle_lines(snapshot: PauseSnapshot) -> list[str]:
    """The pause bundle; in full with frames, locals and console output (smart's default)."""
    pause = snapshot.pause
    where = pause.top.location
    first = f"Paused ({pause.reason}) at {where.label}"
    if pause.exception:
        first += f": {clip(one_line(pause.exception), EXCEPTION_CHARS)}"
    lines = [first]
    if snapshot.source_line:
        lines.append(f"  {shown_line(where)} | {snapshot.source_line}")
    if snapshot.map_failure:
        note = clip(one_line(snapshot.map_failure), EXCEPTION_CHARS)
        lines.append(f"Its source map could not be used, so this is the generated script: {note}")
    if not snapshot.full:
        lines.append("Frames and variables: {tool:debugger_get_call_stack}.")
        return lines
    lines.append("Stack (0 = top):")
    lines += [f"  {frame_label(frame)}" for frame in pause.frames[:BUNDLE_FRAMES]]
    if len(pause.frames) > BUNDLE_FRAMES:
        lines.append(f"  …{len(pause.frames) - BUNDLE_FRAMES} more: {{tool:debugger_get_call_stack}}")
    lines += async_hint_lines(pause)
    if snapshot.locals:
        lines.append("Locals (#0): " + ", ".join(variable_text(v) for v in snapshot.locals))
    return lines + console_bundle_lines(list(snapshot.console), CONSOLE_TITLE)


def frame_label(frame: Frame) -> str:
    """``#1 compute app.js:28:19``: the frames list names the script by its last path segment,
    or the original source by its project path and the function by its original name
    (``#1 total src/cart.ts:20:5`` for a minified ``s``)."""
    return f"#{frame.index} {frame.original_name or frame.name} {place_label(frame.location)}"


def place_label(where: Location) -> str:
    """A frame's place in a list of frames: ``app.js:28:19``, or ``src/cart.ts:20:5`` when mapped."""
    if where.original is not None:
        return clip(one_line(where.original.label), SCRIPT_NAME_CHARS)
    script = where.url.rsplit("/", 1)[-1] or where.url or "(anonymous script)"
    return f"{clip(one_line(script), SCRIPT_NAME_CHARS)}:{where.line}:{where.column}"


def async_hint_lines(pause: Pause) -> list[str]:
    """The newest async boundary and the frame behind it, on one line, when the pause has any
    (``  -- await -- onPrice src/main.ts:22:17``); the call stack shows the rest."""
    if not pause.async_segments:
        return []
    segment = pause.async_segments[0]
    frame = segment.frames[0]
    line = f"  {boundary_label(segment)} {frame.name} {place_label(frame.location)}"
    hidden = sum(len(s.frames) for s in pause.async_segments) - 1
    if hidden or pause.async_cut:
        line += f" {more_async(hidden, pause.async_cut, 'frame')}: {{tool:debugger_get_call_stack}}"
    return [line]


def boundary_label(segment: AsyncSegment) -> str:
    """``-- await --``, as DevTools marks an async boundary; a page names some itself
    (``console.createTask``), so the name is cut to a label's length."""
    return f"-- {clip(one_line(segment.description), SCRIPT_NAME_CHARS)} --"


def more_async(hidden: int, cut: bool, what: str) -> str:
    """``…3 more async frames``; ``…at least 4 more`` when the browser sent only part of the
    chain (one more at least: the part it did not send)."""
    count = hidden + 1 if cut else hidden
    return f"…{'at least ' if cut else ''}{plural(count, 'more async ' + what)}"


def shown_line(where: Location) -> int:
    """The line number a source excerpt is shown under: the original one when mapped."""
    return where.original.line if where.original is not None else where.line


def variable_text(variable: Variable) -> str:
    """``count = 2``; ``subtotal (e) = 0`` where a map renames it: the original name, then
    the generated one, which is what an expression evaluated in the frame must use."""
    name = f"{variable.original_name} ({variable.name})" if variable.original_name else variable.name
    return f"{name} = {variable.value}" + (" [CHANGED]" if variable.changed else "")


def paused_again_lines(
    command: RunCommand, snapshot: PauseSnapshot, *, stepped_through: Sequence[str] = ()
) -> list[str]:
    """A resume or step that stopped again: the new pause's bundle (a step's stop is expected,
    a resume's is news), after the library code a step went through, if any."""
    lines = pause_bundle_lines(snapshot)
    if stepped_through:
        lines = [f"Stepped through library code without stopping: {', '.join(stepped_through)}.", *lines]
    return ["Resumed, then paused again:", *lines] if command == "resume" else lines


def ran_on_lines(command: RunCommand, *, busy: bool, console: Sequence[ConsoleEntry]) -> list[str]:
    """A resume or step after which execution went on, and what the page logged meanwhile."""
    verb = RUN_VERBS[command]
    if busy:
        first = f"{verb}; the page is still running a script (pause it with {{tool:debugger_pause}})."
    else:
        first = f"{verb}; execution ran on without pausing."
    return [first, *console_bundle_lines(list(console), CONSOLE_TITLE)]


def pause_pending_line(timeout_ms: int) -> str:
    """A pause was asked for on a page that ran nothing within the wait."""
    return (
        f"Pause requested; no script ran within {timeout_ms} ms. Execution pauses at the next "
        "statement the page runs (an event handler, a timer): trigger one, e.g. with {tool:click_element}."
    )
