"""The call stack of a pause: every frame shown (up to the asked limit) with its source line
and the variables of each scope, innermost first. Global and script scopes hold the whole
page, so they are named and summarised, never listed. In code a source map covers, functions
and variables go by their original names, the generated ones beside them (what the browser
runs). Scripts go by as much of their path as tells them apart (`script_names`): two util.js
in one stack show as a/util.js and b/util.js.

After them, what led there across async boundaries, as DevTools shows it: ``-- await --``,
``-- setTimeout --``, … each with the frames that scheduled the work. Those frames ran long
ago, so they have a place and nothing else. The nearest few segments, which explain the
pause, are shown with a few frames each; the rest are counted.
"""

from __future__ import annotations

from collections.abc import Mapping

from cdpilot.answers.pause_bundle import (
    boundary_label,
    frame_label,
    more_async,
    place_label,
    shown_line,
    stack_script_names,
    variable_text,
)
from cdpilot.browser.debugger.debugger_facts import CallStack, Frame, Pause, ScopeVariables
from cdpilot.text import clip, one_line

SOURCE_LINE_CHARS = 100
ASYNC_SEGMENTS = 3
ASYNC_FRAMES = 5  # per segment


def call_stack_lines(stack: CallStack) -> list[str]:
    total = len(stack.pause.frames)
    names = stack_script_names(stack.pause)
    lines = [f"Paused ({stack.pause.reason}); {total} frames (0 = top):"]
    for detail in stack.frames:
        where = detail.frame.location
        lines.append(frame_label(detail.frame, names) + generated_side(detail.frame))
        if detail.source_line:
            lines.append(f"  {shown_line(where)} | {clip(one_line(detail.source_line), SOURCE_LINE_CHARS)}")
        if detail.frame.return_value is not None:
            lines.append(f"  returning {detail.frame.return_value}")
        lines += [scope_line(scope) for scope in detail.scopes]
    if total > len(stack.frames):
        lines.append(f"…{total - len(stack.frames)} more frames: raise {{param:debugger_get_call_stack.max_frames}}.")
    if any(read.total > len(read.variables) for detail in stack.frames for read in detail.scopes):
        lines.append("A scope lists its first variables; read others by name: {tool:debugger_evaluate_on_call_frame}.")
    return lines + async_stack_lines(stack.pause, names)


def generated_side(frame: Frame) -> str:
    """`` (s at http://…/app.js:1:340)``: what the browser runs, beside a frame shown in the
    author's terms: the function's generated name where a map renames it, the generated
    place where a map covers it; nothing for a frame shown as it runs."""
    where = frame.location
    name = frame.name if frame.original_name is not None else ""
    place = where.generated_label if where.original is not None else ""
    shown = " at ".join(part for part in (name, place) if part)
    return f" ({shown})" if shown else ""


def async_stack_lines(pause: Pause, names: Mapping[str, str]) -> list[str]:
    """``-- await --`` then ``  at onPrice src/main.ts:22:17`` per frame, newest boundary first."""
    lines = []
    for segment in pause.async_segments[:ASYNC_SEGMENTS]:
        lines.append(boundary_label(segment))
        shown = segment.frames[:ASYNC_FRAMES]
        lines += [f"  at {frame.name} {place_label(frame.location, names)}" for frame in shown]
        if len(segment.frames) > ASYNC_FRAMES:
            lines.append(f"  …{len(segment.frames) - ASYNC_FRAMES} more frames")
    hidden = max(0, len(pause.async_segments) - ASYNC_SEGMENTS)
    if hidden or pause.async_cut:
        lines.append(more_async(hidden, pause.async_cut, "segment") + " (not shown)")
    return lines


def scope_line(read: ScopeVariables) -> str:
    """``  closure makeCounter: count = 0, …2 more``; a global scope by what holds it."""
    scope = read.scope
    name = f" {scope.original_name or scope.name}" if scope.name else ""
    if scope.is_global:
        return f"  {scope.kind}{name}: {scope.description or scope.kind} (not listed)"
    shown = ", ".join(variable_text(v) for v in read.variables) or "(empty)"
    more = f", …{read.total - len(read.variables)} more" if read.total > len(read.variables) else ""
    return f"  {scope.kind}{name}: {shown}{more}"
