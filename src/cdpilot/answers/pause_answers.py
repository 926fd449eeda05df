"""What a pause looks like in an answer: the bundle an agent needs to decide its next step,
and what resume and the steps answer when execution runs on instead.

A bundle leads with the reason and the location (url:line:column) with its source line,
then, in full, the top frames (and the newest async boundary behind them), the top frame's
variables (those a step changed marked ``[CHANGED]``) and the console output since the last
action. The short form points at the call stack instead. Everything is previewed compactly,
so a bundle stays near 1,000 characters. A frame's script goes by as much of its path as tells
it from the other scripts of the stack (`script_names`); a long path is cut in the middle, so
its file name and line stay. Library frames (`Location.library`) below the top one are folded,
each run of them into one line naming the libraries and the first functions
(``#3–#10 … 8 library frames (react-dom): executeDispatch, runWithFiberInDEV, …``), so the
frames of the user's code are never crowded out. A pause on an exception names the thrown value;
when it stopped in library code, the frame of the user's code that made the Error follows.

An expression evaluated in a paused frame answers with its value, and, when its original names
were replaced by the bundle's, with what ran (`evaluated_answer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from cdpilot.answers.console_answers import console_bundle_lines
from cdpilot.browser.debugger.debugger_facts import (
    AsyncFrame,
    AsyncSegment,
    Frame,
    FrameExpression,
    Location,
    Pause,
    PauseSnapshot,
    RunCommand,
    ThrownAt,
    Variable,
    short_script_name,
)
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.text import clip, one_line, plural

BUNDLE_FRAMES = 5
EXCEPTION_CHARS = 160
SCRIPT_NAME_CHARS = 60
EXPRESSION_CHARS = 60  # each of the two forms of an evaluated expression
FOLDED_NAMES = 3  # functions named in a folded run of library frames
FOLDED_LIBRARIES = 2  # libraries named in one
SOURCE_LINE_CHARS = 100
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
    owner = f" in {snapshot.owner}" if snapshot.owner else ""
    first = f"Paused ({pause.reason}){owner} at {where.label}"
    if pause.exception:
        first += f": {clip(one_line(pause.exception), EXCEPTION_CHARS)}"
    lines = [first]
    if snapshot.source_line:
        lines.append(f"  {shown_line_number(where)} | {snapshot.source_line}")
    if pause.top.return_value is not None:
        lines.append(f"Returning {pause.top.return_value} from {pause.top.original_name or pause.top.name}.")
    if snapshot.map_failure:
        note = clip(one_line(snapshot.map_failure), EXCEPTION_CHARS)
        lines.append(f"Its source map could not be used, so this is the generated script: {note}")
    if snapshot.source_missing:
        note = clip(one_line(snapshot.source_missing), EXCEPTION_CHARS)
        lines.append(f"Its map names an original file that could not be fetched, so no line text is shown: {note}")
    names = stack_script_names(pause)
    if snapshot.thrown_at is not None:
        lines += thrown_at_lines(snapshot.thrown_at, pause.top, names)
    if not snapshot.full:
        lines.append("Frames and variables: {tool:debugger_get_call_stack}.")
        return lines
    lines.append("Stack (0 = top):")
    lines += bundle_frame_lines(pause.frames, names)
    lines += async_hint_lines(pause, names)
    if snapshot.locals:
        lines.append("Locals (#0): " + ", ".join(variable_text(v) for v in snapshot.locals))
    return lines + console_bundle_lines(list(snapshot.console), CONSOLE_TITLE)


def bundle_frame_lines(frames: Sequence[Frame], names: Mapping[str, str]) -> list[str]:
    """The top frame and the next frames of the user's code, up to `BUNDLE_FRAMES` of them,
    each run of library frames between them folded into one line; the rest counted."""
    lines: list[str] = []
    shown = 0
    for row in fold_library(frames):
        if shown == BUNDLE_FRAMES:
            left = len(frames) - (row[0].index if isinstance(row, list) else row.index)
            lines.append(f"  …{left} more: {{tool:debugger_get_call_stack}}")
            break
        if isinstance(row, list):
            lines.append(f"  {folded_frames_line(row)}")
        else:
            lines.append(f"  {frame_text(row, names)}")
            shown += 1
    return lines


Framed = TypeVar("Framed", Frame, AsyncFrame)


def fold_library(frames: Sequence[Framed], *, keep_first: bool = True) -> list[Framed | list[Framed]]:
    """`frames` with each run of library frames (below the first one, with `keep_first`:
    where a pause stopped is shown whatever it is) as one list."""
    rows: list[Framed | list[Framed]] = []
    for number, frame in enumerate(frames):
        if (number == 0 and keep_first) or not frame.location.library:
            rows.append(frame)
        elif rows and isinstance(rows[-1], list):
            rows[-1].append(frame)
        else:
            rows.append([frame])
    return rows


def folded_frames_line(run: Sequence[Frame]) -> str:
    """``#3–#10 … 8 library frames (react-dom): executeDispatch, runWithFiberInDEV, …``"""
    span = f"#{run[0].index}" + (f"–#{run[-1].index}" if len(run) > 1 else "")
    return f"{span} {folded_text(run)}"


