"""Debugger tools (smart: enable_debug_tools, breakpoint, execution, step, call_stack,
evaluate with call_frame_id, pause_on_exceptions).

Every answer that leaves the page paused carries the pause bundle (`debugger_report`):
in full when context is wanted (smart by default), else its location and source line.
"""

from __future__ import annotations

from cdpilot_generated.models import (
    DebuggerDisableArgs,
    DebuggerEnableArgs,
    DebuggerEvaluateOnCallFrameArgs,
    DebuggerGetCallStackArgs,
    DebuggerListBreakpointsArgs,
    DebuggerPauseArgs,
    DebuggerRemoveBreakpointArgs,
    DebuggerResumeArgs,
    DebuggerSetBreakpointArgs,
    DebuggerSetPauseOnExceptionsArgs,
    DebuggerSkipAllPausesArgs,
    DebuggerStepIntoArgs,
    DebuggerStepOutArgs,
    DebuggerStepOverArgs,
)

from cdpilot.answers.debugging import call_stack_lines, console_lines, pause_lines
from cdpilot.browser.debugger.page_debugger import Breakpoint, RunOutcome, StepKind
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import wants_context
from cdpilot.text import clip, one_line

MAX_SCRIPTS_LISTED = 8
EXCEPTION_STATES = {
    "none": "No longer pausing on exceptions.",
    "uncaught": "Pausing on uncaught exceptions (caught ones run on).",
    "all": "Pausing on every exception, caught or not.",
}


