"""The HTTP server's door: the bearer token check and the access log, as plain ASGI wrappers.

Why here and not in the SDK's transport: the SDK checks Host and Origin but leaves
authentication to the application. The token is compared in constant time
(`hmac.compare_digest`), a request without it gets 401 before any MCP code runs, and
neither the token nor any request body (the tools' arguments) is ever written to the log.
Nor is a refused Host or Origin value: the SDK logs the one it refuses, and `HeaderValuesUnlogged`
takes the value out of that line.
"""

from __future__ import annotations

import hmac
import logging
import sys
import time

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = "mcp-session-id"
MAX_BUFFERED_BODY_BYTES = 4 * 1024 * 1024  # the SDK's own limit of a request body
TRANSPORT_SECURITY_LOGGER = "mcp.server.transport_security"  # where the SDK logs a refused Host or Origin


class BearerAuth:
    """Refuse every HTTP request but those to `open_paths` unless it carries ``Bearer <token>``
    (no token configured: everything passes, as on a loopback-only server)."""

    def __init__(self, app: ASGIApp, token: str | None, *, open_paths: tuple[str, ...] = ()) -> None:
        self._app = app
        self._expected = token.encode() if token else None
        self._open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._expected is None or scope["type"] != "http" or scope["path"] in self._open_paths:
            await self._app(scope, receive, send)
            return
        # The scheme's name is case-insensitive (RFC 9110 §11.1): "bearer" is Bearer too.
        scheme, _, credentials = Headers(scope=scope).get("authorization", "").partition(" ")
        given = credentials.encode("latin-1")
        if scheme.lower() == "bearer" and hmac.compare_digest(given, self._expected):
            await self._app(scope, receive, send)
            return
        refusal = JSONResponse(
            {"error": "unauthorized", "message": "this server needs the header 'Authorization: Bearer <token>'"},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
        await refusal(scope, receive, send)


class WholeBodies:
    """A POST reaches the SDK only once its whole body has arrived (up to `max_bytes`; a larger
    one streams on, and the SDK refuses it with 413).

    Why: a client that disconnects mid-upload made the SDK fail reading the body, answer 500 to
    nobody and log a traceback. Here the request just ends, logged as the access log's one line."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BUFFERED_BODY_BYTES) -> None:
        self._app = app
        self._max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more and size <= self._max_bytes:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # gone mid-upload: nobody to answer
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = bool(message.get("more_body", False))
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": more}
            return await receive()

        await self._app(scope, replay, send)


class NoSessionForARefusal:
    """A request that names no session and is refused (400: not an initialize) gets no session id.

    The SDK makes a transport, and so an id, for every request without one before it looks at
    the request; refused, that session never exists, and a client that kept its id would name a
    session the server does not know."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or SESSION_HEADER in Headers(scope=scope):
            await self._app(scope, receive, send)
            return

        async def without_phantom_session(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 400:
                name = SESSION_HEADER.encode()
                message = {**message, "headers": [(k, v) for k, v in message.get("headers", []) if k.lower() != name]}
            await send(message)

        await self._app(scope, receive, without_phantom_session)


class AccessLog:
    """One stderr line per HTTP request: client, method, path, status, time, session (a prefix)."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        started = time.monotonic()
        status = 0
        session = Headers(scope=scope).get(SESSION_HEADER, "")

        async def watch(message: Message) -> None:
            nonlocal status, session
            if message["type"] == "http.response.start":
                status = message["status"]
                session = session or Headers(raw=message.get("headers", [])).get(SESSION_HEADER, "")
            await send(message)

        try:
            await self._app(scope, receive, watch)
        finally:
            client = scope.get("client") or ("-", 0)
            took = (time.monotonic() - started) * 1000
            shown = f" session={session[:12]}" if session else ""
            line = f"cdpilot http: {client[0]} {scope['method']} {scope['path']} {status or '-'} {took:.0f} ms{shown}"
            print(line, file=sys.stderr)


class HeaderValuesUnlogged(logging.Filter):
    """The SDK's line for a refused Host or Origin, without the value (a header of the client's,
    which the log never holds): "Invalid Host header: evil.example" becomes "Invalid Host header
    (value not logged)"."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for header in ("Host", "Origin"):
            if message.startswith(f"Invalid {header} header"):
                record.msg, record.args = f"Invalid {header} header (value not logged)", ()
        return True


def unlog_refused_header_values() -> None:
    """Install `HeaderValuesUnlogged` on the SDK's transport-security logger (once)."""
    logger = logging.getLogger(TRANSPORT_SECURITY_LOGGER)
    if not any(isinstance(found, HeaderValuesUnlogged) for found in logger.filters):
        logger.addFilter(HeaderValuesUnlogged())