def folded_text(run: Sequence[Frame | AsyncFrame]) -> str:
    """``… 8 library frames (react-dom): executeDispatch, runWithFiberInDEV, …``: the
    libraries and the first functions of a run of library frames."""
    libraries = list(dict.fromkeys(library_name(frame.location) for frame in run))
    named = list(
        dict.fromkeys(frame.original_name or frame.name if isinstance(frame, Frame) else frame.name for frame in run)
    )
    which = ", ".join(libraries[:FOLDED_LIBRARIES]) + (", …" if len(libraries) > FOLDED_LIBRARIES else "")
    functions = ", ".join(clip(name, SCRIPT_NAME_CHARS) for name in named[:FOLDED_NAMES])
    more = ", …" if len(named) > FOLDED_NAMES else ""
    return f"… {plural(len(run), 'library frame')} ({which}): {functions}{more}"


def library_name(where: Location) -> str:
    """The package a library place belongs to: ``react-dom``, ``@vue/runtime-core``; a script
    of Vite's dependency cache by its file (``react-dom_client``)."""
    path = where.original.source if where.original is not None else short_script_name(where.url)
    if "node_modules/" in path:
        parts = path.rsplit("node_modules/", 1)[1].split("/")
        return "/".join(parts[:2]) if parts[0].startswith("@") and len(parts) > 1 else parts[0]
    file = path.rstrip("/").rsplit("/", 1)[-1]
    return clip(file.removesuffix(".js").removesuffix(".mjs") or "library", SCRIPT_NAME_CHARS)


def thrown_at_lines(thrown_at: ThrownAt, top: Frame, names: Mapping[str, str]) -> list[str]:
    """Where the user's code made the Error a pause in library code stopped on, and its line."""
    frame = thrown_at.frame
    where = f"{top.original_name or top.name} ({library_name(top.location)})"
    lines = [
        f"The pause is in library code, {where}; the Error was made in your code at "
        f"{frame.name} {place_text(frame.location, names)}:"
    ]
    if thrown_at.source_line:
        source = clip(one_line(thrown_at.source_line), SOURCE_LINE_CHARS)
        lines.append(f"  {shown_line_number(frame.location)} | {source}")
    return lines


def frame_text(frame: Frame, names: Mapping[str, str]) -> str:
    """``#1 compute app.js:28:19``: the frames list names the script as `script_names` does
    across the stack, or the original source by its project path and the function by its
    original name (``#1 total src/cart.ts:20:5`` for a minified ``s``)."""
    return f"#{frame.index} {frame.original_name or frame.name} {place_text(frame.location, names)}"


def place_text(where: Location, names: Mapping[str, str]) -> str:
    """A frame's place in a list of frames: ``app.js:28:19``, ``a/util.js:3:19`` beside
    another util.js, or ``src/cart.ts:20:5`` when mapped. A long path loses its middle, never
    its file name or the line."""
    if where.original is not None:
        place = where.original
        return f"{clip(one_line(place.source), SCRIPT_NAME_CHARS, keep='ends')}:{place.line}:{place.column}"
    script = names.get(where.url) or script_names([where.url])[where.url]
    return f"{clip(one_line(script), SCRIPT_NAME_CHARS, keep='ends')}:{where.line}:{where.column}"


def stack_script_names(pause: Pause) -> dict[str, str]:
    """`script_names` of the scripts a pause's frames and async frames are shown by (those
    no map covers)."""
    places = [frame.location for frame in pause.frames]
    places += [frame.location for segment in pause.async_segments for frame in segment.frames]
    return script_names([where.url for where in places if where.original is None])


