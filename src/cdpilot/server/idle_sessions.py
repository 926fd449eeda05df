"""Idle means no request: a session that sent none for ``--session-idle-timeout`` seconds ends.

The SDK's own idle timeout counts an open GET stream as activity, and every SDK client keeps
one open while it is connected: a hung or forgotten agent would hold its session slot and its
browser context for ever. So cdpilot keeps its own clock of each session's last POST or DELETE
(`RequestClock`, an ASGI wrapper around ``/mcp``) and ends a session idle past the timeout
(`end_idle_sessions`) the way the SDK ends one on its own timeout: by cancelling the session's
idle scope, after which the SDK discards the session and unwinds its exit stack (which closes
the session's browsers). Its id then answers 404, and its client has to initialize again.

The SDK keeps the sessions in a private table (`StreamableHTTPSessionManager._server_instances`);
mcp is pinned, and the HTTP tests fail first if that ever moves.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import anyio
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = "mcp-session-id"
CHECKS_PER_TIMEOUT = 4  # an idle session ends at most a quarter of the timeout late
MAX_CHECK_INTERVAL_S = 5.0


class RequestClock:
    """When each session last sent a request (a POST or a DELETE: not a GET stream left open).

    A session with a request still running is never idle, however long its call takes (a
    browser's launch, a wait for a pause): its clock restarts when the request ends.
    """

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self.last_request: dict[str, float] = {}
        self.running: dict[str, int] = {}
        self._request_ended = anyio.Event()

    async def calls_ended(self) -> None:
        """Return once no session has a request running (the drain on SIGTERM waits for it)."""
        while any(self.running.values()):
            self._request_ended = anyio.Event()
            await self._request_ended.wait()

    def is_idle(self, session_id: str, now: float, timeout_s: float) -> bool:
        last = self.last_request.get(session_id)
        return last is not None and not self.running.get(session_id) and now - last > timeout_s

    def forget(self, session_id: str) -> None:
        self.last_request.pop(session_id, None)
        self.running.pop(session_id, None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "DELETE"):
            await self._app(scope, receive, send)
            return
        named = Headers(scope=scope).get(SESSION_HEADER)
        if named is not None:
            self.last_request[named] = time.monotonic()
            self.running[named] = self.running.get(named, 0) + 1
            try:
                await self._app(scope, receive, send)
            finally:
                self.running[named] -= 1
                self.last_request[named] = time.monotonic()
                self._request_ended.set()
            return

        async def note_new_session(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                made = Headers(raw=message.get("headers", [])).get(SESSION_HEADER)
                if made is not None:  # an initialize: the session's first request
                    self.last_request[made] = time.monotonic()
            await send(message)

        await self._app(scope, receive, note_new_session)


async def end_idle_sessions(manager: StreamableHTTPSessionManager, clock: RequestClock, timeout_s: float) -> None:
    """Until cancelled: end every session whose last request is more than `timeout_s` old."""
    interval = min(timeout_s / CHECKS_PER_TIMEOUT, MAX_CHECK_INTERVAL_S)
    while True:
        await anyio.sleep(interval)
        sessions: dict[str, Any] = manager._server_instances
        now = time.monotonic()
        for session_id in list(clock.last_request):
            if session_id not in sessions and not clock.running.get(session_id):
                clock.forget(session_id)  # ended otherwise (DELETE, the server's own end)
        for session_id, transport in list(sessions.items()):
            if clock.is_idle(session_id, now, timeout_s) and transport.idle_scope is not None:
                clock.forget(session_id)
                print(
                    f"cdpilot http: session {session_id[:12]} sent no request for {timeout_s:g} s: ending it",
                    file=sys.stderr,
                )
                transport.idle_scope.cancel()
