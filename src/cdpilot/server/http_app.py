"""MCP over Streamable HTTP: many agents, one isolated session each, secure by default.

The HTTP framing, the ``Mcp-Session-Id`` sessions, the idle timeout, the session limit and
the Host/Origin checks against DNS rebinding are the SDK's (`StreamableHTTPSessionManager`,
`TransportSecuritySettings`); this module wires them to cdpilot's tool pipeline, one
`AgentSession` per MCP session (`cdpilot.server.agent_sessions`), and adds what the SDK
leaves to the application: the bearer token, ``GET /healthz``, an access log, and a
shutdown that closes every browser before the process exits.

Imported only for ``--transport http``: the stdio path never loads Starlette or uvicorn.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import anyio
import uvicorn
from cdpilot_generated.manifests import Mode
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from sse_starlette.sse import AppStatus
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from cdpilot.context import Settings
from cdpilot.handlers.table import HANDLERS
from cdpilot.server.agent_sessions import SessionTable
from cdpilot.server.app import HttpBrowsers
from cdpilot.server.http_guard import (
    AccessLog,
    BearerAuth,
    NoSessionForARefusal,
    WholeBodies,
    unlog_refused_header_values,
)
from cdpilot.server.http_settings import HttpSettings
from cdpilot.server.idle_sessions import RequestClock, end_idle_sessions
from cdpilot.server.json_answers import JsonAnswers, answer_reads_as_json
from cdpilot.server.registry import handler_problems
from cdpilot.server.sdk_server import build_server
from cdpilot.server.tool_filter import tools_list_json

DRAIN_SECONDS = 2.0  # how long open requests may finish after SIGTERM
STREAM_END_GRACE_S = 1.0  # for the SSE streams to end once told (sse-starlette looks twice a second)
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class _Uvicorn(uvicorn.Server):
    """uvicorn, draining as the docs promise: a signal lets the calls under way finish (for up
    to `DRAIN_SECONDS`) before the event streams end.

    Why not as it comes: sse-starlette, under every SDK stream, ends all its streams within
    half a second of uvicorn's signal, so a call due to finish a second later lost its answer
    ("SSE stream ended without a response"). Its automatic drain is turned off here, and the
    streams are told to end once no POST is running (`RequestClock.calls_ended`), or the drain is
    over. Also, uvicorn's own handling re-raises the signal once shut down, which would end
    the process by that signal instead of with status 0."""

    def __init__(self, config: uvicorn.Config, clock: RequestClock) -> None:
        super().__init__(config)
        self._clock = clock
        self._drain: asyncio.Task[None] | None = None

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            loop.add_signal_handler(sig, self._start_drain, sig)
        try:
            yield
        finally:
            for sig in SIGNALS:
                loop.remove_signal_handler(sig)

    def _start_drain(self, sig: int) -> None:
        self.handle_exit(sig, None)
        if self._drain is None:
            self._drain = asyncio.ensure_future(self._end_streams_when_calls_end())

    async def _end_streams_when_calls_end(self) -> None:
        with anyio.move_on_after(DRAIN_SECONDS):
            await self._clock.calls_ended()
        AppStatus.should_exit = True


def build_app(
    mode: Mode, settings: Settings, http: HttpSettings, table: SessionTable
) -> tuple[AccessLog, RequestClock]:
    """The ASGI app: ``/mcp`` and ``/healthz`` behind the token check, inside the access log;
    and the clock of its requests."""
    unlog_refused_header_values()
    answer_reads_as_json()
    server = build_server(table.call_for, tools_list_json(mode, settings.tools), table.files_for)
    server.middleware.append(table.middleware)
    manager = StreamableHTTPSessionManager(
        app=server,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=list(http.allowed_hosts),
            allowed_origins=list(http.allowed_origins),
        ),
        session_idle_timeout=http.session_idle_timeout_s,
        max_sessions=http.max_sessions,
    )

    async def health(request: Request) -> JSONResponse:
        counts = {"sessions": table.open_count, "browsers": table.browser_count, "contexts": table.context_count}
        return JSONResponse({"status": "ok", **counts})

    clock = RequestClock(StreamableHTTPASGIApp(manager))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with manager.run(), anyio.create_task_group() as idle:  # the manager, on the way out,
                # ends every session, and so closes their browsers
                idle.start_soon(end_idle_sessions, manager, clock, http.session_idle_timeout_s)
                try:
                    yield
                finally:
                    idle.cancel_scope.cancel()
        finally:
            await table.aclose()

    app = Starlette(routes=[Route("/healthz", health, methods=["GET"]), Route("/mcp", clock)], lifespan=lifespan)
    guarded = BearerAuth(WholeBodies(JsonAnswers(NoSessionForARefusal(app))), http.auth_token, open_paths=("/healthz",))
    return AccessLog(guarded), clock


async def serve_http(mode: Mode, settings: Settings, http: HttpSettings) -> int:
    """Serve until SIGTERM/SIGINT/SIGHUP, then drain and close every session's browsers.

    Returns the exit status: 1 when the handler table does not match the catalog or the
    address cannot be listened on."""
    problems = handler_problems(HANDLERS)
    if problems:
        print("cdpilot: the handler table does not match the tool catalog:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    try:  # bound here, not by uvicorn: a port in use is then one clear line and status 1
        listener = socket.create_server((http.host, http.port), family=_family(http.host))
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        print(f"cdpilot: cannot listen on {http.host} port {http.port}: {reason}", file=sys.stderr)
        return 1
    browsers = HttpBrowsers(settings, per_session=http.browser_per_session, max_tabs=http.max_tabs_per_session)
    table = SessionTable(mode, settings, browsers, files_retention_s=http.session_files_retention_s)
    atexit.register(table.kill_all_now)
    AppStatus.enable_automatic_graceful_drain = False  # _Uvicorn ends the streams, after the calls
    app, clock = build_app(mode, settings, http, table)
    config = uvicorn.Config(
        app,
        access_log=False,  # AccessLog writes one line per request, without the token or any argument
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=int(DRAIN_SECONDS + STREAM_END_GRACE_S),
    )
    server = _Uvicorn(config, clock)
    kept = "a browser process per session" if http.browser_per_session else "one shared browser"
    print(f"cdpilot http: serving {http.url} (at most {http.max_sessions} sessions, {kept})", file=sys.stderr)
    try:
        await server.serve(sockets=[listener])
    finally:
        table.kill_all_now()
        listener.close()
    return 0


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET
