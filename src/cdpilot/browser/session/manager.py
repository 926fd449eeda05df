"""Several browsers at once: launch, connect, list, switch, disconnect.

Ids are ``browser-1``, ``browser-2``, … unless the caller names one; reusing an id replaces
that connection (the old one is closed first, so a reused profile is free again). The
newest connection becomes the active one; disconnecting the active one falls back to the
most recently used of the others.

Every launched process is registered the moment it exists, so `kill_all_now` can end it
from an atexit or signal path even while its launch is still in progress.

Given a `SharedBrowser` (the HTTP transport's default), a launch becomes a browser context of
that one browser unless it asks for what only a process of its own can give. Given a tab
limit, a launch or a new tab past it is refused: one client must not be able to fill a
shared machine with pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.page.urls import normalize_url
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.browser_launch import launch_browser, open_connection
from cdpilot.browser.session.connection_facts import ConnectionInfo, NodeProgramOptions
from cdpilot.browser.session.endpoints import check_host_and_port, check_websocket_url
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import HeadStart, LaunchedBrowser
from cdpilot.browser.session.node_attach import attach_node, endpoint_kind, inspector_of_process, launch_node
from cdpilot.browser.session.node_connection import NodeConnection
from cdpilot.browser.session.node_program import LaunchedProgram
from cdpilot.browser.session.shared_browser import SharedBrowser
from cdpilot.cdp import DevToolsEndpoint, WebSocketTransport, discover_endpoint
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError, NoPageError, StateError

if TYPE_CHECKING:  # made by the debugger, which imports them: not at start
    from cdpilot.browser.debugger.debugger_facts import Pause

Connection = BrowserConnection | NodeConnection

LIST_SUGGESTION = "See the open connections with {tool:chrome_list_connections}."
REQUEST_SETTLE_S = 2.0  # a page's request reaches a Node.js server and pauses it within this, or it is not told
REQUEST_SETTLE_CHECK_S = 0.02


@dataclass(frozen=True)
class ConnectOptions:
    connection_id: str | None
    host: str = "127.0.0.1"
    port: int = 9222
    ws_url: str | None = None
    pid: int | None = None  # a Node.js process to open the inspector of (SIGUSR1)
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_ms: int = 5000


class ConnectionManager:
    """Owns every browser connection of the server and the active-connection pointer."""

    def __init__(
        self,
        *,
        allow_remote: bool = False,
        allow_file_urls: bool = False,
        env: Mapping[str, str] | None = None,
        origins: OriginPolicy | None = None,
        output_dir: Path | None = None,
        shared: SharedBrowser | None = None,
        max_tabs: int | None = None,
        head_start: HeadStart | None = None,
    ) -> None:
        """`allow_file_urls`: may a launch's first page be a file: URL (as for navigate).
        `origins`: the start-up origin lists, enforced in every browser launched or connected
        and checked for every URL handed to one (None: every origin allowed). `output_dir`:
        where downloads of launched browsers go (None: the default output directory).
        `shared`: the browser whose contexts launches become; `max_tabs`: the most tabs this
        manager's launched browsers and contexts may hold together (None: no limit).
        `head_start`: a browser started for the first launch before this manager existed."""
        self._allow_remote = allow_remote
        self._allow_file_urls = allow_file_urls
        self._output_dir = output_dir
        self._shared = shared
        self._max_tabs = max_tabs
        self.origins = OriginPolicy() if origins is None else origins
        self._env: Mapping[str, str] = os.environ if env is None else env
        self._connections: dict[str, Connection] = {}
        self._recent: list[str] = []  # least to most recently used
        self._launched: set[LaunchedBrowser] = set()
        self._head_start = head_start
        if head_start is not None:
            self._launched.add(head_start.process)  # ended with the rest, if never used
        self._programs: set[LaunchedProgram] = set()  # Node.js programs we run, ended with us
        self._news: list[str] = []  # what the next answer tells first: a program ended, a browser died
        self._closing: set[asyncio.Future[None]] = set()  # ended programs and dead browsers being let go of
        self._lock = asyncio.Lock()

    @property
    def active_id(self) -> str | None:
        return self._recent[-1] if self._recent else None

    @property
    def launched_count(self) -> int:
        """How many browser processes this manager started and has not yet seen end."""
        return len(self._launched)

    def own_process_reasons(self, options: LaunchOptions) -> tuple[str, ...]:
        """With a shared browser, the options that make a launch start a process of its own
        (empty: it becomes a context of the shared browser, or there is none to share)."""
        return () if self._shared is None else self._shared.misfit(options)

    async def check_tab_room(self) -> None:
        """A StateError when this manager's launched browsers and contexts hold `max_tabs`
        tabs already. Tabs of browsers it attached to are their owner's, and not counted."""
        if self._max_tabs is None:
            return
        open_tabs = 0
        for connection in list(self._connections.values()):
            if isinstance(connection, BrowserConnection) and connection.kind != "connected" and connection.alive:
                infos = (await connection.cdp.browser.send("Target.getTargets"))["targetInfos"]
                open_tabs += sum(1 for info in infos if info["type"] == "page" and connection.owns(info))
        if open_tabs >= self._max_tabs:
            raise StateError(
                f"This session has {open_tabs} tabs open, the most the server allows a session "
                f"({self._max_tabs}, --max-tabs-per-session).",
                suggestion="Close tabs it no longer needs with {tool:close_target}, "
                "or a browser with {tool:chrome_disconnect}.",
            )

    async def launch(self, options: LaunchOptions) -> ConnectionInfo:
        await self.check_tab_room()
        if self._shared is not None and not self._shared.misfit(options):
            return await self._open_context(options)
        start_url = self._start_url(options)
        async with self._lock:
            connection = await launch_browser(
                options,
                start_url,
                claim_id=lambda: self._claim_id(options.connection_id),
                env=self._env,
                origins=self.origins,
                output_dir=self._output_dir,
                launched=self._launched,
                spawned=await self._head_start_for(options, start_url),
            )
            return self._add(connection)

    async def end_head_start(self) -> None:
        """End the browser started ahead if no launch took it (its call failed before one)."""
        head, self._head_start = self._head_start, None
        if head is not None:
            self._launched.discard(head.process)
            await head.process.stop()

    async def _head_start_for(self, options: LaunchOptions, start_url: str) -> LaunchedBrowser | None:
        """The browser started ahead (`launcher.spawn_ahead`), if it is the one this launch asks
        for; one started for another launch is ended (there is only ever the first's)."""
        head, self._head_start = self._head_start, None
        if head is None:
            return None
        self._launched.discard(head.process)  # launch_browser adds it back if it is used
        if head.options == options and start_url == "about:blank" and head.process.process.poll() is None:
            return head.process
        await head.process.stop()
        return None

    def _start_url(self, options: LaunchOptions) -> str:
        """The page a launch opens first, checked as navigate checks a URL."""
        if not options.url:
            return "about:blank"
        return normalize_url(options.url, allow_file_urls=self._allow_file_urls, origins=self.origins)

    async def _open_context(self, options: LaunchOptions) -> ConnectionInfo:
        """A launch served by a context of the shared browser."""
        assert self._shared is not None
        start_url = self._start_url(options)
        async with self._lock:
            connection_id = await self._claim_id(options.connection_id)
            connection = await self._shared.open_context(connection_id, options, start_url, self._output_dir)
            return self._add(connection)

    async def connect(self, options: ConnectOptions) -> ConnectionInfo:
        """Attach to a browser or a Node.js inspector, told apart by the endpoint's own answers;
        or, by process id, to a Node.js process whose inspector this opens."""
        timeout_s = options.timeout_ms / 1000
        if options.pid is not None:
            ws_url = await inspector_of_process(options.pid, timeout_s=timeout_s)
            endpoint = DevToolsEndpoint("node", ws_url, "node.js", f"node[{options.pid}]")
        elif options.ws_url is not None:
            url = check_websocket_url(options.ws_url, allow_remote=self._allow_remote)
            endpoint = await endpoint_kind(url, timeout_s=timeout_s)
        else:
            check_host_and_port(options.host, options.port, allow_remote=self._allow_remote)
            endpoint = await discover_endpoint(options.host, options.port, timeout_s=timeout_s)
        async with self._lock:
            if endpoint.kind == "node":
                connection_id = await self._claim_id(options.connection_id, "node")
                node = await attach_node(connection_id, endpoint, pid=options.pid, timeout_s=timeout_s)
                return self._add_node(node)
            connection_id = await self._claim_id(options.connection_id)
            transport = await WebSocketTransport.open(endpoint.ws_url, headers=options.headers, timeout_s=timeout_s)
            connection = await open_connection(
                connection_id, "connected", transport, None, timeout_s, self.origins, self._output_dir
            )
            return self._add(connection)

    async def run_node(self, options: NodeProgramOptions) -> NodeConnection:
        """Start a program under the Node.js inspector (see `node_program`), attached to its
        first Node.js process, the new active connection."""
        async with self._lock:
            connection_id = await self._claim_id(options.connection_id, "node")
            node = await launch_node(connection_id, options, env=self._env, programs=self._programs)
            self._add_node(node)
            return node

    def info(self, connection_id: str) -> ConnectionInfo:
        return self._info(self._lookup(connection_id))

    def ended_news(self) -> list[str]:
        """How the Node.js programs that ended since the last answer ended, and which of their
        paused processes ended, once each: what the next answer of any tool tells first."""
        lines, self._news = self._news, []
        for connection in self._connections.values():
            if isinstance(connection, NodeConnection):
                lines += connection.take_news()
        return lines

    def request_marks(self) -> dict[str, int]:
        """Where each browser's request log stands before a call, so that `settle_requests` knows
        which requests the call made; nothing to mark while no Node.js program is debugged."""
        if not self._debugged_programs():
            return {}
        return {
            connection.id: connection.features.network.mark()
            for connection in self._connections.values()
            if isinstance(connection, BrowserConnection) and connection.alive
        }

    async def settle_requests(self, marks: Mapping[str, int], timeout_s: float = REQUEST_SETTLE_S) -> None:
        """After a call, while a request it made from a page still awaits its answer and a Node.js
        program of this session has its debugger on: wait (at most `timeout_s`) until the program
        pauses or no such request is left. A click whose request hits a breakpoint in the server
        then says so itself, however late the request reaches the server. Calls that made no
        request, or with no Node.js program debugged, do not wait."""
        nodes = self._debugged_programs()
        if not nodes or not marks:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while loop.time() < deadline and self._awaiting_answers(marks):
            if any(node.unshown_pause() is not None for node in nodes):
                return
            await asyncio.sleep(REQUEST_SETTLE_CHECK_S)

    def _debugged_programs(self) -> list[NodeConnection]:
        """The Node.js programs running with their debugger on: the ones a page's request may pause."""
        return [
            connection
            for connection in self._connections.values()
            if isinstance(connection, NodeConnection)
            and connection.alive
            and any(thread.debugger.enabled for thread in connection.threads)
        ]

    def _awaiting_answers(self, marks: Mapping[str, int]) -> bool:
        """Whether a page's request made since `marks` still has no response and has not failed."""
        return any(
            isinstance(connection, BrowserConnection)
            and connection.alive
            and connection.features.network.awaiting_answers(mark)
            for connection, mark in ((self._connections.get(name), mark) for name, mark in marks.items())
        )

    async def pause_news(self) -> list[tuple[str, str, Pause]]:
        """The Node.js pauses no answer has shown yet, once each: (connection id, which thread,
        the pause with its places mapped to the original sources)."""
        found = []
        for connection in list(self._connections.values()):
            if not isinstance(connection, NodeConnection):
                continue
            news = connection.unshown_pause()
            if news is not None:
                thread, pause = news
                connection.pause_shown(pause, thread)
                with contextlib.suppress(BrowserConnectionError, CdpCommandError, CdpTimeoutError):
                    pause = await thread.debugger.names.annotate(pause)
                found.append((connection.id, f"Node.js {thread.label}", pause))
        return found

    def list(self) -> list[ConnectionInfo]:
        return [self._info(connection) for connection in self._connections.values()]

    def switch(self, connection_id: str) -> ConnectionInfo:
        connection = self._lookup(connection_id)
        if isinstance(connection, NodeConnection) and connection.ended is not None:
            raise BrowserConnectionError(connection.ended, suggestion=LIST_SUGGESTION)
        self._recent.remove(connection_id)
        self._recent.append(connection_id)
        return self._info(connection)

    async def disconnect(self, connection_id: str) -> ConnectionInfo:
        async with self._lock:
            info = self._info(self._lookup(connection_id))
            await self._remove(connection_id)
            return info

    def get(self, connection_id: str | None) -> BrowserConnection:
        """The browser connection to act on (see `target`); a Node.js connection has no page,
        and a call that needs one is told so at once, with the tools that work there."""
        found = self.target(connection_id)
        if isinstance(found, NodeConnection):
            raise NoPageError(found.id)
        return found

    def target(self, connection_id: str | None) -> Connection:
        """The connection to act on: `connection_id`, or the active one when None.

        A browser connection is dropped as its browser dies (`_browser_lost`); a call under
        way then fails with a CONNECTION error. A Node.js program that ended is dropped as it
        ends: asked for by its id, the answer says how it ended."""
        if connection_id is None:
            if self.active_id is None:
                raise BrowserConnectionError("No browser is connected.")
            connection_id = self.active_id
        return self._lookup(connection_id)

    async def aclose(self) -> None:
        """Close every connection (launched browsers end, temp profiles go); idempotent."""
        async with self._lock:
            for connection_id in list(self._connections):
                await self._remove(connection_id)

    def kill_all_now(self) -> None:
        """Synchronous last resort for atexit and signal paths: SIGKILL every browser we
        launched (by the process group of the pid we started) and remove our temp profiles.
        The bookkeeping is left for `aclose`, which may or may not get to run."""
        for process in list(self._launched):
            process.kill_now()
        for program in list(self._programs):
            program.kill_now()

    async def _claim_id(self, requested: str | None, prefix: str = "browser") -> str:
        """`requested`, after closing the connection that holds it; or the first free default id
        (also for an empty one: "" names nothing, as everywhere a connection id is taken)."""
        if not requested:
            return next(
                f"{prefix}-{n}"
                for n in range(1, len(self._connections) + 2)
                if f"{prefix}-{n}" not in self._connections
            )
        if requested in self._connections:
            await self._remove(requested)
        return requested

    def _add(self, connection: Connection) -> ConnectionInfo:
        self._connections[connection.id] = connection
        self._recent.append(connection.id)
        if isinstance(connection, BrowserConnection):
            connection.cdp.on_lost(functools.partial(self._browser_lost, connection))
        return self._info(connection)

    def _browser_lost(self, connection: BrowserConnection) -> None:
        """Its browser died (or, attached, closed its end): the connection is dropped as it
        happens, so no dead connection stays active, counts as connected or is listed, and the
        next page tool finds no browser and starts one; the next answer tells what happened."""
        if self._connections.get(connection.id) is not connection:
            return
        del self._connections[connection.id]
        if connection.id in self._recent:
            self._recent.remove(connection.id)
        info = self._info(connection)
        what = {"context": "the shared browser", "launched": "its browser"}.get(info.kind)
        gone = f"{what} (pid {info.pid}) died" if what else "the browser it attached to closed the connection"
        then = f"'{self.active_id}' is active now" if self.active_id else "no browser is connected now"
        self._news.append(f"Connection '{connection.id}' was dropped: {gone}; {then}.")
        self._let_go_later(self._forget_browser(connection))

    async def _forget_browser(self, connection: BrowserConnection) -> None:
        await connection.close()
        if connection.process is not None:
            self._launched.discard(connection.process)

    def _let_go_later(self, closing: Coroutine[Any, Any, None]) -> None:
        future = asyncio.ensure_future(closing)
        self._closing.add(future)
        future.add_done_callback(self._closing.discard)

    def _add_node(self, node: NodeConnection) -> ConnectionInfo:
        node.on_end(self._node_ended)
        return self._add(node)

    def _node_ended(self, node: NodeConnection) -> None:
        """A Node.js program ended by itself: its connection stops being active at once (no
        dead connection stays active) but stays listed, its console readable by its id, until
        it is disconnected; the next answer tells how it ended."""
        if self._connections.get(node.id) is not node:
            return
        if node.id in self._recent:
            self._recent.remove(node.id)
        self._news.append(node.ended or f"The Node.js program of '{node.id}' ended.")
        self._let_go_later(self._forget_program(node))

    async def _forget_program(self, node: NodeConnection) -> None:
        await node.close()
        if node.program is not None:
            self._programs.discard(node.program)

    async def _remove(self, connection_id: str) -> None:
        connection = self._connections.pop(connection_id)
        if connection_id in self._recent:  # an ended Node.js program's is listed, not active
            self._recent.remove(connection_id)
        await connection.close()
        if isinstance(connection, NodeConnection):
            if connection.program is not None:
                self._programs.discard(connection.program)
        elif connection.process is not None:
            self._launched.discard(connection.process)

    def _lookup(self, connection_id: str) -> Connection:
        connection = self._connections.get(connection_id)
        if connection is None:
            known = ", ".join(self._connections) or "none"
            raise BrowserConnectionError(
                f"No connection named {connection_id!r}. Known connections: {known}.", suggestion=LIST_SUGGESTION
            )
        return connection

    def _info(self, connection: Connection) -> ConnectionInfo:
        if isinstance(connection, NodeConnection):
            program = connection.program
            return ConnectionInfo(
                id=connection.id,
                kind=connection.kind,
                browser=connection.product,
                protocol_version=connection.protocol_version,
                endpoint=connection.endpoint,
                pid=program.pid if program is not None else (connection.threads[0].pid if connection.threads else None),
                user_data_dir=None,
                active=connection.id == self.active_id,
                target_url=connection.target_url,
                target_title=connection.ended,
                alive=connection.alive,
                runtime="node",
                command=" ".join(program.command) if program is not None else None,
                threads=tuple(
                    thread.label + (" [paused]" if thread.debugger.paused else "") for thread in connection.threads
                ),
            )
        process = connection.process
        shared_pid = connection.lease.pid if connection.lease is not None else None
        return ConnectionInfo(
            id=connection.id,
            kind=connection.kind,
            browser=connection.product,
            protocol_version=connection.protocol_version,
            endpoint=connection.endpoint,
            pid=process.pid if process else shared_pid,
            user_data_dir=process.plan.profile_dir if process else None,
            active=connection.id == self.active_id,
            target_url=connection.target_url,
            target_title=connection.target_title,
            alive=connection.alive,
        )
