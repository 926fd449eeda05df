"""MCP wiring: the lowlevel `Server`, our stdio transport, and the browser lifetime.

tools/list is answered from the manifest codegen serialised at build time; tools/call goes
straight to the registry, the single error boundary. The registry, with everything behind
it, is loaded by `Backend` only once it is needed.
"""

from __future__ import annotations

import asyncio
import atexit
import signal
import sys
import traceback
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from cdpilot_generated import manifests
from cdpilot_generated.manifests import Mode
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from cdpilot import __version__
from cdpilot.context import Settings, ToolContext
from cdpilot.server.fast_path import Tools
from cdpilot.server.stdio import stdio_transport

if TYPE_CHECKING:
    from cdpilot.browser.session.manager import ConnectionManager
    from cdpilot.server.registry import Registry

MANIFEST_JSON = {"smart": manifests.SMART_TOOLS_JSON, "legacy": manifests.LEGACY_TOOLS_JSON}
CLEANUP_SECONDS = 10.0


class Backend:
    """The registry, the handlers and the browser layer behind tools/call, loaded once, on first need.

    Why: initialize and tools/list need only the manifest, while loading what tools/call
    needs (the argument models, every handler module, the browser layer, and the check that
    the handler table matches the catalog) costs about 100 ms of imports. So the server
    answers the handshake first and loads the rest right after its first tools/list answer,
    while the client reads the tools; or for the first call, or when input ends, whichever
    comes first. A handler table that does not match the catalog stops the server with
    status 1 before any call is served (mypy and `cdpilot --check-handlers` catch it sooner).
    """

    def __init__(self, mode: Mode, settings: Settings, stop: Callable[[], object]) -> None:
        self._mode = mode
        self._settings = settings
        self._stop = stop
        self._registry: Registry | None = None
        self._connections: ConnectionManager | None = None
        self.problems: list[str] = []

    def load(self) -> Registry | None:
        """The registry, loaded now if it is not yet; None if the handler layer is broken."""
        if self._registry is None and not self.problems:
            try:
                self._registry = self._load()
            except Exception as exc:  # a handler module that fails to import: as broken as a bad table
                traceback.print_exc(file=sys.stderr)
                self.problems = [f"the handler layer failed to load ({type(exc).__name__}: {exc})"]
                print(f"cdpilot: {self.problems[0]}", file=sys.stderr)
        return self._registry

    def _load(self) -> Registry | None:
        from cdpilot.browser.session.manager import ConnectionManager
        from cdpilot.handlers import HANDLERS
        from cdpilot.server.registry import Registry, handler_problems

        self.problems = handler_problems(HANDLERS)
        if self.problems:
            print("cdpilot: the handler table does not match the tool catalog:", file=sys.stderr)
            for problem in self.problems:
                print(f"  {problem}", file=sys.stderr)
            return None
        self._connections = ConnectionManager(allow_remote=self._settings.allow_remote)
        atexit.register(self._connections.kill_all_now)
        return Registry(ToolContext(self._connections, self._mode, self._settings), HANDLERS)

    def warm_up(self) -> None:
        """Load now, while the client has nothing to wait for; stop serving if the table is broken."""
        if self.load() is None:
            self._stop()

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        registry = self.load()
        if registry is None:
            self._stop()
            # Like a failed start-up, the call is not served: shutting down cancels this wait (and
            # the SDK, for a call on its path, answers it with its own "Connection closed" error).
            await asyncio.get_running_loop().create_future()
            raise AssertionError("unreachable: the server is stopping")
        return await registry.call(name, arguments)

    async def aclose(self) -> None:
        """Close every browser, within `CLEANUP_SECONDS`; kill whatever is left."""
        if self._connections is None:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(CLEANUP_SECONDS):
            await self._connections.aclose()
        self._connections.kill_all_now()


def build_server(backend: Backend, mode: Mode) -> Server[Any]:
    listed: list[types.ListToolsResult] = []  # parsed on first use: the fast path serves the manifest as is

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if not listed:
            listed.append(types.ListToolsResult.model_validate_json(MANIFEST_JSON[mode]))
        return listed[0]

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return await backend.call(params.name, params.arguments)

    return Server(
        "cdpilot",
        version=__version__,
        instructions="Drive and debug Chrome/Chromium/Electron over CDP. Start by launching or connecting a browser.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve(mode: Mode, settings: Settings) -> int:
    """Serve MCP on stdio until stdin closes or SIGTERM/SIGINT/SIGHUP; then close every browser.

    Returns the exit status: 1 when the handler table turned out not to match the catalog."""
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    assert main is not None
    backend = Backend(mode, settings, stop=main.cancel)
    server = build_server(backend, mode)
    tools = Tools(call=backend.call, list_json=MANIFEST_JSON[mode], listed=backend.warm_up)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, main.cancel)
    try:
        async with stdio_transport(tools) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        backend.load()  # input ended: a session that made no call still checks the handler table
    except asyncio.CancelledError:
        main.uncancel()  # a signal or a broken handler table: shut down in order, nothing left to cancel cleanup
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.remove_signal_handler(sig)
        await backend.aclose()
    return 1 if backend.problems else 0
