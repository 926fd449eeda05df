"""Navigation tools (smart: `navigate` with goto/back/forward/reload)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cdpilot.answers.page_answers import navigation_answer, paused_navigation_answer
from cdpilot.browser.page import loading
from cdpilot.browser.page.page_facts import NavigationResult
from cdpilot.browser.page.urls import normalize_url
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser, downloaded_files

if TYPE_CHECKING:
    from cdpilot_generated.models import GoBackArgs, GoForwardArgs, NavigateArgs, ReloadArgs


async def _answer(conn: BrowserConnection, result: NavigationResult) -> ToolResult:
    """Where the page got to; a pause in its scripts ends the wait early and is reported in full."""
    if result.pause is not None:
        from cdpilot.answers.pause_answers import pause_bundle_lines  # the debugger's answers: not loaded at start
        from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot

        bundle = pause_bundle_lines(await take_pause_snapshot(conn, result.pause, full=True, console_mark=None))
        return ToolResult(paused_navigation_answer(result, bundle))
    downloads = (result.download,) if result.download is not None else ()
    return ToolResult(navigation_answer(result), files=downloaded_files(downloads))


async def navigate(args: NavigateArgs, ctx: ToolContext) -> ToolResult:
    # Refused (bad scheme, refused origin) before a browser starts or anything is sent to one.
    normalize_url(args.url, allow_file_urls=ctx.settings.allow_file_urls, origins=ctx.connections.origins)
    conn = await browser(ctx, args.connection_id)
    result = await loading.navigate(
        conn,
        args.url,
        wait_until=args.wait_until,
        timeout_ms=args.timeout_ms,
        allow_file_urls=ctx.settings.allow_file_urls,
    )
    return await _answer(conn, result)


async def go_back(args: GoBackArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    result = await loading.go_in_history(conn, -1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return await _answer(conn, result)


async def go_forward(args: GoForwardArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    result = await loading.go_in_history(conn, 1, wait_until=args.wait_until, timeout_ms=args.timeout_ms)
    return await _answer(conn, result)


async def reload(args: ReloadArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    result = await loading.reload(
        conn, ignore_cache=args.ignore_cache, wait_until=args.wait_until, timeout_ms=args.timeout_ms
    )
    return await _answer(conn, result)
