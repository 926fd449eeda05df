"""What a pause looks like in an answer: the bundle an agent needs to decide its next step.

A bundle leads with the reason and the location (url:line:column) with its source line,
then, in full, the top frames, the top frame's variables and the console output since the
last action. Variables are remembered per pause, so after a step the ones whose value
changed (in the same function at the same depth) are marked ``[CHANGED]``. Everything is
previewed compactly and capped so a bundle stays near 1,000 characters.
"""

from __future__ import annotations

from typing import Any

from cdpilot.browser.debugger.page_debugger import Location, PageDebugger, Pause
from cdpilot.browser.observe.console import ConsoleEntry
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.text import clip, one_line

BUNDLE_FRAMES = 5
BUNDLE_LOCALS = 10
BUNDLE_CONSOLE = 5
GLOBAL_SCOPES = ("global", "script")  # summarised, never listed: they hold the whole page


def frame_label(debugger: PageDebugger, index: int, frame: dict[str, Any]) -> str:
    where = debugger.location(frame)
    return f"#{index} {frame.get('functionName') or '(anonymous)'} {_short(where)}"


async def pause_lines(conn: BrowserConnection, pause: Pause, *, full: bool, console_mark: int | None) -> list[str]:
    """The pause bundle; `full` adds frames, locals and console output (smart default)."""
    debugger = conn.features.debugger
    top = pause.top
    where = debugger.location(top)
    first = f"Paused ({pause.reason}) at {where.label}"
    if pause.exception:
        first += f": {clip(one_line(pause.exception), 160)}"
    lines = [first]
    source = await debugger.source_line(where)
    if source:
        lines.append(f"  {where.line} | {source}")
    variables = await _locals_with_changes(debugger, pause)
    if not full:
        lines.append("Frames and variables: {tool:debugger_get_call_stack}.")
        return lines
    lines.append("Stack (0 = top):")
    lines += [f"  {frame_label(debugger, i, f)}" for i, f in enumerate(pause.call_frames[:BUNDLE_FRAMES])]
    if len(pause.call_frames) > BUNDLE_FRAMES:
        lines.append(f"  …{len(pause.call_frames) - BUNDLE_FRAMES} more: {{tool:debugger_get_call_stack}}")
    if variables:
        lines.append("Locals (#0): " + ", ".join(variables))
    if console_mark is not None:
        lines += console_lines(conn.features.console.since(console_mark))
    return lines


def console_lines(entries: list[ConsoleEntry]) -> list[str]:
    if not entries:
        return []
    shown = [
        f"  [{e.level}] {clip(one_line(e.text), 120)}" + (f" ({e.count} times)" if e.count > 1 else "") for e in entries
    ]
    lines = ["Console since the last action:", *shown[:BUNDLE_CONSOLE]]
    if len(entries) > BUNDLE_CONSOLE:
        lines.append(f"  …{len(entries) - BUNDLE_CONSOLE} more: {{tool:get_console_logs}}")
    return lines


async def _locals_with_changes(debugger: PageDebugger, pause: Pause) -> list[str]:
    """``name = value`` for the top frame's variables, marking what a step changed."""
    top = pause.top
    variables = await debugger.frame_locals(top, BUNDLE_LOCALS)
    function = top.get("functionLocation") or top["location"]
    key = (f"{function['scriptId']}:{function['lineNumber']}:{function.get('columnNumber', 0)}", len(pause.call_frames))
    before = debugger.remembered_locals(key) if pause.after_step else None
    debugger.remember_locals(key, dict(variables))
    return [
        f"{name} = {value}" + (" [CHANGED]" if before is not None and before.get(name) != value else "")
        for name, value in variables
    ]


async def call_stack_lines(conn: BrowserConnection, pause: Pause, *, max_frames: int, max_variables: int) -> list[str]:
    """Every frame (up to `max_frames`) with its source line and scope variables."""
    debugger = conn.features.debugger
    frames = pause.call_frames
    lines = [f"Paused ({pause.reason}); {len(frames)} frames (0 = top):"]
    for index, frame in enumerate(frames[:max_frames]):
        where = debugger.location(frame)
        lines.append(frame_label(debugger, index, frame))
        source = await debugger.source_line(where)
        if source:
            lines.append(f"  {where.line} | {clip(one_line(source), 100)}")
        for scope in frame.get("scopeChain", []):
            lines.append(await _scope_line(debugger, scope, max_variables))
    if len(frames) > max_frames:
        lines.append(f"…{len(frames) - max_frames} more frames: raise max_frames.")
    return lines


async def _scope_line(debugger: PageDebugger, scope: dict[str, Any], max_variables: int) -> str:
    kind = str(scope.get("type", "scope"))
    name = f" {scope['name']}" if scope.get("name") else ""
    if kind in GLOBAL_SCOPES:
        description = (scope.get("object") or {}).get("description") or kind
        return f"  {kind}{name}: {description} (not listed)"
    variables, total = await debugger.scope_variables(scope, max_variables)
    shown = ", ".join(f"{n} = {v}" for n, v in variables) or "(empty)"
    more = f", …{total - len(variables)} more" if total > len(variables) else ""
    return f"  {kind}{name}: {shown}{more}"


def _short(where: Location) -> str:
    """`file.js:line:column`: the frames list names the script by its last path segment."""
    name = where.url.rsplit("/", 1)[-1] or where.url or "(anonymous script)"
    return f"{clip(one_line(name), 60)}:{where.line}:{where.column}"
