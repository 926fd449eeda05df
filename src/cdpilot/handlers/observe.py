"""Console and network tools (smart: `get_console_logs`, `network`): compact views of what
the page logged and loaded, recorded by `ConsoleLog` and `NetworkLog` since it was attached.

The answers (`cdpilot.answers.console_answers`, `cdpilot.answers.network_answers`) fit the
answer budget they are given; here are only the reads, the waits and the file written.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot.answers.console_answers import console_answer
from cdpilot.answers.network_answers import missing_body_reason, request_detail_answer, request_list_answer
from cdpilot.browser.observe.network_facts import MissingBody, RequestFilter, ResponseBody, SavedBody
from cdpilot.browser.session.node_connection import NodeConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import StateError
from cdpilot.handlers.common import browser, target
from cdpilot.output_files import check_output_path, write_output

if TYPE_CHECKING:
    from cdpilot_generated.models import GetConsoleLogsArgs, GetNetworkRequestArgs, ListNetworkRequestsArgs

SETTLE_S = 2.0  # how long `get` waits for real headers, or for a body, still on their way


async def get_console_logs(args: GetConsoleLogsArgs, ctx: ToolContext) -> ToolResult:
    conn = await target(ctx, args.connection_id, ended_ok=True)
    view = conn.features.console.read(
        include_previous_pages=args.include_previous_pages,
        level=None if args.filter_level == "all" else args.filter_level,
    )
    # The answer shows the newest `limit` entries at most: only those are worth a source-map
    # lookup, out of up to a bound's worth held.
    older, newest = view.entries[: -args.limit], view.entries[-args.limit :]
    view = replace(view, entries=older + await conn.features.debugger.maps.console_entries(newest))
    return ToolResult(
        console_answer(
            view,
            page_url=conn.target_url or "",
            node=isinstance(conn, NodeConnection),
            limit=args.limit,
            expand_errors=args.expand_errors,
            max_chars=ctx.settings.max_answer_chars,
        )
    )


async def list_network_requests(args: ListNetworkRequestsArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    wanted = RequestFilter(args.resource_type, args.status, args.url_pattern)
    page = conn.features.network.page(wanted, offset=args.offset, limit=args.limit)
    return ToolResult(
        request_list_answer(page, page_url=conn.target_url or "", max_chars=ctx.settings.max_answer_chars)
    )


async def get_network_request(args: GetNetworkRequestArgs, ctx: ToolContext) -> ToolResult:
    if args.save_body_to is not None:
        check_output_path(args.save_body_to, field="save_body_to")
    conn = await browser(ctx, args.connection_id)
    log = conn.features.network
    entry = await log.settled(args.request_id, SETTLE_S)
    body: ResponseBody | MissingBody | SavedBody | None = None
    written: tuple[Path, ...] = ()
    if args.save_body_to is not None:
        found = await conn.features.unless_blocked(log.body(entry.id, wait_s=SETTLE_S))
        if isinstance(found, MissingBody):
            reason, suggestion = missing_body_reason(found)
            raise StateError(reason, suggestion=suggestion)
        path = await asyncio.to_thread(
            write_output, ctx.settings.output_dir, args.save_body_to, found.data, field="save_body_to"
        )
        body = SavedBody(str(path), len(found.data))
        written = (path,)
    elif args.include_body:
        body = await conn.features.unless_blocked(log.body(entry.id, wait_s=SETTLE_S))
    answer = request_detail_answer(
        entry, body, max_body_chars=args.max_body_chars, max_chars=ctx.settings.max_answer_chars
    )
    return ToolResult(answer, files=written)
