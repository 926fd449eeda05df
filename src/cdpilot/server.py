"""MCP wiring: the lowlevel `Server`, our stdio transport, and the browser lifetime.

tools/list is answered from the manifest that codegen serialised at build time (parsed
once here); tools/call goes straight to the registry, the single error boundary.
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import anyio
import mcp_types as types
from cdpilot_generated import manifests
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from cdpilot import __version__
from cdpilot.browser.connections import ConnectionManager
from cdpilot.context import Mode, Settings, ToolContext
from cdpilot.handlers import HANDLERS
from cdpilot.registry import Registry
from cdpilot.transport import stdio_transport

MANIFEST_JSON = {"smart": manifests.SMART_TOOLS_JSON, "legacy": manifests.LEGACY_TOOLS_JSON}
CLEANUP_SECONDS = 10.0


def build_server(registry: Registry) -> Server[Any]:
    tools = types.ListToolsResult.model_validate_json(MANIFEST_JSON[registry.ctx.mode])

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return tools

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return await registry.call(params.name, params.arguments)

    return Server(
        "cdpilot",
        version=__version__,
        instructions="Drive and debug Chrome/Chromium/Electron over CDP. Start by launching or connecting a browser.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve(mode: Mode, settings: Settings, connections: ConnectionManager) -> None:
    """Serve MCP on stdio until stdin closes or SIGTERM/SIGINT/SIGHUP; then close every browser."""
    registry = Registry(ToolContext(connections, mode, settings), HANDLERS)
    server = build_server(registry)
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    assert main is not None
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, main.cancel)
    try:
        async with stdio_transport(registry.call) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    except asyncio.CancelledError:
        main.uncancel()  # a signal: shut down in order, with nothing left pending to cancel the cleanup
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.remove_signal_handler(sig)
        with anyio.CancelScope(shield=True), anyio.move_on_after(CLEANUP_SECONDS):
            await connections.aclose()
        connections.kill_all_now()
