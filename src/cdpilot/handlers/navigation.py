"""Navigation tools (smart: `navigate` with goto/back/forward/reload)."""

from __future__ import annotations

from cdpilot_generated.models import GoBackArgs, GoForwardArgs, NavigateArgs, ReloadArgs

from cdpilot.answers.debugging import pause_lines
from cdpilot.browser.page import loading
from cdpilot.browser.page.loading import NavigationResult
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult


async def describe(ctx: ToolContext, conn: BrowserConnection, verb: str, result: NavigationResult) -> ToolResult:
    """Where the page got to; a pause in its scripts ends the wait early and is reported in full."""
    if result.pause is not None:
        lines = [f"{verb} {result.url}; its scripts paused in the debugger before {result.wait_until!r}:"]
        return ToolResult("\n".join(lines + await pause_lines(conn, result.pause, full=True, console_mark=None)))
    status = f"HTTP {result.status}" if result.status is not None else "no HTTP status"
    return ToolResult(
        f"{verb} {result.url} ({status}, {result.wait_until} after {result.elapsed_ms} ms)\n"
        f"Title: {result.title or '(none)'}"
    )


async def navigate(args: NavigateArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await loading.navigate(
        conn,
        args.url,
        wait_until=args.wait_until,
        timeout_ms=args.timeout_ms,
        allow_file_urls=ctx.settings.allow_file_urls,
    )
    return await describe(ctx, conn, "Navigated to", result)


async def go_back(args: GoBackArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await loading.go_in_history(conn, -1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return await describe(ctx, conn, "Went back to", result)


async def go_forward(args: GoForwardArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await loading.go_in_history(conn, 1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return await describe(ctx, conn, "Went forward to", result)


async def reload(args: ReloadArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await loading.reload(
        conn, ignore_cache=args.ignore_cache, wait_until=args.wait_until, timeout_ms=args.timeout_ms
    )
    return await describe(ctx, conn, "Reloaded", result)
