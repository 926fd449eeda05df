"""JavaScript evaluation (smart: `evaluate` without call_frame_id)."""

from __future__ import annotations

from cdpilot_generated.models import EvaluateJsArgs

from cdpilot.answers.debugging import pause_lines
from cdpilot.browser.debugger.page_debugger import ExecutionPausedError
from cdpilot.browser.page.evaluation import evaluate
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import wants_context


async def evaluate_js(args: EvaluateJsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    mark = conn.features.console.mark()
    try:
        value = await evaluate(conn, args.expression, await_promise=args.await_promise, timeout_ms=args.timeout_ms)
    except ExecutionPausedError as exc:  # the expression ran into a breakpoint: that is the news
        lines = await pause_lines(conn, exc.pause, full=wants_context(None, ctx), console_mark=mark)
        return ToolResult("\n".join(["The expression paused in the debugger before it finished:", *lines]))
    return ToolResult(value)
