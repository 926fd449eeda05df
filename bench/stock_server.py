"""The baseline: the stock MCP SDK path, lowlevel `Server` + `mcp.server.stdio.stdio_server`.

It serves cdpilot's exact tools/list payload (parsed once from the generated manifest, as
cdpilot does) and answers every tools/call with the canned text cdpilot gives for
`chrome_list_connections` when nothing is connected. The difference to cdpilot on that
call is therefore the transport and cdpilot's call pipeline, not the work of a tool.
Run: ``python -m bench.stock_server legacy|smart``.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
import mcp_types as types
from cdpilot_generated import manifests
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

CANNED_TEXT = "No connections. Launch a browser or connect to a running one."
MANIFEST_JSON = {"smart": manifests.SMART_TOOLS_JSON, "legacy": manifests.LEGACY_TOOLS_JSON}


def build_server(mode: str) -> Server[Any]:
    tools = types.ListToolsResult.model_validate_json(MANIFEST_JSON[mode])
    canned = types.CallToolResult(content=[types.TextContent(type="text", text=CANNED_TEXT)])

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return tools

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return canned

    return Server("stock-baseline", version="0", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(mode: str) -> None:
    server = build_server(mode)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve, sys.argv[1] if len(sys.argv) > 1 else "legacy")
