"""FastCalls alone: what it takes from the SDK, and the replies it writes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

from cdpilot.server.fast_path import FastCalls, Tools

pytestmark = pytest.mark.anyio

HANDSHAKE_VERSION = "2025-11-25"
TOOLS_JSON = '{"tools":[{"name":"navigate","description":"Go → there.","inputSchema":{"type":"object"}}]}'


class Wire:
    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.raw: list[bytes] = []
        self.release = asyncio.Event()
        self.release.set()
        self.started = asyncio.Event()  # a call reached the tool
        self.cancelled = asyncio.Event()  # a call was cancelled while in the tool
        self._wrote = asyncio.Event()

    def tools(self) -> Tools:
        return Tools(call=self.call_tool, list_json=TOOLS_JSON)

    async def write(self, data: bytes) -> None:
        self.raw.append(data)
        self.lines.append(json.loads(data))
        self._wrote.set()

    async def replies(self, count: int) -> list[dict[str, Any]]:
        """The replies written so far, once there are `count` of them (within a second)."""
        async with asyncio.timeout(1):
            while len(self.lines) < count:
                self._wrote.clear()
                await self._wrote.wait()
        return self.lines

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        if name == "nope":
            raise MCPError(types.INVALID_PARAMS, "Unknown tool: nope")
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"{name} {dict(arguments or {})}")])


def request(request_id: int | str, method: str, params: dict[str, Any] | None = None) -> types.JSONRPCMessage:
    return types.JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params=params)


def notification(method: str, params: dict[str, Any] | None = None) -> types.JSONRPCMessage:
    return types.JSONRPCNotification(jsonrpc="2.0", method=method, params=params)


def initialized(wire: Wire, version: str = HANDSHAKE_VERSION) -> FastCalls:
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(1, "initialize", {}))
    fast.seen_outgoing(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"protocolVersion": version}))
    assert not fast.take(notification("notifications/initialized"))
    return fast


async def test_nothing_is_taken_before_the_session_is_initialized() -> None:
    wire = Wire()
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(5, "tools/call", {"name": "x"}))
    assert not fast.take(request(1, "initialize", {}))
    assert not fast.take(request(6, "tools/call", {"name": "x"}))  # answered, but not initialized yet
    fast.seen_outgoing(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"protocolVersion": HANDSHAKE_VERSION}))
    assert not fast.take(request(7, "tools/call", {"name": "x"}))
    assert not fast.take(notification("notifications/initialized"))
    assert fast.take(request(8, "tools/call", {"name": "x"}))
    await fast.aclose()


async def test_a_call_is_answered_in_the_sdk_wire_shape() -> None:
    wire = Wire()
    fast = initialized(wire)
    assert fast.take(request("a", "tools/call", {"name": "navigate", "arguments": {"url": "x"}}))
    assert fast.take(request(9, "tools/call", {"name": "nope"}))
    assert await wire.replies(2) == [
        {
            "jsonrpc": "2.0",
            "id": "a",
            "result": {"content": [{"type": "text", "text": "navigate {'url': 'x'}"}], "isError": False},
        },
        {"jsonrpc": "2.0", "id": 9, "error": {"code": types.INVALID_PARAMS, "message": "Unknown tool: nope"}},
    ]


async def test_what_stays_with_the_sdk() -> None:
    wire = Wire()
    fast = initialized(wire)
    assert not fast.take(request(3, "ping"))
    assert not fast.take(request(4, "tools/call", {"name": 7}))  # malformed: the SDK's -32602
    assert not fast.take(request(5, "tools/call", {"name": "x", "arguments": [1]}))
    assert not fast.take(request(6, "tools/call", {"name": "x", "_meta": {"progressToken": "p"}}))
    assert not fast.take(notification("notifications/cancelled", {"requestId": 99}))  # not ours
    modern = initialized(Wire(), version="2026-07-28")
    assert not modern.take(request(7, "tools/call", {"name": "x"}))
    assert not modern.take(request(8, "tools/list"))


async def test_tools_list_is_the_manifest_as_serialised() -> None:
    wire = Wire()
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(1, "initialize", {}))
    fast.seen_outgoing(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"protocolVersion": HANDSHAKE_VERSION}))
    assert not fast.take(request(2, "tools/list"))  # before notifications/initialized: the SDK's
    assert not fast.take(notification("notifications/initialized"))
    assert fast.take(request("\ud800", "tools/list", {"cursor": "ignored"}))
    await wire.replies(1)
    assert wire.raw == [b'{"jsonrpc":"2.0","id":"\\ud800","result":' + TOOLS_JSON.encode() + b"}\n"]
    assert wire.lines[0]["result"] == json.loads(TOOLS_JSON)


async def test_a_version_negotiated_before_the_sdk_was_loaded_needs_no_answer_to_learn_it() -> None:
    """The handshake answered initialize; the SDK's own answer to it is never written, and calls
    are served as soon as the session is initialized."""
    wire = Wire()
    fast = FastCalls(wire.tools(), wire.write, negotiated=HANDSHAKE_VERSION)
    assert not fast.take(request(1, "initialize", {}))  # the SDK still gets it, to set up its session
    assert not fast.take(request(2, "tools/call", {"name": "x"}))
    assert not fast.take(notification("notifications/initialized"))
    assert fast.take(request(3, "tools/call", {"name": "x"}))
    assert fast.take(request(4, "tools/list"))
    assert sorted(line["id"] for line in await wire.replies(2)) == [3, 4]


async def test_a_cancelled_call_gets_no_reply() -> None:
    wire = Wire()
    wire.release.clear()
    fast = initialized(wire)
    assert fast.take(request(10, "tools/call", {"name": "wait_for"}))
    async with asyncio.timeout(1):
        await wire.started.wait()
    assert fast.take(notification("notifications/cancelled", {"requestId": 10}))
    async with asyncio.timeout(1):
        await wire.cancelled.wait()
    wire.release.set()
    assert fast.take(request(11, "tools/call", {"name": "later"}))
    assert [line["id"] for line in await wire.replies(1)] == [11]  # nothing for the cancelled call
    assert fast.take(request(10, "tools/call", {"name": "again"}))  # the id is free again
    assert [line["id"] for line in await wire.replies(2)] == [11, 10]
