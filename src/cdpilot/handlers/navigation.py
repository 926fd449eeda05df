"""Navigation tools (smart: `navigate`)."""

from __future__ import annotations

from cdpilot_generated.models import NavigateArgs

from cdpilot.browser import page
from cdpilot.context import ToolContext, ToolResult


async def navigate(args: NavigateArgs, ctx: ToolContext) -> ToolResult:
    result = await page.navigate(
        ctx.connections.get(args.connection_id),
        args.url,
        wait_until=args.wait_until,
        timeout_ms=args.timeout_ms,
        allow_file_urls=ctx.settings.allow_file_urls,
    )
    status = f"HTTP {result.status}" if result.status is not None else "no HTTP status"
    return ToolResult(
        f"Navigated to {result.url} ({status}, {result.wait_until} after {result.elapsed_ms} ms)\n"
        f"Title: {result.title or '(none)'}"
    )
