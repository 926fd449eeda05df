"""tools/list and tools/call served straight from the manifest and the registry, past the
SDK, from the session's first call on: before the SDK is even loaded.

Why: importing the SDK costs more than a browser's start, and a client's first call (a
`navigate` that launches Chromium, say) needs none of it: cdpilot's handlers never see the
SDK's request context, and the registry returns plain data (`call_results`). So the server
loads its call layer first and serves calls here, while the handshake (`handshake`) is
still answering for the SDK; the SDK is loaded behind them, and this keeps serving calls
after the hand-over (`stdio`), where it also spares each call the SDK's per-request
machinery (anyio memory streams and tasks, nine event-loop turns, eight pydantic
validations, a tracing span; see the README's Performance section).

What is served here is served as the SDK would: a well-formed ``tools/call`` or
``tools/list`` request, once ``notifications/initialized`` has come, in a session whose
negotiated version takes the result as the registry shapes it (codegen checks, with the
SDK's own per-version shaping, which do: `CALLED_AS_IS`, `LISTED_AS_IS`). Everything else
stays with the SDK: initialize and ping (once the handshake has handed over), a call that
asks for progress (``_meta.progressToken``: the SDK knows how to reach the client's
token, on every transport), any request before ``notifications/initialized``, and
modern-era (2026-07-28) sessions. A ``notifications/cancelled`` for a call served here
cancels it, and no reply is sent. Standard library and generated code only.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cdpilot_generated.manifests import CALLED_AS_IS, LISTED_AS_IS, Mode

from cdpilot.errors import InvalidParamsError
from cdpilot.server.jsonrpc import is_notification, is_plain_request, only_cursor

if TYPE_CHECKING:
    from cdpilot.server.call_results import CallResult

CallTool = Callable[[str, Mapping[str, Any] | None], Awaitable["CallResult"]]
Write = Callable[[bytes], Awaitable[None]]
RequestId = int | str


@dataclass(frozen=True)
class Tools:
    """What the fast path serves: the tool calls, and the tools/list result of `mode` as serialised JSON."""

    call: CallTool
    list_json: str
    mode: Mode


class FastCalls:
    """Decides, message by message, what is served here; serves it and writes the replies."""

    def __init__(self, tools: Tools, write: Write) -> None:
        self._tools = tools
        self._write = write
        self._initialize_id: RequestId | None = None
        self._version: str | None = None  # the negotiated version, once this path may serve it
        self._initialized = False
        self._calls: dict[RequestId, asyncio.Task[None]] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    def take(self, message: Mapping[str, Any]) -> bool:
        """True when `message` (a JSON object the wire read) is served here; False to pass it on to the SDK."""
        if is_plain_request(message):
            method, request_id = message["method"], message["id"]
            if method == "initialize" and self._initialize_id is None:
                self._initialize_id = request_id
            elif self._ready() and request_id not in self._calls:
                if method == "tools/call":
                    return self._start(request_id, message.get("params"))
                if method == "tools/list" and only_cursor(message.get("params")) and self._listed_as_is():
                    self._track(request_id, self._list(request_id))
                    return True
        elif is_notification(message, "notifications/initialized"):
            self._initialized = True  # the SDK needs it as well
        elif is_notification(message, "notifications/cancelled"):
            params = message.get("params")
            return self._cancel(params.get("requestId") if isinstance(params, dict) else None)
        return False

    def negotiated(self, version: str) -> None:
        """The version of the session's initialize, answered by the handshake or by the SDK."""
        self._version = version if version in CALLED_AS_IS else None

    def seen_answer(self, request_id: RequestId, result: Mapping[str, Any]) -> None:
        """Learn the negotiated version from the SDK's answer to the first initialize."""
        version = result.get("protocolVersion")
        if request_id == self._initialize_id and isinstance(version, str):
            self.negotiated(version)

    async def idle(self) -> None:
        """Return once no call served here is under way."""
        await self._idle.wait()

    async def aclose(self) -> None:
        """End of input: like the SDK, stop what is in flight (the client has gone)."""
        calls = list(self._calls.values())
        for call in calls:
            call.cancel()
        await asyncio.gather(*calls, return_exceptions=True)

    def _listed_as_is(self) -> bool:
        return self._version in LISTED_AS_IS[self._tools.mode]

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
        self._idle.clear()
        task.add_done_callback(lambda _: self._done(request_id))

    def _done(self, request_id: RequestId) -> None:
        self._calls.pop(request_id, None)
        if not self._calls:
            self._idle.set()

    def _cancel(self, request_id: object) -> bool:
        call = self._calls.get(request_id) if isinstance(request_id, int | str) else None
        if call is None:
            return False  # not ours: the SDK tracks its own requests
        call.cancel()
        return True

    async def _serve(self, request_id: RequestId, name: str, arguments: dict[str, Any] | None) -> None:
        try:
            body: dict[str, Any] = {"result": (await self._tools.call(name, arguments)).wire()}
        except InvalidParamsError as exc:  # an unknown tool: a JSON-RPC error, as the SDK sends it
            body = {"error": {"code": exc.code, "message": exc.message}}
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
