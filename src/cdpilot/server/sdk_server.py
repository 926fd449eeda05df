"""The MCP SDK's side of the server: the lowlevel `Server`, progress for the calls it serves,
and serving stdio from the hand-over on. On stdio it is imported in a thread while the
handshake is answered (`cdpilot.server.app`), never before; over HTTP (`cdpilot.server.http_app`)
the same `Server` is driven by the SDK's session manager.

tools/list is answered from the manifest codegen serialised at build time; tools/call goes
straight to the registry, the single error boundary: through `Backend` on stdio, through the
session's own registry over HTTP. resources/list and resources/read serve the files the
session's tools wrote (`cdpilot.server.file_links`). The registry and the files answer in
plain data (made before the SDK loads on stdio); here it becomes the SDK's result models, and
an `InvalidParamsError` the SDK's ``MCPError``.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from cdpilot_generated.manifests import INSTRUCTIONS, SERVER_NAME
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError

from cdpilot import __version__
from cdpilot.errors import InvalidParamsError
from cdpilot.progress import ProgressSink, reporting_to
from cdpilot.server.fast_path import CallTool, FastCalls
from cdpilot.server.file_links import FileContents, SessionFiles
from cdpilot.server.handshake import HandOver
from cdpilot.server.stdio import stdio_transport
from cdpilot.server.wire import Wire

logger = logging.getLogger(__name__)


CallFor = Callable[[ServerRequestContext[Any]], CallTool]
FilesFor = Callable[[ServerRequestContext[Any]], SessionFiles]


def build_server(call_for: CallFor, list_json: str, files_for: FilesFor) -> Server[Any]:
    """The SDK's server: tools/list from `list_json`, tools/call to the call `call_for` picks for
    the request (stdio has one; HTTP one per session) with a progress sink (which sends nothing
    unless the client asked, with a ``progressToken``), resources from the files `files_for`
    picks likewise."""
    listed: list[types.ListToolsResult] = []  # parsed on first use: the fast path serves the manifest as is

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if not listed:
            listed.append(types.ListToolsResult.model_validate_json(list_json))
        return listed[0]

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        with reporting_to(progress_sink(ctx.session)), _as_mcp_error():
            result = await call_for(ctx)(params.name, params.arguments)
        return types.CallToolResult.model_validate(result.wire())

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        listed = files_for(ctx).listed()
        return types.ListResourcesResult(
            resources=[types.Resource(uri=f.uri, name=f.name, mime_type=f.mime_type, size=f.size) for f in listed]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        with _as_mcp_error():
            contents = files_for(ctx).read(params.uri)
        return types.ReadResourceResult(contents=[_resource_contents(contents)])

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


@contextmanager
def _as_mcp_error() -> Iterator[None]:
    try:
        yield
    except InvalidParamsError as exc:
        raise MCPError(types.INVALID_PARAMS, exc.message) from None


def _resource_contents(contents: FileContents) -> types.TextResourceContents | types.BlobResourceContents:
    if contents.text is not None:
        return types.TextResourceContents(uri=contents.uri, mime_type=contents.mime_type, text=contents.text)
    return types.BlobResourceContents(uri=contents.uri, mime_type=contents.mime_type, blob=contents.blob or "")


def progress_sink(session: ServerSession) -> ProgressSink:
    """``notifications/progress`` for the call `session` serves, numbered 1, 2, 3…, when its client
    asked for them (the SDK knows the token, and sends nothing without one).

    A notification that cannot be sent is dropped: progress is a courtesy, and the call it
    describes goes on (its answer has its own way of failing)."""
    sent = itertools.count(1)

    async def send(message: str) -> None:
        try:
            await session.report_progress(next(sent), message=message)
        except Exception:
            logger.debug("progress notification not sent", exc_info=True)

    return send


async def serve(
    call: CallTool, list_json: str, wire: Wire, handover: HandOver, fast: FastCalls, output_dir: Path | None
) -> None:
    """Serve the session from the hand-over until input ends, `fast` going on serving the
    calls it takes; the session's files are under `output_dir`."""
    files = SessionFiles(output_dir)
    server = build_server(lambda ctx: call, list_json, lambda ctx: files)
    async with stdio_transport(wire, handover, fast) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
