"""The call stack of a pause: every frame shown (up to the asked limit) with its source line
and the variables of each scope, innermost first. Global and script scopes hold the whole
page, so they are named and summarised, never listed.
"""

from __future__ import annotations

from cdpilot.answers.pause_bundle import frame_label, shown_line, variable_text
from cdpilot.browser.debugger.debugger_facts import CallStack, ScopeVariables
from cdpilot.text import clip, one_line

SOURCE_LINE_CHARS = 100


def call_stack_lines(stack: CallStack) -> list[str]:
    total = len(stack.pause.frames)
    lines = [f"Paused ({stack.pause.reason}); {total} frames (0 = top):"]
    for detail in stack.frames:
        where = detail.frame.location
        generated = f" ({where.generated_label})" if where.original is not None else ""
        lines.append(frame_label(detail.frame) + generated)
        if detail.source_line:
            lines.append(f"  {shown_line(where)} | {clip(one_line(detail.source_line), SOURCE_LINE_CHARS)}")
        lines += [scope_line(scope) for scope in detail.scopes]
    if total > len(stack.frames):
        lines.append(f"…{total - len(stack.frames)} more frames: raise max_frames.")
    return lines


def scope_line(read: ScopeVariables) -> str:
    """``  closure makeCounter: count = 0, …2 more``; a global scope by what holds it."""
    scope = read.scope
    name = f" {scope.name}" if scope.name else ""
    if scope.is_global:
        return f"  {scope.kind}{name}: {scope.description or scope.kind} (not listed)"
    shown = ", ".join(variable_text(v) for v in read.variables) or "(empty)"
    more = f", …{read.total - len(read.variables)} more" if read.total > len(read.variables) else ""
    return f"  {scope.kind}{name}: {shown}{more}"
