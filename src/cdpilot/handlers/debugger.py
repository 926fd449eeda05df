"""Debugger tools (smart: enable_debug_tools, breakpoint, execution, step, call_stack,
evaluate with call_frame_id, pause_on_exceptions).

Every answer that leaves the page paused carries the pause bundle (`take_pause_snapshot`,
rendered by `pause_bundle_lines`): in full when context is wanted (smart by default), else
its location and source line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from cdpilot.answers.call_stack_answers import call_stack_lines
from cdpilot.answers.debugger_setup_answers import (
    breakpoint_list_lines,
    breakpoint_removed_line,
    breakpoint_set_lines,
    disabled_line,
    enabled_lines,
    exception_state_line,
    function_breakpoint_lines,
    skip_pauses_line,
    trigger_set_lines,
)
from cdpilot.answers.pause_answers import (
    evaluated_answer,
    no_pause_line,
    pause_bundle_lines,
    pause_pending_line,
    paused_again_lines,
    ran_on_lines,
)
from cdpilot.answers.performance_answers import cpu_sample_answer
from cdpilot.answers.source_answers import scripts_answer, search_answer, source_lines_answer
from cdpilot.browser.debugger.breakpoint_requests import check_script_choice
from cdpilot.browser.debugger.debugger_facts import Breakpoint, Pause, RunCommand, RunOutcome, StepKind, Trigger
from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.debugger.pause_snapshot import take_call_stack, take_pause_snapshot
from cdpilot.browser.debugger.source_files import search_pattern
from cdpilot.browser.page.evaluation import evaluate_on_frame
from cdpilot.browser.performance.cpu_sample import sample_cpu
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.manager import Connection
from cdpilot.browser.session.node_connection import NodeConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import BrowserConnectionError
from cdpilot.handlers.common import browser, target, wants_context
from cdpilot.handlers.evaluate import read_limits, value_result

if TYPE_CHECKING:
    from cdpilot_generated.models import (
        DebuggerDisableArgs,
        DebuggerEnableArgs,
        DebuggerEvaluateOnCallFrameArgs,
        DebuggerGetCallStackArgs,
        DebuggerListBreakpointsArgs,
        DebuggerListScriptsArgs,
        DebuggerPauseArgs,
        DebuggerReadSourceArgs,
        DebuggerRemoveBreakpointArgs,
        DebuggerResumeArgs,
        DebuggerSampleCpuArgs,
        DebuggerSearchSourcesArgs,
        DebuggerSetBreakpointArgs,
        DebuggerSetDomBreakpointArgs,
        DebuggerSetEventBreakpointArgs,
        DebuggerSetFunctionBreakpointArgs,
        DebuggerSetPauseOnExceptionsArgs,
        DebuggerSetXhrBreakpointArgs,
        DebuggerSkipAllPausesArgs,
        DebuggerStepIntoArgs,
        DebuggerStepOutArgs,
        DebuggerStepOverArgs,
        DebuggerWaitForPauseArgs,
    )

T = TypeVar("T")


async def debugger_enable(args: DebuggerEnableArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    enabled_now = await _enable(conn)
    return _lines(enabled_lines(enabled_now, conn.target_url, conn.features.debugger.scripts.urls()))


async def debugger_disable(args: DebuggerDisableArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    outcomes = await _on_each(conn, lambda d: conn.features.unless_blocked(d.disable(), pause_blocks=False))
    return ToolResult(disabled_line(outcomes[0]))


async def debugger_skip_all_pauses(args: DebuggerSkipAllPausesArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    skips = await _on_each(conn, lambda d: conn.features.unless_blocked(d.set_skip_all_pauses(args.skip_all_pauses)))
    enabled_now = skips[0]
    return ToolResult(skip_pauses_line(args.skip_all_pauses, enabled_now=enabled_now))


async def debugger_set_breakpoint(args: DebuggerSetBreakpointArgs, ctx: ToolContext) -> ToolResult:
    check_script_choice(args.url, args.url_regex)
    conn = await target(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    set_in_each = await _on_each(
        conn,
        lambda debugger: debugger.set_breakpoint(
            url=args.url,
            url_regex=args.url_regex,
            line=args.line_number,
            column=args.column_number,
            condition=args.condition,
            log_message=args.log_message,
            hit_count=args.hit_count,
        ),
    )
    breakpoint_ = _where_bound(set_in_each)
    debugger = conn.features.debugger
    same_name = await debugger.same_name(args.url) if args.url is not None and not breakpoint_.resolved else []
    return _lines(enabled + breakpoint_set_lines(breakpoint_, debugger.scripts.urls(), same_name))


async def debugger_set_function_breakpoint(args: DebuggerSetFunctionBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    enabled, debugger = await _enabled_now(conn), conn.features.debugger
    place = await debugger.files.find_function(args.function_name)
    set_in_each = await _on_each(
        conn,
        lambda each: each.set_breakpoint(
            url=place.file, url_regex=None, line=place.body_line, column=None, condition=None
        ),
    )
    breakpoint_ = _where_bound(set_in_each)
    return _lines(enabled + function_breakpoint_lines(place, breakpoint_, debugger.scripts.urls()))


async def debugger_set_xhr_breakpoint(args: DebuggerSetXhrBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    return _lines(enabled + trigger_set_lines(await conn.features.debugger.set_trigger("xhr", args.url_contains)))


async def debugger_set_event_breakpoint(args: DebuggerSetEventBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    return _lines(enabled + trigger_set_lines(await conn.features.debugger.set_trigger("event", args.event_name)))


async def debugger_set_dom_breakpoint(args: DebuggerSetDomBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    trigger = await conn.features.debugger.set_trigger("dom", args.selector, args.dom_change)
    return _lines(enabled + trigger_set_lines(trigger))


async def debugger_remove_breakpoint(args: DebuggerRemoveBreakpointArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    specs = await _on_each(conn, lambda debugger: debugger.remove_breakpoint(args.breakpoint_id))
    spec = specs[0]
    return ToolResult(breakpoint_removed_line(spec))


async def debugger_list_breakpoints(args: DebuggerListBreakpointsArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    listed = await _on_each(conn, lambda debugger: debugger.breakpoints())
    return _lines(breakpoint_list_lines(_bound_anywhere(listed)))


async def debugger_pause(args: DebuggerPauseArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    mark = conn.features.console.mark()
    enabled = await _enabled_now(conn)
    pause = await conn.features.debugger.pause(args.timeout_ms)
    if pause is None:
        return _lines([*enabled, pause_pending_line(args.timeout_ms)])
    full = wants_context(args.include_context, ctx)
    snapshot = await take_pause_snapshot(conn, pause, full=full, console_mark=mark)
    return _lines(enabled + pause_bundle_lines(snapshot))


async def debugger_resume(args: DebuggerResumeArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    conn.features.dialogs.raise_if_open()  # one opened by an evaluation in the paused frame
    mark = conn.features.console.mark()
    outcome = await conn.features.debugger.resume(args.timeout_ms)
    return await _after_run(ctx, conn, "resume", outcome, mark, args.include_context)


async def debugger_step_over(args: DebuggerStepOverArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "over", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_step_into(args: DebuggerStepIntoArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "into", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_step_out(args: DebuggerStepOutArgs, ctx: ToolContext) -> ToolResult:
    return await _step(ctx, "out", args.connection_id, args.timeout_ms, args.include_context)


async def debugger_get_call_stack(args: DebuggerGetCallStackArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    stack = await take_call_stack(conn.features.debugger, max_frames=args.max_frames, max_variables=args.max_variables)
    return _lines(call_stack_lines(stack))


async def debugger_evaluate_on_call_frame(args: DebuggerEvaluateOnCallFrameArgs, ctx: ToolContext) -> ToolResult:
    limits = read_limits(args.save_to)
    conn = await target(ctx, args.connection_id)
    frame = conn.features.debugger.frame(args.call_frame_id)
    expression = await conn.features.debugger.in_frame(frame, args.expression)
    value = await evaluate_on_frame(conn, frame, expression.evaluated, timeout_ms=args.timeout_ms, limits=limits)
    answer = await value_result(value, args.save_to, ctx)
    return ToolResult(evaluated_answer(expression, answer.text))


async def debugger_set_pause_on_exceptions(args: DebuggerSetPauseOnExceptionsArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    await _on_each(conn, lambda debugger: debugger.set_pause_on_exceptions(args.state))
    return _lines([*enabled, exception_state_line(args.state)])


async def debugger_list_scripts(args: DebuggerListScriptsArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    entries = await conn.features.debugger.files.scripts()
    return _lines([*enabled, scripts_answer(entries, filter_text=args.filter, offset=args.offset)])


async def debugger_read_source(args: DebuggerReadSourceArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    source = await conn.features.debugger.files.read(args.source)
    answer = source_lines_answer(
        source, start_line=args.start_line, line_count=args.line_count, max_chars=ctx.settings.max_answer_chars
    )
    return _lines([*enabled, answer])


async def debugger_search_sources(args: DebuggerSearchSourcesArgs, ctx: ToolContext) -> ToolResult:
    pattern = search_pattern(args.query, args.regex)
    conn = await target(ctx, args.connection_id)
    enabled = await _enabled_now(conn)
    found = await conn.features.debugger.files.search(pattern, limit=args.limit)
    return _lines([*enabled, search_answer(found, query=args.query)])


async def _step(
    ctx: ToolContext, kind: StepKind, connection_id: str | None, timeout_ms: int, include_context: bool | None
) -> ToolResult:
    conn = await target(ctx, connection_id)
    conn.features.dialogs.raise_if_open()
    mark = conn.features.console.mark()
    outcome = await conn.features.debugger.step(kind, timeout_ms)
    return await _after_run(ctx, conn, kind, outcome, mark, include_context)


async def _after_run(
    ctx: ToolContext,
    conn: Connection,
    command: RunCommand,
    outcome: RunOutcome,
    mark: int,
    include_context: bool | None,
) -> ToolResult:
    """A new pause as its bundle; otherwise that execution went on, and what it logged."""
    if outcome.pause is not None:
        full = wants_context(include_context, ctx)
        snapshot = await take_pause_snapshot(conn, outcome.pause, full=full, console_mark=mark)
        return _lines(paused_again_lines(command, snapshot, stepped_through=outcome.stepped_through))
    return _lines(ran_on_lines(command, busy=outcome.busy, console=conn.features.console.since(mark)))


async def _enable(conn: Connection) -> bool:
    """Turn the debugger on (False: it was on). An open dialog holds the page's script thread,
    and turning the debugger on waits for it: the call says so at once instead of hanging."""
    enabled = await _on_each(conn, lambda debugger: conn.features.unless_blocked(debugger.enable()))
    return enabled[0]


async def _enabled_now(conn: Connection) -> list[str]:
    """Breakpoints, pauses, exception pauses and the page's sources need the debugger (it sees
    the scripts load): they turn it on themselves, and their answer says so in one line ([]
    when it was on already)."""
    if not await _enable(conn):
        return []
    return enabled_lines(True, conn.target_url, ())[:1]


async def debugger_wait_for_pause(args: DebuggerWaitForPauseArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    mark = conn.features.console.mark()
    enabled = await _enabled_now(conn)
    if isinstance(conn, NodeConnection):
        pause = await conn.wait_pause(args.timeout_ms / 1000)
    else:
        pause = await _next_page_pause(conn, args.timeout_ms / 1000)
    if pause is None:
        return _lines([*enabled, no_pause_line(args.timeout_ms)])
    snapshot = await take_pause_snapshot(conn, pause, full=wants_context(args.include_context, ctx), console_mark=mark)
    return _lines(enabled + pause_bundle_lines(snapshot))


async def debugger_sample_cpu(args: DebuggerSampleCpuArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id)
    conn.features.raise_if_blocked("a paused program runs nothing to sample")
    enabled = await _enabled_now(conn)  # the debugger knows the scripts, and so their source maps
    sample = await sample_cpu(conn, args.duration_ms)
    return _lines([*enabled, cpu_sample_answer(sample)])


async def _next_page_pause(conn: BrowserConnection, timeout_s: float) -> Pause | None:
    debugger = conn.features.debugger
    if debugger.paused is not None:
        return debugger.paused
    try:
        async with asyncio.timeout(timeout_s):
            return await debugger.wait_pause(debugger.pause_count)
    except TimeoutError:
        return None


async def _on_each(conn: Connection, operation: Callable[[PageDebugger], Awaitable[T]]) -> list[T]:
    """`operation` on each debugger a setting applies to: a page's one, or every thread's of a
    Node.js program, the current one first (whose result the answer shows). A thread that ends
    meanwhile (a test runner's worker done with its tests) is no failure of the call."""
    if not isinstance(conn, NodeConnection):
        return [await operation(conn.features.debugger)]
    first, *others = conn.debuggers
    results = [await operation(first)]
    for debugger in others:
        with contextlib.suppress(BrowserConnectionError):
            results.append(await operation(debugger))
    return results


def _where_bound(set_in_each: list[Breakpoint]) -> Breakpoint:
    """The breakpoint a setting answers with: as a thread that bound it has it (a Node.js test
    file loads in a worker, not in the runner), else as the current thread has it."""
    return next((found for found in set_in_each if found.resolved), set_in_each[0])


def _bound_anywhere(listed: list[list[Breakpoint | Trigger]]) -> list[Breakpoint | Trigger]:
    """The breakpoints as the first debugger lists them, each shown where it bound: in a Node.js
    program a breakpoint binds in the threads that load its file (a test file in a worker)."""
    bound = {
        found.spec.id: found
        for each in reversed(listed)
        for found in each
        if isinstance(found, Breakpoint) and found.resolved
    }
    return [bound.get(found.spec.id, found) for found in listed[0]]


def _lines(lines: list[str]) -> ToolResult:
    return ToolResult("\n".join(lines))