async def debugger_enable(args: DebuggerEnableArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    enabled_now = await conn.features.debugger.enable()
    first = "Debugger enabled" if enabled_now else "The debugger was already enabled"
    return ToolResult("\n".join([f"{first} on {clip(one_line(conn.target_url or 'the page'), 160)}.", *_scripts(conn)]))


async def debugger_disable(args: DebuggerDisableArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    debugger = conn.features.debugger
    removed = len(debugger.breakpoints())
    was_paused = debugger.paused is not None
    await debugger.disable()
    resumed = " Execution resumed." if was_paused else ""
    return ToolResult(f"Debugger disabled; {removed} breakpoint(s) removed.{resumed}")


async def debugger_skip_all_pauses(args: DebuggerSkipAllPausesArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    enabled_now = await conn.features.debugger.set_skip_all_pauses(args.skip_all_pauses)
    first = "Debugger enabled. " if enabled_now else ""
    if args.skip_all_pauses:
        return ToolResult(first + "Skipping every pause: breakpoints and debugger; statements are ignored.")
    return ToolResult(first + "Pauses are honoured again.")


async def debugger_set_breakpoint(args: DebuggerSetBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    breakpoint_ = await conn.features.debugger.set_breakpoint(
        url=args.url,
        url_regex=args.url_regex,
        line=args.line_number,
        column=args.column_number,
        condition=args.condition,
    )
    lines = [f"Breakpoint {_describe(breakpoint_)}."]
    if not breakpoint_.resolved:
        lines.append("No loaded script matches yet; it binds when a matching script loads (also after a reload).")
        lines += _scripts(conn)
    return ToolResult("\n".join(lines))


async def debugger_remove_breakpoint(args: DebuggerRemoveBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    spec = await conn.features.debugger.remove_breakpoint(args.breakpoint_id)
    return ToolResult(f"Removed breakpoint {spec.id} at {spec.where}.")


async def debugger_list_breakpoints(args: DebuggerListBreakpointsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    breakpoints = conn.features.debugger.breakpoints()
    if not breakpoints:
        return ToolResult("\n".join(["No breakpoints. Set one with {tool:debugger_set_breakpoint}."]))
    return ToolResult("\n".join([f"{len(breakpoints)} breakpoint(s):", *(f"- {_describe(b)}" for b in breakpoints)]))


async def debugger_pause(args: DebuggerPauseArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    mark = conn.features.console.mark()
    pause = await conn.features.debugger.pause(args.timeout_ms)
    if pause is None:
        return ToolResult(
            "\n".join(
                [
                    f"Pause requested; no script ran within {args.timeout_ms} ms. Execution pauses at the next "
                    "statement the page runs (an event handler, a timer): trigger one, e.g. with {tool:click_element}."
                ],
            )
        )
    full = wants_context(args.include_context, ctx)
    return ToolResult("\n".join(await pause_lines(conn, pause, full=full, console_mark=mark)))


async def debugger_resume(args: DebuggerResumeArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    mark = conn.features.console.mark()
    outcome = await conn.features.debugger.resume(args.timeout_ms)
    return await _after_run(ctx, conn, "Resumed", outcome, mark, args.include_context)


async def debugger_step_over(args: DebuggerStepOverArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "over", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_step_into(args: DebuggerStepIntoArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "into", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_step_out(args: DebuggerStepOutArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "out", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_get_call_stack(args: DebuggerGetCallStackArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    pause = conn.features.debugger.require_paused()
    lines = await call_stack_lines(conn, pause, max_frames=args.max_frames, max_variables=args.max_variables)
    return ToolResult("\n".join(lines))


async def debugger_evaluate_on_call_frame(args: DebuggerEvaluateOnCallFrameArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    value = await conn.features.debugger.evaluate_on_frame(args.call_frame_id, args.expression, args.timeout_ms)
    return ToolResult(value)


async def debugger_set_pause_on_exceptions(args: DebuggerSetPauseOnExceptionsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    await conn.features.debugger.set_pause_on_exceptions(args.state)
    return ToolResult(EXCEPTION_STATES[args.state])


async def _step(
    ctx: ToolContext, kind: StepKind, connection_id: str | None, timeout_ms: int, include_context: bool | None
) -> ToolResult:
    conn = ctx.connections.get(connection_id)
    mark = conn.features.console.mark()
    outcome = await conn.features.debugger.step(kind, timeout_ms)
    return await _after_run(ctx, conn, f"Stepped {kind}", outcome, mark, include_context)


async def _after_run(
    ctx: ToolContext, conn: BrowserConnection, verb: str, outcome: RunOutcome, mark: int, include_context: bool | None
) -> ToolResult:
    """A new pause as its bundle; otherwise that execution went on, and what it logged."""
    full = wants_context(include_context, ctx)
    if outcome.pause is not None:
        lines = await pause_lines(conn, outcome.pause, full=full, console_mark=mark)
        if verb == "Resumed":
            lines.insert(0, "Resumed, then paused again:")
        return ToolResult("\n".join(lines))
    if outcome.busy:
        first = f"{verb}; the page is still running a script (pause it with {{tool:debugger_pause}})."
    else:
        first = f"{verb}; execution ran on without pausing."
    return ToolResult("\n".join([first, *console_lines(conn.features.console.since(mark))]))


def _describe(breakpoint_: Breakpoint) -> str:
    spec = breakpoint_.spec
    text = f"{spec.id} at {spec.where}"
    if spec.condition is not None:
        text += f" when {clip(one_line(spec.condition), 80)}"
    if breakpoint_.resolved:
        places = ", ".join(f"{r.line}:{r.column}" for r in breakpoint_.resolved[:3])
        more = f" (+{len(breakpoint_.resolved) - 3})" if len(breakpoint_.resolved) > 3 else ""
        text += f", resolved at {places}{more}"
    else:
        text += ", not resolved yet"
    return text


def _scripts(conn: BrowserConnection) -> list[str]:
    urls = conn.features.debugger.script_urls()
    if not urls:
        return ["No scripts with a URL are loaded yet."]
    listed = [clip(one_line(url), 100) for url in urls[:MAX_SCRIPTS_LISTED]]
    more = f" (+{len(urls) - MAX_SCRIPTS_LISTED} more)" if len(urls) > MAX_SCRIPTS_LISTED else ""
    return [f"Scripts{more}: " + ", ".join(listed)]
