"""Console and network tools (smart: `get_console_logs`, `network`): compact views of what
the page logged and loaded, recorded by `ConsoleLog` and `NetworkLog` since it was attached.

Every answer must fit the answer budget, so lists are cut (newest console messages, one
page of requests with URLs shortened to fit) and say what they left out and how to see it.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from cdpilot_generated.models import GetConsoleLogsArgs, GetNetworkRequestArgs, ListNetworkRequestsArgs

from cdpilot.browser.observe.console import MAX_ENTRIES, ConsoleEntry
from cdpilot.browser.observe.network import NetworkRequest, matching, redact_headers
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import StateError
from cdpilot.output_files import write_output
from cdpilot.text import clip, human_size, plural

SETTLE_S = 2.0  # how long `get` waits for real headers, or for a body, still on their way
HEADERS_ROOM = 3000  # characters shared by the header values of one request (answer budget)
MAX_POST_DATA = 300


def _origin(url: str | None) -> str:
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def _compact_url(url: str, origin: str, limit: int) -> str:
    """Same-origin URLs as their path (the header names the origin), then cut to `limit`."""
    if origin and url.startswith(origin + "/"):
        url = url[len(origin) :]
    return clip(url, limit, keep="ends")


def _console_line(entry: ConsoleEntry, origin: str, expand: bool) -> str:
    text = entry.text.replace("\n", " ⏎ ")
    repeats = f" (×{entry.count})" if entry.count > 1 else ""
    where = ""
    if entry.url:
        where = f"  @ {_compact_url(entry.url, origin, 60)}" + (f":{entry.line}" if entry.line else "")
    line = f"[{entry.level}] {text}{repeats}{where}"
    if expand and entry.stack:
        line += "".join(f"\n    {frame}" for frame in entry.stack.splitlines())
    return line


async def get_console_logs(args: GetConsoleLogsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    log = conn.features.console
    entries = log.entries(include_previous_pages=args.include_previous_pages)
    if args.filter_level != "all":
        entries = [entry for entry in entries if entry.level == args.filter_level]
    scope = "all recorded pages" if args.include_previous_pages else f"the current page ({conn.target_url})"
    level = "" if args.filter_level == "all" else f" at level {args.filter_level}"
    if not entries:
        text = f"No console messages{level} on {scope}."
        earlier = len(log.entries(include_previous_pages=True)) - len(log.entries())
        if earlier and not args.include_previous_pages:
            text += f" Earlier pages logged {earlier} (include_previous_pages=true)."
        return ToolResult(text)
    kept = min(args.limit, len(entries))
    while True:  # the newest `kept` entries, fewer when they would not fit the answer budget
        text = _console_answer(entries, kept, args, conn, header=f"Console{level} on {scope}")
        if len(text) <= ctx.settings.max_answer_chars or kept == 1:
            return ToolResult(text)
        kept -= 1


def _console_answer(
    entries: list[ConsoleEntry], kept: int, args: GetConsoleLogsArgs, conn: BrowserConnection, header: str
) -> str:
    log = conn.features.console
    notes = []
    if kept < len(entries):
        why = "raise limit, max 100" if kept == args.limit else "more would not fit: filter by level"
        notes.append(f"{len(entries) - kept} older omitted ({why})")
    held = log.entries(include_previous_pages=True)
    if log.dropped and (args.include_previous_pages or held[0].page_generation == log.generation):
        notes.append(f"{log.dropped} oldest dropped: the log keeps the newest {MAX_ENTRIES}")
    header += f": {plural(len(entries), 'entry', 'entries')}"
    header += f", last {kept} shown; {'; '.join(notes)}" if notes else ""
    lines = [header]
    origin = _origin(conn.target_url)
    generation: int | None = None
    for entry in entries[-kept:]:
        if args.include_previous_pages and entry.page_generation != generation:
            generation = entry.page_generation
            current = generation == log.generation
            url = conn.target_url if current else log.page_urls.get(generation, "(an earlier page)")
            lines.append(f"--- {'current page' if current else 'page'} {clip(url or '', 100, keep='ends')} ---")
        lines.append(_console_line(entry, origin, args.expand_errors))
    return "\n".join(lines)


def _request_line(request: NetworkRequest, origin: str, url_limit: int) -> str:
    status = "pending" if request.status is None else str(request.status)
    if request.status == 0:
        size = f"failed: {request.error_text}"
    else:
        size = "…" if request.encoded_size is None else human_size(request.encoded_size)
    duration = "in flight" if request.duration_ms is None else f"{request.duration_ms} ms"
    url = _compact_url(request.url, origin, url_limit)
    return f"{request.id} {request.method} {status} {request.resource_type} {url} ({size}, {duration})"


async def list_network_requests(args: ListNetworkRequestsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    log = conn.features.network
    recorded = log.requests()
    found = matching(recorded, resource_type=args.resource_type, status=args.status, url_pattern=args.url_pattern)
    filters = [
        f"{name}={value}"
        for name, value in (("type", args.resource_type), ("status", args.status), ("url", args.url_pattern))
        if value is not None
    ]
    where = f"on {conn.target_url}" + (f", {log.dropped} oldest dropped" if log.dropped else "")
    if not found:
        what = f"No requests match {', '.join(filters)}" if filters else "No requests recorded"
        return ToolResult(f"{what} ({len(recorded)} recorded {where}).")
    page = found[args.offset : args.offset + args.limit]
    matched = f"{len(found)} matching requests" if filters else f"{len(found)} requests"
    if not page:
        return ToolResult(f"offset={args.offset} is past the end: {matched} {where}.")
    header = f"showing {args.offset + 1}–{args.offset + len(page)} of {matched} {where}"
    if filters:
        header += f" ({', '.join(filters)}; {len(recorded)} recorded)"
    if args.offset + len(page) < len(found):
        header += f"; next: offset={args.offset + len(page)}"
    budget = ctx.settings.max_answer_chars - len(header) - 100
    url_limit = max(40, min(120, budget // len(page) - 45))
    origin = _origin(conn.target_url)
    lines = [header, *(_request_line(request, origin, url_limit) for request in page)]
    return ToolResult("\n".join(lines))


def _headers_block(title: str, headers: dict[str, str], value_limit: int) -> list[str]:
    lines = [f"{title} ({len(headers)}):"]
    lines += [f"  {name}: {clip(value, value_limit, keep='ends')}" for name, value in redact_headers(headers)]
    return lines


async def _body_lines(
    conn: BrowserConnection, request: NetworkRequest, args: GetNetworkRequestArgs, ctx: ToolContext, room: int
) -> list[str]:
    """The body as the caller asked: saved to a file, inline (cut to fit), or only its size."""
    log = conn.features.network
    if args.save_body_to is not None:
        body = await log.body(request, wait_s=SETTLE_S)
        path = await asyncio.to_thread(
            write_output, ctx.settings.output_dir, args.save_body_to, body.data, field="save_body_to"
        )
        return [f"Body saved to {path} ({human_size(len(body.data))})"]
    if not args.include_body:
        return []
    try:
        body = await log.body(request, wait_s=SETTLE_S)
    except StateError as exc:
        return [f"Body: not available. {exc.message}"]
    if not body.data:
        return ["Body: empty (as Chrome holds it)."]
    if body.binary:
        return [f"Body: binary, {len(body.data)} bytes ({request.mime_type}); save_body_to writes it to a file."]
    text = body.data.decode("utf-8", errors="replace")
    limit = min(args.max_body_chars, max(0, room))
    if len(text) <= limit:
        return [f"Body ({len(text)} chars):", text]
    why = "max_body_chars" if limit == args.max_body_chars else "the answer size limit"
    return [
        f"Body ({len(text)} chars, first {limit} shown because of {why}; save_body_to writes all of it):",
        text[:limit],
    ]


async def get_network_request(args: GetNetworkRequestArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    log = conn.features.network
    request = log.get(args.request_id)
    await log.settle(request, SETTLE_S)
    if request.status is None:
        outcome = "pending, no response yet"
    elif request.status == 0:
        outcome = f"failed: {request.error_text}"
    else:
        outcome = f"{request.status} {request.status_text}".rstrip() + f", {request.mime_type or 'no type'}"
    size = "" if request.encoded_size is None else f", {human_size(request.encoded_size)}"
    duration = "" if request.duration_ms is None else f", {request.duration_ms} ms"
    response_headers = request.response_headers if request.status else {}
    value_limit = max(40, min(200, HEADERS_ROOM // max(1, len(request.request_headers) + len(response_headers)) - 30))
    lines = [
        f"Request {request.id}: {request.method} {clip(request.url, 300, keep='ends')}",
        f"{request.resource_type}, {outcome}{size}{duration}",
        *_headers_block("Request headers", request.request_headers, value_limit),
    ]
    if request.post_data:
        lines.append(f"Request body: {clip(request.post_data, MAX_POST_DATA, keep='ends')}")
    if response_headers:
        lines += _headers_block("Response headers", response_headers, value_limit)
    room = ctx.settings.max_answer_chars - len("\n".join(lines)) - 200
    lines += await _body_lines(conn, request, args, ctx, room)
    return ToolResult("\n".join(lines))
