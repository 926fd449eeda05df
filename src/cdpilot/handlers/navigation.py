"""Navigation tools (smart: `navigate` with goto/back/forward/reload)."""

from __future__ import annotations

from cdpilot_generated.models import GoBackArgs, GoForwardArgs, NavigateArgs, ReloadArgs

from cdpilot.browser import page
from cdpilot.browser.page import NavigationResult
from cdpilot.context import ToolContext, ToolResult


def describe(verb: str, result: NavigationResult) -> ToolResult:
    status = f"HTTP {result.status}" if result.status is not None else "no HTTP status"
    return ToolResult(
        f"{verb} {result.url} ({status}, {result.wait_until} after {result.elapsed_ms} ms)\n"
        f"Title: {result.title or '(none)'}"
    )


async def navigate(args: NavigateArgs, ctx: ToolContext) -> ToolResult:
    result = await page.navigate(
        ctx.connections.get(args.connection_id),
        args.url,
        wait_until=args.wait_until,
        timeout_ms=args.timeout_ms,
        allow_file_urls=ctx.settings.allow_file_urls,
    )
    return describe("Navigated to", result)


async def go_back(args: GoBackArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await page.go_in_history(conn, -1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return describe("Went back to", result)


async def go_forward(args: GoForwardArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await page.go_in_history(conn, 1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return describe("Went forward to", result)


async def reload(args: ReloadArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    result = await page.reload(
        conn, ignore_cache=args.ignore_cache, wait_until=args.wait_until, timeout_ms=args.timeout_ms
    )
    return describe("Reloaded", result)
