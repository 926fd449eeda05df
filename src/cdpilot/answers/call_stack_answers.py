"""The call stack of a pause: the top frame and every frame of the user's code, each with its
source line, the first of them (up to the asked limit) with the variables of each scope,
innermost first. Global and script scopes hold the whole page, so they are named and
summarised, never listed. In code a source map covers, functions and variables go by their
original names, the generated ones beside them (what the browser runs). Scripts go by as much
of their path as tells them apart (`script_names`): two util.js in one stack show as a/util.js
and b/util.js.

Library frames below the top one (`Location.library`: ignore-listed or under node_modules by
their map, or served from node_modules or Vite's .vite/deps) are folded, each run into one line
(``#3–#10 … 8 library frames (react-dom): executeDispatch, runWithFiberInDEV, …``). Variables
share one budget per answer (`VARIABLE_CHARS`), spread over the frames shown with theirs, the
user's frames first; a scope equal to one shown already (a module's, seen from its second
function) says so instead of listing it again. So a pause under a framework's frames, whose
scopes hold hundreds of variables, still fits in a few thousand characters.

A pause on an exception names the thrown value; one that stopped in library code also says
where the user's code made the Error (its own stack).

After them, what led there across async boundaries, as DevTools shows it: ``-- await --``,
``-- setTimeout --``, … each with the frames that scheduled the work, library runs folded too.
Those frames ran long ago, so they have a place and nothing else. The nearest few segments,
which explain the pause, are shown with a few frames each; the rest are counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cdpilot.answers.pause_answers import (
    EXCEPTION_CHARS,
    boundary_text,
    fold_library,
    folded_frames_line,
    folded_text,
    frame_text,
    more_async_text,
    place_text,
    shown_line_number,
    stack_script_names,
    thrown_at_lines,
    variable_text,
)
from cdpilot.browser.debugger.debugger_facts import CallStack, Frame, FrameDetail, Pause, ScopeVariables
from cdpilot.text import clip, one_line, plural

SOURCE_LINE_CHARS = 100
ASYNC_SEGMENTS = 3
ASYNC_FRAMES = 5  # rows per segment (a folded run of library frames is one)
VARIABLE_CHARS = 1500  # of listed variables per answer, shared by the frames shown with theirs

ScopeKey = tuple[str, str, tuple[str, ...], int]


def call_stack_lines(stack: CallStack) -> list[str]:
    pause = stack.pause
    names = stack_script_names(pause)
    first = f"Paused ({pause.reason})"
    if pause.exception:
        first += f": {clip(one_line(pause.exception), EXCEPTION_CHARS)}"
    lines = [f"{first}; {plural(len(pause.frames), 'frame')} (0 = top):"]
    if stack.thrown_at is not None:
        lines += thrown_at_lines(stack.thrown_at, pause.top, names)
    details = {detail.frame.index: detail for detail in stack.frames}
    scopes, cut = budgeted_scopes(stack.frames)
    for row in fold_library(pause.frames):
        if isinstance(row, list):
            lines.append(folded_frames_line(row))
            continue
        detail = details.get(row.index)
        if detail is None:  # past the frames read
            lines.append(
                f"…{plural(len(pause.frames) - row.index, 'more frame')} from #{row.index}: "
                "raise {param:debugger_get_call_stack.max_frames}."
            )
            break
        lines += frame_lines(detail, names) + scopes.get(row.index, [])
    unread = [d.frame.index for d in stack.frames if d.frame.scopes and not d.scopes]
    if unread:
        lines.append(
            f"Frames from #{unread[0]} on are shown without their variables: "
            "raise {param:debugger_get_call_stack.max_frames}."
        )
    if cut:
        lines.append("A scope lists its first variables; read others by name: {tool:debugger_evaluate_on_call_frame}.")
    return lines + async_stack_lines(pause, names)


def frame_lines(detail: FrameDetail, names: Mapping[str, str]) -> list[str]:
    """A frame's label, its source line and the value it returns, if it does."""
    frame = detail.frame
    lines = [frame_text(frame, names) + generated_side_text(frame)]
    if detail.source_line:
        lines.append(f"  {shown_line_number(frame.location)} | {clip(one_line(detail.source_line), SOURCE_LINE_CHARS)}")
    if frame.return_value is not None:
        lines.append(f"  returning {frame.return_value}")
    return lines


