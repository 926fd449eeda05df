"""JavaScript evaluation (smart: `evaluate` without call_frame_id)."""

from __future__ import annotations

from cdpilot_generated.models import EvaluateJsArgs

from cdpilot.answers.pages import evaluation_answer, paused_evaluation_answer
from cdpilot.answers.pause_bundle import pause_bundle_lines
from cdpilot.browser.debugger.debugger_facts import ExecutionPausedError
from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot
from cdpilot.browser.page.evaluation import evaluate
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser, wants_context


async def evaluate_js(args: EvaluateJsArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    mark = conn.features.console.mark()
    try:
        value = await evaluate(conn, args.expression, await_promise=args.await_promise, timeout_ms=args.timeout_ms)
    except ExecutionPausedError as exc:  # the expression ran into a breakpoint: that is the news
        snapshot = await take_pause_snapshot(conn, exc.pause, full=wants_context(None, ctx), console_mark=mark)
        lines = pause_bundle_lines(snapshot)
        return ToolResult(paused_evaluation_answer(lines))
    return ToolResult(evaluation_answer(value))
