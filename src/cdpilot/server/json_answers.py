"""A file read (``resources/read``) is answered as one plain JSON body, not as a server-sent event.

Why: the SDK answers every POST on an event stream, and the official Python client caps one
event at 1 MiB by default, so it failed ("Server-sent event exceeded the 1048576 byte limit")
to read back any file over about 1 MiB of the 20 MiB that resources/read offers. A read streams
nothing (no progress, no request of the server's own), so a JSON body loses nothing, and every
client reads it whole: MCP lets a server answer a POST either way.

The SDK decides between the two per transport (``is_json_response_enabled``), once per session.
`JsonAnswers` marks a read's request in a context variable, and the transport the session
manager builds (`JsonForReads`, put in its place by `answer_reads_as_json`) reads that mark
where the SDK reads its flag. The mark never reaches the task that routes a session's outgoing
messages: that task is started by the session's initialize, which is never marked. mcp is
pinned, and the HTTP tests fail first if any of this moves.
"""

from __future__ import annotations

import json
from contextvars import ContextVar

from mcp.server import streamable_http_manager
from mcp.server.streamable_http import StreamableHTTPServerTransport
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ANSWERED_AS_JSON = frozenset({"resources/read"})  # requests that stream nothing and may be large
_json_answer: ContextVar[bool] = ContextVar("cdpilot_json_answer", default=False)


class JsonForReads(StreamableHTTPServerTransport):
    """The SDK's transport, answering as JSON the requests `JsonAnswers` marked."""

    _json_by_default = False

    @property
    def is_json_response_enabled(self) -> bool:
        return self._json_by_default or _json_answer.get()

    @is_json_response_enabled.setter
    def is_json_response_enabled(self, value: bool) -> None:
        self._json_by_default = value


def answer_reads_as_json() -> None:
    """Have the SDK's session manager build its sessions' transports as `JsonForReads`."""
    streamable_http_manager.StreamableHTTPServerTransport = JsonForReads  # type: ignore[attr-defined]


class JsonAnswers:
    """Marks a POST that carries one request of `ANSWERED_AS_JSON` (its whole body has arrived:
    `http_guard.WholeBodies` sits outside)."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._app(scope, receive, send)
            return
        first = await receive()
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return first
            return await receive()

        mark = _json_answer.set(_method_of(first) in ANSWERED_AS_JSON)
        try:
            await self._app(scope, replay, send)
        finally:
            _json_answer.reset(mark)


def _method_of(message: Message) -> str | None:
    """The JSON-RPC method of a whole body holding one request (None for anything else)."""
    if message.get("type") != "http.request" or message.get("more_body", False):
        return None
    try:
        body = json.loads(message.get("body", b""))
    except ValueError:
        return None
    method = body.get("method") if isinstance(body, dict) and "id" in body else None
    return method if isinstance(method, str) else None