def budgeted_scopes(details: Sequence[FrameDetail]) -> tuple[dict[int, list[str]], bool]:
    """Each frame's scope lines (by frame index), within `VARIABLE_CHARS` for the whole
    answer: the user's frames first, innermost first, each frame given an even share of what
    is left (what one leaves over goes to the next). Whether any scope was cut."""
    read = [d for d in sorted(details, key=lambda d: (d.frame.location.library, d.frame.index)) if d.scopes]
    left = VARIABLE_CHARS
    seen: dict[ScopeKey, int] = {}
    lines: dict[int, list[str]] = {}
    cut = False
    for number, detail in enumerate(read):
        budget = left // (len(read) - number)
        frame_lines: list[str] = []
        for scope_read in detail.scopes:
            key = _scope_key(scope_read)
            if key in seen:
                frame_lines.append(f"  {_scope_title(scope_read)}: as in #{seen[key]}")
                continue
            if scope_read.variables:
                seen[key] = detail.frame.index
            line, used, scope_cut = scope_fit(scope_read, budget)
            frame_lines.append(line)
            budget -= used
            left -= used
            cut = cut or scope_cut
        lines[detail.frame.index] = frame_lines
    return lines, cut


def _scope_key(read: ScopeVariables) -> ScopeKey:
    scope = read.scope
    shown = tuple(variable_text(v) for v in read.variables)
    return (scope.kind, scope.original_name or scope.name, shown, read.total) if shown else ("", "", (), -1)


def generated_side_text(frame: Frame) -> str:
    """`` (s at http://…/app.js:1:340)``: what the browser runs, beside a frame shown in the
    author's terms: the function's generated name where a map renames it, the generated
    place where a map covers it; nothing for a frame shown as it runs."""
    where = frame.location
    name = frame.name if frame.original_name is not None else ""
    place = where.generated_label if where.original is not None else ""
    shown = " at ".join(part for part in (name, place) if part)
    return f" ({shown})" if shown else ""


def async_stack_lines(pause: Pause, names: Mapping[str, str]) -> list[str]:
    """``-- await --`` then ``  at onPrice src/main.ts:22:17`` per frame, newest boundary
    first; each run of library frames on one line."""
    lines = []
    for segment in pause.async_segments[:ASYNC_SEGMENTS]:
        lines.append(boundary_text(segment))
        rows = fold_library(segment.frames, keep_first=False)
        for row in rows[:ASYNC_FRAMES]:
            if isinstance(row, list):
                lines.append(f"  {folded_text(row)}")
            else:
                lines.append(f"  at {row.name} {place_text(row.location, names)}")
        hidden = sum(len(row) if isinstance(row, list) else 1 for row in rows[ASYNC_FRAMES:])
        if hidden:
            lines.append(f"  …{plural(hidden, 'more frame')}")
    hidden = max(0, len(pause.async_segments) - ASYNC_SEGMENTS)
    if hidden or pause.async_cut:
        lines.append(more_async_text(hidden, pause.async_cut, "segment") + " (not shown)")
    return lines


def scope_line(read: ScopeVariables) -> str:
    """``  closure makeCounter: count = 0, …2 more``; a global scope by what holds it."""
    return scope_fit(read, None)[0]


def scope_fit(read: ScopeVariables, budget: int | None) -> tuple[str, int, bool]:
    """A scope's line with as many of its variables as fit in `budget` characters (all that
    were read without one), the characters they took, and whether any were left out."""
    scope = read.scope
    title = _scope_title(read)
    if scope.is_global:
        return f"  {title}: {scope.description or scope.kind} (not listed)", 0, False
    shown: list[str] = []
    used = 0
    for variable in read.variables:
        text = variable_text(variable)
        if budget is not None and used + len(text) + 2 > budget:
            break
        shown.append(text)
        used += len(text) + 2
    left = read.total - len(shown)
    if read.total and not shown:
        return f"  {title}: ({plural(read.total, 'variable')}, not listed)", 0, True
    more = f", …{left} more" if left else ""
    return f"  {title}: {', '.join(shown) or '(empty)'}{more}", used, left > 0


def _scope_title(read: ScopeVariables) -> str:
    scope = read.scope
    return scope.kind + (f" {scope.original_name or scope.name}" if scope.name else "")
