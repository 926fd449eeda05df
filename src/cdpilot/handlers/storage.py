"""Cookie, web storage and storage-state tools (smart: network cookies actions, page storage
actions, chrome save_state/load_state)."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from cdpilot.answers import site_data_answers as answers
from cdpilot.browser.page import site_data
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser
from cdpilot.output_files import check_output_path, read_output, write_output

if TYPE_CHECKING:
    from cdpilot_generated.models import (
        ClearStorageArgs,
        DeleteCookiesArgs,
        GetCookiesArgs,
        GetStorageArgs,
        LoadStorageStateArgs,
        SaveStorageStateArgs,
        SetCookieArgs,
        SetStorageArgs,
    )


async def get_cookies(args: GetCookiesArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    found = await site_data.cookies(conn, domain=args.domain, name=args.name)
    max_chars = ctx.settings.max_answer_chars
    text = answers.cookies_answer(
        found, domain=args.domain, name=args.name, include_values=args.include_values, max_chars=max_chars
    )
    return ToolResult(text)


async def set_cookie(args: SetCookieArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    cookie = await site_data.set_cookie(
        conn,
        name=args.name,
        value=args.value,
        domain=args.domain,
        path=args.path,
        expires=args.expires,
        http_only=args.http_only,
        secure=args.secure,
        same_site=args.same_site,
    )
    return ToolResult(answers.cookie_set_line(cookie, site_data.host_outside(conn, cookie)))


async def delete_cookies(args: DeleteCookiesArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    deleted = await site_data.delete_cookies(conn, name=args.name, domain=args.domain)
    return ToolResult(answers.cookies_deleted_line(deleted))


async def get_storage(args: GetStorageArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    view = await site_data.web_storage(conn, "get", args.area, args.key)
    text = answers.storage_answer(
        view, key=args.key, include_values=args.include_values, max_chars=ctx.settings.max_answer_chars
    )
    return ToolResult(text)


async def set_storage(args: SetStorageArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    view = await site_data.web_storage(conn, "set", args.area, args.key, args.value)
    return ToolResult(answers.storage_set_line(view, args.key))


async def clear_storage(args: ClearStorageArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    view = await site_data.web_storage(conn, "clear", args.area, args.key)
    return ToolResult(answers.storage_cleared_line(view, args.key))


async def save_storage_state(args: SaveStorageStateArgs, ctx: ToolContext) -> ToolResult:
    check_output_path(args.path, field="path")
    conn = await browser(ctx, args.connection_id)
    document, state = await site_data.storage_state(conn)
    data = json.dumps(document, indent=2).encode()
    path = await asyncio.to_thread(write_output, ctx.settings.output_dir, args.path, data, field="path")
    return ToolResult(answers.state_saved_line(str(path), state), files=(path,))


async def load_storage_state(args: LoadStorageStateArgs, ctx: ToolContext) -> ToolResult:
    data = await asyncio.to_thread(read_output, ctx.settings.output_dir, args.path, field="path")
    document = site_data.parse_storage_state(data)
    conn = await browser(ctx, args.connection_id)
    state, not_loaded = await site_data.apply_storage_state(conn, document)
    return ToolResult("\n".join(answers.state_loaded_lines(state, not_loaded)))