def script_names(urls: Iterable[str]) -> dict[str, str]:
    """Each script URL → the shortest end of its path that tells it apart from the others:
    ``util.js`` alone, ``a/util.js`` and ``b/util.js`` together. Scripts at one path (another
    origin, another query) go by their whole URL; a script without one is anonymous."""
    distinct = list(dict.fromkeys(urls))
    paths = {url: tuple(short_script_name(url).rstrip("/").split("/")) for url in distinct}
    names: dict[str, str] = {}
    for url, path in paths.items():
        others = [other for other_url, other in paths.items() if other_url != url]
        if not url:
            names[url] = "(anonymous script)"
        elif path in others:
            names[url] = url
        else:  # the whole path at most, which is shorter than any other path that ends with it
            ends = (n for n in range(1, len(path)) if all(other[-n:] != path[-n:] for other in others))
            names[url] = "/".join(path[-next(ends, len(path)) :])
    return names


def async_hint_lines(pause: Pause, names: Mapping[str, str]) -> list[str]:
    """The newest async boundary and the frame behind it, on one line, when the pause has any
    (``  -- await -- onPrice src/main.ts:22:17``): the first frame of the user's code behind
    it, under its own boundary, when there is one; the call stack shows the rest."""
    if not pause.async_segments:
        return []
    found = ((s, f) for s in pause.async_segments for f in s.frames if not f.location.library)
    segment, frame = next(found, (pause.async_segments[0], pause.async_segments[0].frames[0]))
    line = f"  {boundary_text(segment)} {frame.name} {place_text(frame.location, names)}"
    hidden = sum(len(s.frames) for s in pause.async_segments) - 1
    if hidden or pause.async_cut:
        line += f" {more_async_text(hidden, pause.async_cut, 'frame')}: {{tool:debugger_get_call_stack}}"
    return [line]


def boundary_text(segment: AsyncSegment) -> str:
    """``-- await --``, as DevTools marks an async boundary; a page names some itself
    (``console.createTask``), so the name is cut to a label's length."""
    return f"-- {clip(one_line(segment.description), SCRIPT_NAME_CHARS)} --"


def more_async_text(hidden: int, cut: bool, what: str) -> str:
    """``…3 more async frames``; ``…at least 4 more`` when the browser sent only part of the
    chain (one more at least: the part it did not send)."""
    count = hidden + 1 if cut else hidden
    return f"…{'at least ' if cut else ''}{plural(count, 'more async ' + what)}"


def shown_line_number(where: Location) -> int:
    """The line number a source excerpt is shown under: the original one when mapped."""
    return where.original.line if where.original is not None else where.line


def variable_text(variable: Variable) -> str:
    """``count = 2``; ``subtotal (e) = 0`` where a map renames it: the original name, then
    the generated one, which is what the code runs with."""
    name = f"{variable.original_name} ({variable.name})" if variable.original_name else variable.name
    return f"{name} = {variable.value}" + (" [CHANGED]" if variable.changed else "")


def evaluated_answer(expression: FrameExpression, answer: str) -> str:
    """What an expression evaluated in a paused frame answers: the value's answer alone, or,
    when its original names were replaced by the bundle's, ``items (t in the bundle) = []``,
    so the agent sees what ran."""
    if not expression.renamed:
        return answer
    written = clip(one_line(expression.written), EXPRESSION_CHARS, keep="ends")
    evaluated = clip(one_line(expression.evaluated), EXPRESSION_CHARS, keep="ends")
    return f"{written} ({evaluated} in the bundle) = {answer}"


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


def no_pause_line(timeout_ms: int) -> str:
    """A wait for a pause that none came to end."""
    return (
        f"No pause within {timeout_ms} ms; execution runs on. Wait longer (a higher timeout), or make the code "
        "run (a request to the server, a click in the page)."
    )


def pause_news_line(connection_id: str, owner: str, pause: Pause) -> str:
    """A pause of a Node.js program that came between calls, or during one (a request the page
    made): told at the top of the next answer, once."""
    where = pause.top
    return (
        f"Meanwhile '{connection_id}' paused ({pause.reason}) in {owner} at {where.location.label} in "
        f"{where.original_name or where.name or '(anonymous)'}: see it with {{tool:debugger_get_call_stack}} "
        f"({{param:connection_id}} '{connection_id}')."
    )


def pause_pending_line(timeout_ms: int) -> str:
    """A pause was asked for on a page that ran nothing within the wait."""
    return (
        f"Pause requested; no script ran within {timeout_ms} ms. Execution pauses at the next "
        "statement the page runs (an event handler, a timer): trigger one, e.g. with {tool:click_element}."
    )
