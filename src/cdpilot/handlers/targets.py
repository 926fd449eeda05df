"""Target tools: list, switch, open and close pages (smart: `target`)."""

from __future__ import annotations

from cdpilot_generated.models import CloseTargetArgs, ListTargetsArgs, NewTargetArgs, SwitchTargetArgs

from cdpilot.browser.page import loading, tabs
from cdpilot.browser.page.tabs import TargetEntry
from cdpilot.browser.page.urls import normalize_url
from cdpilot.context import ToolContext, ToolResult
from cdpilot.text import clip

MAX_LISTED = 30


def line(entry: TargetEntry) -> str:
    mark = "*" if entry.current else " "
    where = f"[{entry.index}]" if entry.index is not None else f"({entry.type})"
    title = entry.title if entry.title and entry.title != entry.url else ""
    text = f"{mark}{where} {title + ' — ' if title else ''}{entry.url}"
    return clip(text, 160)


async def list_targets(args: ListTargetsArgs, ctx: ToolContext) -> ToolResult:
    entries = await tabs.list_targets(ctx.connections.get(args.connection_id))
    pages = sum(1 for e in entries if e.index is not None)
    head = f"{pages} page(s), {len(entries) - pages} other target(s); * = current page."
    shown = [line(e) for e in entries[:MAX_LISTED]]
    if len(entries) > MAX_LISTED:
        shown.append(f"… {len(entries) - MAX_LISTED} more not shown")
    return ToolResult("\n".join([head, *shown]))


async def switch_target(args: SwitchTargetArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    chosen, others = await tabs.switch_target(conn, index=args.index, title=args.title, url=args.url)
    extra = f" ({others} more page(s) matched; the first was chosen)" if others else ""
    return ToolResult(f"Current page is now{extra}:\n{line(chosen).lstrip()}")


async def new_target(args: NewTargetArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    if args.url is not None:  # refuse a bad URL before a tab exists, not after
        normalize_url(args.url, allow_file_urls=ctx.settings.allow_file_urls)
    entry = await tabs.new_target(conn)
    text = f"Opened a new tab [{entry.index}], now the current page."
    if args.url is not None:
        result = await loading.navigate(conn, args.url, allow_file_urls=ctx.settings.allow_file_urls)
        status = f"HTTP {result.status}" if result.status is not None else "no HTTP status"
        text += f"\nLoaded {result.url} ({status}). Title: {result.title or '(none)'}"
    return ToolResult(text)


async def close_target(args: CloseTargetArgs, ctx: ToolContext) -> ToolResult:
    closed, current = await tabs.close_target(ctx.connections.get(args.connection_id), args.index)
    return ToolResult(f"Closed [{closed.index}] {closed.title or closed.url}.\nCurrent page: {line(current).lstrip()}")
