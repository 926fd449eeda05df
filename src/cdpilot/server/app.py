"""The server's lifetime once its event loop runs: the handshake first, the call layer behind
it, the SDK last.

Why in this order: importing the MCP SDK (pydantic's models of the protocol beneath it) costs
more than a browser's start, and the handler layer nearly as much, while the client's first
requests (initialize, tools/list) need neither, and its first calls need no SDK. So the
handshake is answered at once from answers serialised at build time: before the loop runs
(`cdpilot.server.startup`, which also starts the thread that imports the call layer: the
registry, the handlers, the browser layer), then by `cdpilot.server.handshake` from where
that stopped; calls are served by the fast path (`cdpilot.server.fast_path`) as soon as the
call layer is in. The SDK is imported after it, once no call is under way (two imports at
once would share one interpreter lock and slow the first answer), or at once when a message
waits for it; then the SDK's side takes the session over (`cdpilot.server.sdk_server`)
without losing or reordering a message. A page tool called before the call layer is in
starts its browser as it arrives (`head_start.browser_ahead`), so Chromium starts up while the
rest loads. This module, like everything the handshake uses, imports nothing but the
standard library and the generated manifest, so nothing heavy is loaded before `serve` runs.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import importlib
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Collection, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from cdpilot_generated.manifests import GROUPS, TOOL_GROUPS, Mode

from cdpilot.context import Settings, ToolContext
from cdpilot.server.fast_path import FastCalls, Tools
from cdpilot.server.first_lines import EarlyAnswers, FirstLines
from cdpilot.server.handshake import Handshake
from cdpilot.server.head_start import FirstCall, browser_ahead, launcher_env
from cdpilot.server.wire import claimed_stdio

if TYPE_CHECKING:
    from cdpilot.browser.session.launcher import HeadStart
    from cdpilot.browser.session.manager import ConnectionManager
    from cdpilot.browser.session.shared_browser import SharedBrowser
    from cdpilot.server.call_results import CallResult
    from cdpilot.server.registry import Registry

CLEANUP_SECONDS = 10.0
SDK_SIDE = "cdpilot.server.sdk_server"
# What `Backend` loads: the call layer, imported ahead in a thread, with the handler groups
# of the first call (`head_start.FirstCall`); the other groups load once that call is answered.
CALL_LAYER = ("cdpilot.server.registry", "cdpilot.browser.session.manager")


class Backend:
    """The registry, the handlers and the browser layer behind tools/call, loaded once.

    Why not at start: see the module's docstring; the modules are imported in a thread
    (`startup.load_server`) while the handshake is answered, and `warm_up` runs once they are
    in. Handlers load by group (`Registry.load_groups`): the first call's groups with the call
    layer, the rest once it is answered (`load_rest`). A group whose handlers do not match the
    catalog stops the server with status 1 before it serves a call (mypy and
    `cdpilot --check-handlers` catch it sooner).
    """

    def __init__(
        self,
        mode: Mode,
        settings: Settings,
        stop: Callable[[], object],
        head_start: HeadStart | None = None,
        first_call: FirstCall | None = None,
    ) -> None:
        """`head_start`: the browser the first call's launch takes, started before the loop ran;
        `first_call`: the tool of the first call, shared with the thread that loads the call layer."""
        self._mode = mode
        self._first_call = first_call or FirstCall(mode)
        self._settings = settings
        self._stop = stop
        self._registry: Registry | None = None
        self._connections: ConnectionManager | None = None
        self._head_start = head_start
        self._loading: asyncio.Future[None] | None = None
        self.problems: list[str] = []

    def start_loading(self, loader: threading.Thread) -> None:
        """Wait for `loader` to import the call layer; build the registry in the loop once it is in."""
        self._loading = asyncio.ensure_future(asyncio.to_thread(loader.join))
        self._loading.add_done_callback(lambda _: self.warm_up())

    async def loaded(self) -> None:
        """Return once the call layer is imported (at once when nothing is loading it)."""
        if self._loading is not None:
            await asyncio.shield(self._loading)  # a cancelled call must not cancel the import

    def start_browser_ahead(self, tool: str) -> None:
        """The first tools/call arrived before the handlers are loaded: start the browser it
        may launch now (`head_start.browser_ahead`), and have its handlers loaded first."""
        self._first_call.tool = tool
        if self._registry is None and self._head_start is None:
            self._head_start = browser_ahead(self._mode, self._settings, tool)

    def load(self) -> Registry | None:
        """The registry, loaded now if it is not yet; None if the handler layer is broken."""
        if self._registry is None and not self.problems:
            try:
                self._registry = self._load()
            except Exception as exc:  # a module of the call layer that fails to import
                traceback.print_exc(file=sys.stderr)
                self.problems = [f"the handler layer failed to load ({type(exc).__name__}: {exc})"]
                print(f"cdpilot: {self.problems[0]}", file=sys.stderr)
        return self._registry

    def _load(self) -> Registry | None:
        from cdpilot.server.registry import Registry

        connections = new_connections(self._settings, head_start=self._head_start)
        atexit.register(connections.kill_all_now)
        self._connections = connections
        registry = Registry(ToolContext(connections, self._mode, self._settings))
        return registry if self._load_groups(registry, self._first_call.groups()) else None

    def _load_groups(self, registry: Registry, groups: Collection[str]) -> bool:
        """Load and check `groups`' handlers; False once a group is broken: its problems are
        reported (to stderr, and in `problems`), and the server must stop."""
        try:
            self.problems = registry.load_groups(groups)
        except Exception as exc:  # a handler module that fails to import: as broken as a bad table
            traceback.print_exc(file=sys.stderr)
            self.problems = [f"the handler layer failed to load ({type(exc).__name__}: {exc})"]
            print(f"cdpilot: {self.problems[0]}", file=sys.stderr)
            return False
        if self.problems:
            print("cdpilot: the handler table does not match the tool catalog:", file=sys.stderr)
            for problem in self.problems:
                print(f"  {problem}", file=sys.stderr)
        return not self.problems

    async def load_rest(self, after: asyncio.Future[None], fast: FastCalls) -> None:
        """Once `after` is done (the SDK's import) and no call is under way, import the handler
        groups no call has needed yet (in a thread, as the call layer was) and check them; a
        broken one stops the server."""
        await asyncio.wait([after])
        await self.loaded()
        await fast.idle()
        registry = self.load()
        if registry is None:
            return
        await asyncio.to_thread(import_handler_groups, GROUPS)
        if not self._load_groups(registry, GROUPS):
            self._registry = None
            self._stop()

    def warm_up(self) -> None:
        """Load now, while the client has nothing to wait for; stop serving if the table is broken."""
        if self.load() is None:
            self._stop()

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        await self.loaded()
        registry = self.load()
        if registry is not None and not self._load_groups(registry, TOOL_GROUPS[self._mode].get(name, ())):
            registry = self._registry = None
        if registry is None:
            self._stop()
            # Like a failed start-up, the call is not served: shutting down cancels this wait (and
            # the SDK, for a call on its path, answers it with its own "Connection closed" error).
            await asyncio.get_running_loop().create_future()
            raise AssertionError("unreachable: the server is stopping")
        try:
            return await registry.call(name, arguments)
        finally:
            if self._head_start is not None and self._connections is not None:
                self._head_start = None  # the first call has had its chance to take it
                await self._connections.end_head_start()

    async def aclose(self) -> None:
        """Close every browser, within `CLEANUP_SECONDS`; kill whatever is left."""
        if self._connections is None:
            if self._head_start is not None:  # the handlers never loaded: nothing took it
                self._head_start.process.kill_now()
            return
        import anyio  # loaded with the handler layer, which made the connections

        with anyio.CancelScope(shield=True), anyio.move_on_after(CLEANUP_SECONDS):
            await self._connections.aclose()
        self._connections.kill_all_now()


def new_connections(
    settings: Settings,
    shared: SharedBrowser | None = None,
    max_tabs: int | None = None,
    head_start: HeadStart | None = None,
) -> ConnectionManager:
    """A connection manager for one client: its own browsers (or contexts of `shared`),
    targets and debugger state, with at most `max_tabs` tabs (None: no limit); `head_start`:
    the browser its first launch takes, started before it existed."""
    from cdpilot.browser.session.manager import ConnectionManager

    return ConnectionManager(
        allow_remote=settings.allow_remote,
        allow_file_urls=settings.allow_file_urls,
        env=launcher_env(),
        origins=settings.origins,
        output_dir=settings.output_dir,
        shared=shared,
        max_tabs=max_tabs,
        head_start=head_start,
    )


class HttpBrowsers:
    """The browsers behind the HTTP sessions (`agent_sessions.SessionBrowsers`): one
    `SharedBrowser` whose contexts the sessions' launches become, or, given `per_session`, a
    browser process of its own for every launch. Made here, at start-up, so that the session
    table never knows a browser."""

    def __init__(self, settings: Settings, *, per_session: bool, max_tabs: int) -> None:
        from cdpilot.browser.session.shared_browser import SharedBrowser

        self._max_tabs = max_tabs
        self._shared = (
            None if per_session else SharedBrowser(settings.launch, env=launcher_env(), origins=settings.origins)
        )

    def context_for(self, mode: Mode, settings: Settings) -> ToolContext:
        """A new session's `ToolContext`: its own connection manager, with `settings`."""
        return ToolContext(new_connections(settings, self._shared, self._max_tabs), mode, settings)

    @property
    def process_count(self) -> int:
        """The shared browser's processes (0 or 1)."""
        return 0 if self._shared is None else self._shared.process_count

    @property
    def context_count(self) -> int:
        return 0 if self._shared is None else self._shared.context_count

    async def aclose(self) -> None:
        if self._shared is not None:
            await self._shared.aclose()

    def kill_now(self) -> None:
        if self._shared is not None:
            self._shared.kill_now()


def load_call_layer(first_call: FirstCall) -> None:
    """Import the call layer and the handler groups of the first call (all of them if none has
    come by then): run in a thread while the handshake is answered. A module that fails to
    import is left for `Backend.load`, which imports it again and reports why.

    The cyclic collector is off meanwhile: an import makes many objects and no garbage, and
    the collections it would trigger walk every object made so far (5-15% of the import's
    time, measured); what was imported is then frozen out of later collections."""
    gc.disable()
    try:
        with suppress(Exception):
            for module in CALL_LAYER:
                importlib.import_module(module)
            import_handler_groups(first_call.groups())
    finally:
        gc.freeze()
        gc.enable()


def import_handler_groups(groups: Collection[str]) -> None:
    """Import the handler modules of `groups`; one that fails is left for `Registry.load_groups`
    to import again and report."""
    for group in groups:
        with suppress(Exception):
            importlib.import_module(f"cdpilot.handlers.{group}")


async def load_sdk(wanted: asyncio.Event, backend: Backend, fast: FastCalls) -> None:
    """Import the SDK's side of the server, in a thread, once `wanted` is set (a message waits
    for it) or once the call layer is in and no call is under way; it must load."""

    async def calm() -> None:
        await backend.loaded()
        await fast.idle()

    waits = [asyncio.ensure_future(wanted.wait()), asyncio.ensure_future(calm())]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    await asyncio.to_thread(import_sdk_side)


def import_sdk_side() -> None:
    """The SDK's side of the server, imported (run in a thread by `load_sdk`)."""
    importlib.import_module(SDK_SIDE)


async def serve(
    mode: Mode,
    settings: Settings,
    answers: EarlyAnswers,
    first: FirstLines,
    loader: threading.Thread,
    head_start: HeadStart | None,
    first_call: FirstCall,
) -> int:
    """Serve MCP on stdio until stdin closes or SIGTERM/SIGINT/SIGHUP; then close every browser.

    Goes on from `cdpilot.server.startup`: the first lines it read and answered (`first`,
    `answers`), the thread importing the call layer (`loader`) with the first call's handlers
    (`first_call`), and the browser started for that call (`head_start`). Returns the exit
    status: 1 when the handler table turned out not to match the catalog."""
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    assert main is not None
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, main.cancel)
    backend = Backend(mode, settings, stop=main.cancel, head_start=head_start, first_call=first_call)
    rest: asyncio.Future[None] | None = None
    try:
        async with claimed_stdio(first.unread) as wire:
            backend.start_loading(loader)
            fast = FastCalls(Tools(backend.call, answers.list_json, mode), wire.writer.write)
            sdk_wanted = asyncio.Event()
            loaded = asyncio.ensure_future(load_sdk(sdk_wanted, backend, fast))
            rest = asyncio.ensure_future(backend.load_rest(loaded, fast))
            handshake = Handshake(
                answers,
                wire.writer.write,
                fast,
                need_sdk=sdk_wanted.set,
                # the first request not answered before the loop ran was a call: told already
                on_first_call=backend.start_browser_ahead if first.first_tool is None else None,
            )
            handover = await handshake.serve(wire.lines, loaded)
            loaded.result()  # raises if the SDK's side failed to import: nothing could serve the session
            from cdpilot.server import sdk_server  # imported by now, in the thread

            await backend.loaded()
            await sdk_server.serve(backend.call, answers.list_json, wire, handover, fast, settings.output_dir)
    except asyncio.CancelledError:
        main.uncancel()  # a signal or a broken handler table: shut down in order, nothing left to cancel cleanup
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.remove_signal_handler(sig)
        if rest is not None:
            rest.cancel()
        await backend.aclose()
    return 1 if backend.problems else 0
