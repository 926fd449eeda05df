"""JavaScript evaluation (smart: `evaluate`)."""

from __future__ import annotations

from cdpilot_generated.models import EvaluateJsArgs

from cdpilot.browser.evaluate import evaluate
from cdpilot.context import ToolContext, ToolResult


async def evaluate_js(args: EvaluateJsArgs, ctx: ToolContext) -> ToolResult:
    value = await evaluate(
        ctx.connections.get(args.connection_id),
        args.expression,
        await_promise=args.await_promise,
        timeout_ms=args.timeout_ms,
    )
    return ToolResult(value)
