"""The real server started with ``--disable-tools evaluate``: the tools it lists and the tools it calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cdpilot_generated import manifests
from mcp.shared.exceptions import MCPError

from tests.e2e.harness import RawServer, mcp_client

pytestmark = pytest.mark.anyio

# The tools the evaluate group takes away in each mode (smart evaluate also routes to the debugger).
EVALUATE_TOOLS = {"smart": "evaluate", "legacy": "evaluate_js"}
ANOTHER_TOOL = {"smart": ("chrome", {"action": "list"}), "legacy": ("chrome_list_connections", {})}


def served_manifest(mode: str) -> dict[str, list[dict[str, Any]]]:
    """The manifest of the mode as generated, less the evaluate tool."""
    payload = manifests.SMART_TOOLS_JSON if mode == "smart" else manifests.LEGACY_TOOLS_JSON
    tools = json.loads(payload)["tools"]
    return {"tools": [tool for tool in tools if tool["name"] != EVALUATE_TOOLS[mode]]}


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_a_disabled_tool_is_not_listed_and_is_as_unknown_as_a_tool_that_never_was(mode: str) -> None:
    async with mcp_client(mode, "--disable-tools", "evaluate") as client:
        listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {t["name"] for t in served_manifest(mode)["tools"]}
        for name in (EVALUATE_TOOLS[mode], "no_such_tool"):
            with pytest.raises(MCPError) as info:
                await client.call_tool(name, {"expression": "1"})
            assert (info.value.code, info.value.message) == (-32602, f"Unknown tool: {name}")
        tool, arguments = ANOTHER_TOOL[mode]
        assert not (await client.call_tool(tool, arguments)).is_error


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_every_path_of_the_server_lists_and_refuses_alike(mode: str) -> None:
    """tools/list before and after notifications/initialized, and tools/call with and without a
    progress token, take different paths through the server; none of them may tell."""
    server = await RawServer.start(mode, "--disable-tools", "evaluate")
    try:
        await server.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        early = await server.request("tools/list")
        await server.send_raw(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        late = await server.request("tools/list")
        assert early["result"] == late["result"] == served_manifest(mode)
        refusals = []
        for meta in ({}, {"_meta": {"progressToken": "p"}}):
            for name in (EVALUATE_TOOLS[mode], "no_such_tool"):
                reply = await server.request("tools/call", {"name": name, "arguments": {"expression": "1"}, **meta})
                refusals.append(reply["error"])
        assert refusals == [
            {"code": -32602, "message": f"Unknown tool: {name}"} for name in (EVALUATE_TOOLS[mode], "no_such_tool") * 2
        ]
    finally:
        await server.kill()
