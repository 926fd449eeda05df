"""What a pause looks like in an answer: the bundle an agent needs to decide its next step,
and what resume and the steps answer when execution runs on instead.

A bundle leads with the reason and the location (url:line:column) with its source line,
then, in full, the top frames, the top frame's variables (those a step changed marked
``[CHANGED]``) and the console output since the last action. The short form points at the
call stack instead. Everything is previewed compactly, so a bundle stays near 1,000 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.answers.console_log import console_bundle_lines
from cdpilot.browser.debugger.debugger_facts import Frame, Location, PauseSnapshot, RunCommand, Variable
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.text import clip, one_line

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
    if not snapshot.full:
        lines.append("Frames and variables: {tool:debugger_get_call_stack}.")
        return lines
    lines.append("Stack (0 = top):")
    lines += [f"  {frame_label(frame)}" for frame in pause.frames[:BUNDLE_FRAMES]]
    if len(pause.frames) > BUNDLE_FRAMES:
        lines.append(f"  …{len(pause.frames) - BUNDLE_FRAMES} more: {{tool:debugger_get_call_stack}}")
    if snapshot.locals:
        lines.append("Locals (#0): " + ", ".join(variable_text(v) for v in snapshot.locals))
    return lines + console_bundle_lines(list(snapshot.console), CONSOLE_TITLE)


def frame_label(frame: Frame) -> str:
    """``#1 compute app.js:28:19``: the frames list names the script by its last path segment,
    or the original source by its project path (``#1 total src/cart.ts:20:5``)."""
    where = frame.location
    if where.original is not None:
        return f"#{frame.index} {frame.name} {clip(one_line(where.original.label), SCRIPT_NAME_CHARS)}"
    script = where.url.rsplit("/", 1)[-1] or where.url or "(anonymous script)"
    return f"#{frame.index} {frame.name} {clip(one_line(script), SCRIPT_NAME_CHARS)}:{where.line}:{where.column}"


def shown_line(where: Location) -> int:
    """The line number a source excerpt is shown under: the original one when mapped."""
    return where.original.line if where.original is not None else where.line


def variable_text(variable: Variable) -> str:
    return f"{variable.name} = {variable.value}" + (" [CHANGED]" if variable.changed else "")


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
