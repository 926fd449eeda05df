"""Target tools: list, switch, open and close pages (smart: `target`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cdpilot.answers.page_answers import closed_target_answer, new_tab_answer, switched_target_answer, targets_answer
from cdpilot.browser.page import loading, tabs
from cdpilot.browser.page.urls import normalize_url
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser

if TYPE_CHECKING:
    from cdpilot_generated.models import CloseTargetArgs, ListTargetsArgs, NewTargetArgs, SwitchTargetArgs


async def list_targets(args: ListTargetsArgs, ctx: ToolContext) -> ToolResult:
    return ToolResult(targets_answer(await tabs.list_targets(await browser(ctx, args.connection_id))))


async def switch_target(args: SwitchTargetArgs, ctx: ToolContext) -> ToolResult:
    tabs.check_page_choice(args.index, args.title, args.url)
    conn = await browser(ctx, args.connection_id)
    switch = await tabs.switch_target(conn, index=args.index, title=args.title, url=args.url)
    return ToolResult(switched_target_answer(switch))


async def new_target(args: NewTargetArgs, ctx: ToolContext) -> ToolResult:
    if args.url is not None:  # refuse a bad URL before a browser or a tab exists, not after
        normalize_url(args.url, allow_file_urls=ctx.settings.allow_file_urls, origins=ctx.connections.origins)
    conn = await browser(ctx, args.connection_id)
    await ctx.connections.check_tab_room()
    entry = await tabs.new_target(conn)
    loaded = None
    if args.url is not None:
        loaded = await loading.navigate(conn, args.url, allow_file_urls=ctx.settings.allow_file_urls)
    return ToolResult(new_tab_answer(entry, loaded))


async def close_target(args: CloseTargetArgs, ctx: ToolContext) -> ToolResult:
    outcome = await tabs.close_target(await browser(ctx, args.connection_id), args.index)
    return ToolResult(closed_target_answer(outcome))
