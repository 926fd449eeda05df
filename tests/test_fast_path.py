"""FastCalls alone: what it takes from the SDK, and the replies it writes, with no SDK in sight."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import mcp_types as types
import pytest
from cdpilot_generated.manifests import CALLED_AS_IS
from mcp_types.methods import serialize_server_result

from cdpilot.errors import InvalidParamsError
from cdpilot.server.call_results import CallResult, ImageBlock, LinkBlock, TextBlock
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
        return Tools(call=self.call_tool, list_json=TOOLS_JSON, mode="legacy")

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

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        if name == "nope":
            raise InvalidParamsError("Unknown tool: nope")
        return CallResult([TextBlock(f"{name} {dict(arguments or {})}")])


def request(request_id: int | str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A request as the wire reads it: a JSON object."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def initialized(wire: Wire, version: str = HANDSHAKE_VERSION) -> FastCalls:
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(1, "initialize", {}))
    fast.seen_answer(1, {"protocolVersion": version})
    assert not fast.take(notification("notifications/initialized"))
    return fast


async def test_nothing_is_taken_before_the_session_is_initialized() -> None:
    wire = Wire()
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(5, "tools/call", {"name": "x"}))
    assert not fast.take(request(1, "initialize", {}))
    assert not fast.take(request(6, "tools/call", {"name": "x"}))  # answered, but not initialized yet
    fast.seen_answer(1, {"protocolVersion": HANDSHAKE_VERSION})
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
        {"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Unknown tool: nope"}},
    ]


async def test_what_stays_with_the_sdk() -> None:
    wire = Wire()
    fast = initialized(wire)
    assert not fast.take(request(3, "ping"))
    assert not fast.take(request(4, "tools/call", {"name": 7}))  # malformed: the SDK's -32602
    assert not fast.take({"jsonrpc": "1.0", "id": 12, "method": "tools/call", "params": {"name": "x"}})
    assert not fast.take({**request(13, "tools/call", {"name": "x"}), "result": {}})  # no request: the SDK's -32600
    assert not fast.take({"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": [1]})
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
    fast.seen_answer(1, {"protocolVersion": HANDSHAKE_VERSION})
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
    fast = FastCalls(wire.tools(), wire.write)
    assert not fast.take(request(1, "initialize", {}))  # the SDK still gets it, to set up its session
    fast.negotiated(HANDSHAKE_VERSION)
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


async def test_idle_waits_for_every_call_under_way() -> None:
    """What the server waits for before it imports the SDK, which would slow the calls."""
    wire = Wire()
    wire.release.clear()
    fast = initialized(wire)
    await asyncio.wait_for(fast.idle(), 1)  # nothing under way
    assert fast.take(request(1, "tools/call", {"name": "navigate"}))
    idle = asyncio.ensure_future(fast.idle())
    await asyncio.sleep(0.05)
    assert not idle.done()
    wire.release.set()
    await asyncio.wait_for(idle, 1)
    assert [line["id"] for line in await wire.replies(1)] == [1]


async def test_results_are_sent_as_the_sdk_shapes_them_for_each_version_called_as_is() -> None:
    """The shape the registry writes is what the SDK's own per-version shaping gives, for each
    version the fast path serves; codegen found them with samples, this checks real results."""
    results = [
        CallResult([TextBlock("Navigated to http://127.0.0.1/ ✓")]),
        CallResult(
            [
                TextBlock("Shot."),
                ImageBlock("iVBORw0KGgo=", "image/png"),
                LinkBlock("cdpilot://files/s.png", "s.png", "image/png", 8),
            ]
        ),
        CallResult(
            [TextBlock("Error")], is_error=True, meta={"cdpilot/errorType": "STATE", "cdpilot/recoverable": True}
        ),
    ]
    assert CALLED_AS_IS
    for result in results:
        sdk = types.CallToolResult.model_validate(result.wire()).model_dump(
            by_alias=True, mode="json", exclude_none=True
        )
        for version in CALLED_AS_IS:
            assert serialize_server_result("tools/call", version, sdk) == result.wire()
