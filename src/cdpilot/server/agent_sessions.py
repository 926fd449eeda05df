"""One isolated world per MCP session over HTTP: its own browsers, output folder and rate limits.

Why per session: agents that share a server must not see, switch to or close each other's
browsers and tabs, nor spend each other's rate limits. So each session gets its own
`ConnectionManager` and `Registry` (the registry holds the rate limiter); isolation then
holds by construction, since no handler can reach another session's manager.

By default a session's launches are browser contexts of one `SharedBrowser` (ten agents,
one Chromium); with ``--browser-per-session`` each launch is a process of its own. Either
way a session holds at most ``--max-tabs-per-session`` tabs.

The world is made when the session's first message arrives (`initialize`: the SDK's server
middleware sees every message) and kept in the SDK's per-connection state. It is closed by
the connection's exit stack, which the SDK unwinds however the session ends: the client's
DELETE, the idle timeout, a crash, or the server shutting down.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import anyio
import mcp_types as types
from cdpilot_generated.manifests import Mode
from mcp.server.connection import Connection
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError

from cdpilot.context import Settings, ToolContext
from cdpilot.handlers.table import HANDLERS
from cdpilot.output_files import output_root
from cdpilot.server.app import CLEANUP_SECONDS
from cdpilot.server.fast_path import CallTool
from cdpilot.server.file_links import SessionFiles
from cdpilot.server.registry import Registry

logger = logging.getLogger(__name__)
STATE_KEY = "cdpilot.session"


def connection_of(ctx: ServerRequestContext[Any, Any]) -> Connection:
    """The SDK's per-client connection behind a request. The lowlevel context does not expose it
    (the SDK's high-level `Context.connection` does); mcp is pinned, and the HTTP tests fail
    first if this ever moves."""
    connection: Connection = ctx.session._connection
    return connection


class SessionBrowsers(Protocol):
    """What the session table needs of the browsers behind the sessions. The server never knows a
    browser: start-up gives it one of these (`server.app.HttpBrowsers`)."""

    def context_for(self, mode: Mode, settings: Settings) -> ToolContext:
        """A new session's `ToolContext`, with its own connections."""
        ...

    @property
    def process_count(self) -> int:
        """Browser processes not counted by any session's connections (a shared browser's)."""
        ...

    @property
    def context_count(self) -> int:
        """Browser contexts of a shared browser that sessions hold."""
        ...

    async def aclose(self) -> None:
        """After every session ended: let go of what is shared."""
        ...

    def kill_now(self) -> None:
        """Synchronous last resort (atexit)."""
        ...


class AgentSession:
    """One client's browsers and tool pipeline; its files go to its own output subfolder."""

    def __init__(self, session_id: str, mode: Mode, settings: Settings, browsers: SessionBrowsers) -> None:
        self.session_id = session_id
        self.settings = replace(settings, output_dir=output_root(settings.output_dir) / f"session-{session_id[:12]}")
        context = browsers.context_for(mode, self.settings)
        self.connections = context.connections
        self.registry = Registry(context, HANDLERS)

    async def aclose(self) -> None:
        """Close the session's browsers within `CLEANUP_SECONDS`; kill whatever is left."""
        with anyio.CancelScope(shield=True), anyio.move_on_after(CLEANUP_SECONDS):
            await self.connections.aclose()
        self.connections.kill_all_now()


class SessionTable:
    """Every open session, for the health check and for a last-resort kill at exit."""

    def __init__(
        self, mode: Mode, settings: Settings, browsers: SessionBrowsers, *, files_retention_s: float = 3600.0
    ) -> None:
        """`files_retention_s`: how long an ended session's output subfolder is kept."""
        self._mode = mode
        self._settings = settings
        self._browsers = browsers
        self._sessions: dict[str, AgentSession] = {}
        self._files_retention_s = files_retention_s
        self._file_removals: set[asyncio.Task[None]] = set()

    @property
    def open_count(self) -> int:
        return len(self._sessions)

    @property
    def browser_count(self) -> int:
        """Browser processes: the shared one, if it runs, and those of sessions' own launches."""
        return self._browsers.process_count + sum(
            session.connections.launched_count for session in self._sessions.values()
        )

    @property
    def context_count(self) -> int:
        return self._browsers.context_count

    async def middleware(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """The SDK's server middleware: give the connection its session before its first message."""
        connection = connection_of(ctx)
        if STATE_KEY not in connection.state:
            self._open(connection)
        return await call_next(ctx)

    def call_for(self, ctx: ServerRequestContext[Any, Any]) -> CallTool:
        """The tools/call pipeline of the session `ctx` belongs to."""
        session: AgentSession = connection_of(ctx).state[STATE_KEY]
        return session.registry.call

    def files_for(self, ctx: ServerRequestContext[Any, Any]) -> SessionFiles:
        """The files of the session `ctx` belongs to: the only ones its resources/read may reach."""
        session: AgentSession = connection_of(ctx).state[STATE_KEY]
        return session.registry.files

    def _open(self, connection: Connection) -> None:
        session_id = connection.session_id
        if session_id is None:  # the stateless protocol era: nothing would ever close its browsers
            raise MCPError(types.INVALID_REQUEST, "cdpilot serves MCP sessions: initialize one first")
        session = AgentSession(session_id, self._mode, self._settings, self._browsers)
        connection.state[STATE_KEY] = session
        self._sessions[session_id] = session
        connection.exit_stack.push_async_callback(self._close, session_id)

    async def _close(self, session_id: str) -> None:
        """Close the session's browsers, then forget it: while it is counted, it may still hold some."""
        session = self._sessions[session_id]
        held = len(session.connections.list())
        try:
            await session.aclose()
        finally:
            del self._sessions[session_id]
            removal = asyncio.ensure_future(self._remove_files(session.settings.output_dir))
            self._file_removals.add(removal)
            removal.add_done_callback(self._file_removals.discard)
        print(f"cdpilot http: session {session_id[:12]} ended, {held} connection(s) closed", file=sys.stderr)

    async def _remove_files(self, folder: Path | None) -> None:
        """An ended session's files go `files_retention_s` after it ended: no client can read them
        any more (resources/read is its session's), and a server that runs for weeks must not
        fill its disk. The server stopping first leaves them (its operator may want them)."""
        if folder is None:
            return
        await asyncio.sleep(self._files_retention_s)
        await asyncio.to_thread(shutil.rmtree, folder, True)

    async def aclose(self) -> None:
        """After every session ended (server shutdown): the shared browser, if one is left. Files
        still within their retention stay."""
        for removal in list(self._file_removals):
            removal.cancel()
        with anyio.CancelScope(shield=True), anyio.move_on_after(CLEANUP_SECONDS):
            await self._browsers.aclose()
        self._browsers.kill_now()

    def kill_all_now(self) -> None:
        """Synchronous last resort (atexit): SIGKILL every session's browsers and the shared one."""
        for session in list(self._sessions.values()):
            session.connections.kill_all_now()
        self._browsers.kill_now()
