"""tools/list and tools/call served straight from the manifest and the registry, past the
SDK's per-request machinery.

Why: on a trivial call, cdpilot's own code is about 6% of the server's CPU; the rest is the
SDK's `Server.run` path (anyio memory streams and tasks, nine event-loop turns, eight
pydantic validations, a tracing span; see the README's Performance section). cdpilot's
handlers use none of it: they never see the SDK's request context. So once a handshake-era
session is initialized, the transport hands each well-formed ``tools/call`` to the registry
itself and writes the reply, shaped for the negotiated protocol version by the SDK's own
`serialize_server_result`, exactly as the SDK path would. tools/list is answered with the
manifest codegen serialised, byte for byte, when that version's shaping leaves it unchanged.

Everything else stays with the SDK: initialize and ping (once the handshake
(`cdpilot.server.handshake`) has handed over), a call that asks for progress
(``_meta.progressToken``: the SDK knows how to reach the client's token, on every
transport), any request before ``notifications/initialized``, and modern-era (2026-07-28)
sessions, whose results carry more than the handshake era's. A ``notifications/cancelled``
for a call served here cancels it, and no reply is sent.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types.methods import serialize_server_result
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

CallTool = Callable[[str, Mapping[str, Any] | None], Awaitable[types.CallToolResult]]
Write = Callable[[bytes], Awaitable[None]]
RequestId = int | str


@dataclass(frozen=True)
class Tools:
    """What the fast path serves: the tool calls, and the tools/list result as serialised JSON."""

    call: CallTool
    list_json: str


class FastCalls:
    """Decides, message by message, what is served here; serves it and writes the replies."""

    def __init__(self, tools: Tools, write: Write, *, negotiated: str | None = None) -> None:
        """`negotiated`: the version of an initialize answered before the SDK was loaded
        (`cdpilot.server.handshake`), whose SDK answer is then never written."""
        self._tools = tools
        self._write = write
        self._initialize_id: RequestId | None = None
        self._version: str | None = None  # the negotiated handshake-era version, once answered
        self._list_as_is = False  # whether that version's tools/list shaping leaves the manifest unchanged
        self._initialized = False
        self._calls: dict[RequestId, asyncio.Task[None]] = {}
        if negotiated is not None:
            self._negotiated(negotiated)

    def take(self, message: types.JSONRPCMessage) -> bool:
        """True when `message` is served here; False to pass it on to the SDK."""
        if isinstance(message, types.JSONRPCRequest):
            if message.method == "initialize" and self._initialize_id is None:
                self._initialize_id = message.id
            elif message.method == "tools/call" and self._ready() and message.id not in self._calls:
                return self._start(message.id, message.params)
            elif (
                message.method == "tools/list" and self._ready() and self._list_as_is and message.id not in self._calls
            ):
                self._track(message.id, self._list(message.id))
                return True
        elif isinstance(message, types.JSONRPCNotification):
            if message.method == "notifications/initialized":
                self._initialized = True  # the SDK needs it as well
            elif message.method == "notifications/cancelled":
                return self._cancel((message.params or {}).get("requestId"))
        return False

    def seen_outgoing(self, message: types.JSONRPCMessage) -> None:
        """Learn the negotiated version from the SDK's answer to the first initialize."""
        if isinstance(message, types.JSONRPCResponse) and message.id == self._initialize_id:
            version = message.result.get("protocolVersion")
            if isinstance(version, str):
                self._negotiated(version)

    def _negotiated(self, version: str) -> None:
        if version not in MODERN_PROTOCOL_VERSIONS:
            self._version = version
            manifest = json.loads(self._tools.list_json)
            self._list_as_is = serialize_server_result("tools/list", version, manifest) == manifest

    async def aclose(self) -> None:
        """End of input: like the SDK, stop what is in flight (the client has gone)."""
        calls = list(self._calls.values())
        for call in calls:
            call.cancel()
        await asyncio.gather(*calls, return_exceptions=True)

    def _ready(self) -> bool:
        return self._initialized and self._version is not None

    def _start(self, request_id: RequestId, params: Mapping[str, Any] | None) -> bool:
        params = params or {}
        name, arguments, meta = params.get("name"), params.get("arguments"), params.get("_meta")
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            return False  # the SDK answers a malformed call with its own -32602
        if isinstance(meta, dict) and "progressToken" in meta:
            return False  # progress notifications are the SDK's business
        self._track(request_id, self._serve(request_id, name, arguments))
        return True

    def _track(self, request_id: RequestId, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work, name=f"request {request_id!r}")
        self._calls[request_id] = task
        task.add_done_callback(lambda _: self._calls.pop(request_id, None))

    def _cancel(self, request_id: object) -> bool:
        call = self._calls.get(request_id) if isinstance(request_id, int | str) else None
        if call is None:
            return False  # not ours: the SDK tracks its own requests
        call.cancel()
        return True

    async def _serve(self, request_id: RequestId, name: str, arguments: dict[str, Any] | None) -> None:
        assert self._version is not None, "only started once the version is known"
        try:
            result = await self._tools.call(name, arguments)
            dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
            body: dict[str, Any] = {"result": serialize_server_result("tools/call", self._version, dumped)}
        except MCPError as exc:  # an unknown tool: a JSON-RPC error, as the SDK sends it
            body = {"error": exc.error.model_dump(by_alias=True, mode="json", exclude_none=True)}
        envelope = {"jsonrpc": "2.0", "id": request_id, **body}
        text = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate (a page's string, an id): UTF-8 cannot carry it
            data = json.dumps(envelope, separators=(",", ":")).encode()
        await self._write(data + b"\n")

    async def _list(self, request_id: RequestId) -> None:
        head = json.dumps({"jsonrpc": "2.0", "id": request_id}, separators=(",", ":"))
        await self._write(f'{head[:-1]},"result":{self._tools.list_json}}}\n'.encode())
