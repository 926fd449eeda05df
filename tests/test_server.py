"""`Backend` alone (the handler layer loads once, by group, and a broken group stops the server),
what the server imports before its handshake, and the SDK's server with progress notifications."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.server.lowlevel import Server
from mcp.server.session import ServerSession

import cdpilot.handlers.navigation
from cdpilot.context import Settings
from cdpilot.progress import report
from cdpilot.server import app, startup
from cdpilot.server.app import Backend
from cdpilot.server.call_results import CallResult, TextBlock
from cdpilot.server.fast_path import CallTool
from cdpilot.server.file_links import SessionFiles
from cdpilot.server.first_lines import EarlyAnswers, FirstLines
from cdpilot.server.head_start import FirstCall
from cdpilot.server.registry import Registry
from cdpilot.server.sdk_server import build_server
from tests.support.sdk_wire import exchange

TOOLS_JSON = '{"tools":[{"name":"navigate","inputSchema":{"type":"object"}}]}'


class Stops:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


def test_the_registry_loads_once_and_nothing_stops() -> None:
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    first = backend.load()
    assert isinstance(first, Registry)
    backend.warm_up()
    assert backend.load() is first
    assert backend.problems == []
    assert stops.count == 0


def test_a_broken_handler_table_is_reported_and_stops_the_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delattr(cdpilot.handlers.navigation, "navigate")
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    backend.warm_up()  # no call yet: every group is loaded and checked
    assert backend.problems == ["navigate: no handler"]
    assert stops.count == 1
    assert capsys.readouterr().err.splitlines() == [
        "cdpilot: the handler table does not match the tool catalog:",
        "  navigate: no handler",
    ]
    assert backend.load() is None  # checked once: the answer stands


@pytest.mark.anyio
async def test_a_call_on_a_broken_table_gets_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(cdpilot.handlers.navigation, "navigate")
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    call = asyncio.ensure_future(backend.call("chrome_list_connections", {}))
    done, _ = await asyncio.wait({call}, timeout=0.2)
    assert not done  # stopping: like a failed start-up, no answer; shutdown cancels the call
    assert stops.count == 1
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call


class Idle:
    """The fast path with no call under way."""

    async def idle(self) -> None:
        return None


def backend_with_navigate_missing(monkeypatch: pytest.MonkeyPatch, stops: Stops) -> Backend:
    """A backend whose first call lists the connections, and whose navigation group is broken."""
    monkeypatch.delattr(cdpilot.handlers.navigation, "navigate")
    first_call = FirstCall("legacy")
    first_call.tool = "chrome_list_connections"
    return Backend("legacy", Settings(), stop=stops, first_call=first_call)


@pytest.mark.anyio
async def test_a_broken_group_stops_the_server_once_it_loads_not_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first call loads its own groups only: it is served though another group is broken,
    which stops the server when the rest is loaded after it."""
    stops = Stops()
    backend = backend_with_navigate_missing(monkeypatch, stops)
    try:
        result = await backend.call("chrome_list_connections", {})
        assert not result.is_error and stops.count == 0
        sdk_loaded: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        sdk_loaded.set_result(None)
        await backend.load_rest(sdk_loaded, Idle())  # type: ignore[arg-type]
        assert backend.problems == ["navigate: no handler"]
        assert stops.count == 1
    finally:
        await backend.aclose()


@pytest.mark.anyio
async def test_a_call_to_a_broken_group_gets_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    stops = Stops()
    backend = backend_with_navigate_missing(monkeypatch, stops)
    try:
        await backend.call("chrome_list_connections", {})
        call = asyncio.ensure_future(backend.call("reload", {}))  # the navigation group's first call
        done, _ = await asyncio.wait({call}, timeout=0.2)
        assert not done and stops.count == 1
        assert backend.problems == ["navigate: no handler"]
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
    finally:
        await backend.aclose()


def test_the_server_module_imports_nothing_heavy() -> None:
    """What makes the handshake quick: neither the server module nor the command line imports the
    SDK, pydantic, anyio, websockets, the handlers, the registry or the browser's connections; a
    thread loads them while the handshake is answered."""
    heavy = (
        "mcp",
        "mcp_types",
        "pydantic",
        "pydantic_core",
        "anyio",
        "websockets",
        "cdpilot.handlers",
        "cdpilot.server.registry",
        "cdpilot.server.sdk_server",
        "cdpilot.server.stdio",
        "cdpilot.browser.session.manager",
        "cdpilot.cdp",
        "cdpilot_generated.models",
        "cdpilot_generated.catalog",
    )
    assert imported_by("cdpilot.cli, cdpilot.server.app", heavy) == "[]"


class StartOrder:
    """`startup.serve_stdio` with its first lines, spawn, loader and loop replaced by records
    of when each ran; `quiet`: the client falls quiet before its first call comes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, quiet: bool) -> None:
        self.events: list[str] = []
        loaded = threading.Event()

        def load_server(first_call: FirstCall) -> None:
            self.events.append("loader")
            loaded.set()

        def read_first_lines(read_fd: int, write_fd: int, answers: EarlyAnswers, on_quiet: Any) -> FirstLines:
            if quiet:
                on_quiet()
                assert loaded.wait(5)
            return FirstLines(b"", "navigate")

        async def serve(*args: Any) -> int:
            args[4].join()  # the loader thread
            return 0

        monkeypatch.setattr(startup, "load_server", load_server)
        monkeypatch.setattr(startup, "read_first_lines", read_first_lines)
        monkeypatch.setattr(startup, "browser_ahead", lambda mode, settings, tool: self.events.append("spawn"))
        monkeypatch.setattr(app, "serve", serve)
        monkeypatch.setattr(signal, "signal", lambda *args: None)  # this process's own handlers stay
        monkeypatch.setattr(sys, "setswitchinterval", lambda interval: None)  # and so does its switch interval

    def run(self) -> list[str]:
        assert startup.serve_stdio("legacy", Settings(), "started") == 0
        return self.events


def test_a_prompt_first_call_spawns_its_browser_before_the_imports_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader's imports would take the interpreter lock from the spawn (15-20 ms later, measured)."""
    assert StartOrder(monkeypatch, quiet=False).run() == ["spawn", "loader"]


def test_a_quiet_client_has_the_imports_started_while_it_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once, though the first lines end after it: starting the thread twice would raise."""
    assert StartOrder(monkeypatch, quiet=True).run() == ["loader", "spawn"]


def test_the_head_start_spawns_without_the_cdp_client_or_asyncio() -> None:
    """A page tool that arrives while the call layer loads spawns its browser from the launcher
    alone: were the CDP client (and websockets) imported with it, the spawn would wait for that
    import, sharing the interpreter lock with the call layer's (150 ms later, measured); asyncio
    alone costs it about 18 ms."""
    found = imported_by("cdpilot.cli, cdpilot.browser.session.launcher", ("cdpilot.cdp", "websockets", "asyncio"))
    assert found == "[]"


def test_the_first_lines_are_answered_without_logging_or_socket() -> None:
    """What the command line imports before the first answer: `logging` (configured by the
    loader thread) and `socket` (read only for an IPv4 origin) would cost it about 6 ms."""
    assert imported_by("cdpilot.cli, cdpilot.server.startup", ("logging", "socket")) == "[]"


def test_a_first_navigate_loads_the_handlers_of_its_own_group_only() -> None:
    """The thirteen handler modules cost about 40 ms to import: the thread that loads the call
    layer for a first navigate imports the navigation group's (and what they share) alone."""
    found = loaded_for_a_first_navigate(("cdpilot.handlers",))
    assert found == "['cdpilot.handlers', 'cdpilot.handlers.common', 'cdpilot.handlers.navigation']"


def test_a_first_navigate_loads_no_debugger_machinery_and_no_other_tools_facts() -> None:
    """A page's debugger is made on first use, and the facts of its pauses come with it:
    breakpoints, source maps, sources, stepping, pauses and remote values (about 25 ms of a
    first navigate's imports) wait for a call that needs them, as do the facts of the capture
    and storage tools (frozen dataclasses cost a third of a millisecond each to define)."""
    found = loaded_for_a_first_navigate(
        (
            "cdpilot.browser.debugger",
            "cdpilot.browser.sourcemaps",
            "cdpilot.browser.value_facts",
            "cdpilot.browser.page.capture_facts",
            "cdpilot.browser.page.storage_facts",
            "urllib.request",
        )
    )
    assert found == "[]"


def test_the_call_layer_imports_no_sdk() -> None:
    """What lets the first calls be served before the SDK is loaded: the registry, the handlers,
    the browser layer and the fast path import neither the SDK nor its protocol models."""
    call_layer = "cdpilot.server.app, cdpilot.server.fast_path, cdpilot.server.registry, cdpilot.handlers.table, "
    assert imported_by(call_layer + "cdpilot.browser.session.manager", ("mcp",)) == "[]"


def test_a_call_imports_the_argument_models_of_its_own_tool_group_only() -> None:
    """The models of all the groups cost more to import than a page takes to load: loading the
    call layer imports none, and validating a navigate imports the navigation group's alone."""
    call_layer = "cdpilot.server.registry, cdpilot.handlers.table, cdpilot.browser.session.manager"
    assert imported_by(call_layer, ("cdpilot_generated.models.",)) == "[]"
    validate = "cdpilot_generated.catalog as c; c.TOOLS['navigate'].model.model_validate({'url': 'x'})"
    assert imported_by(validate, ("cdpilot_generated.models.",)) == "['cdpilot_generated.models.navigation']"


def test_the_first_lines_are_read_before_asyncio_is_imported() -> None:
    """What lets a client's first call arrive sooner: the CLI and the stdio start-up answer the
    initialize before the event loop's modules load (50 ms, measured), in a thread beside them."""
    assert imported_by("cdpilot.cli, cdpilot.server.startup", ("asyncio",)) == "[]"


def test_the_call_layer_loads_websockets_only_with_a_websocket() -> None:
    """A launched browser speaks over a pipe, so the call layer leaves websockets (and the
    importlib.metadata it pulls in, ~45 ms measured) to the first websocket it opens."""
    call_layer = "cdpilot.server.app, cdpilot.server.registry, cdpilot.handlers.table, cdpilot.browser.session.manager"
    assert imported_by(call_layer, ("websockets",)) == "[]"


def loaded_for_a_first_navigate(prefixes: tuple[str, ...]) -> str:
    """The modules starting with one of `prefixes` that the thread loading the call layer for a
    first navigate imports, in a fresh interpreter."""
    probe = (
        "import sys; from cdpilot.server import app; from cdpilot.server.head_start import FirstCall; "
        "first = FirstCall('legacy'); first.tool = 'navigate'; app.load_call_layer(first); "
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()


def imported_by(modules: str, prefixes: tuple[str, ...]) -> str:
    """The modules starting with one of `prefixes` that importing `modules` loads, in a fresh interpreter."""
    probe = f"import sys, {modules}; print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()


def test_a_handler_module_that_fails_to_import_stops_the_server_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "cdpilot.handlers.navigation")
    monkeypatch.setitem(sys.modules, "cdpilot.answers.page_answers", None)  # its import now raises
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    backend.warm_up()
    assert stops.count == 1
    assert len(backend.problems) == 1
    assert backend.problems[0].startswith("the handler layer failed to load (ModuleNotFoundError: ")
    err = capsys.readouterr().err
    assert "Traceback" in err and f"cdpilot: {backend.problems[0]}" in err


class Reporting:
    """A stub tool that reports progress twice, then answers."""

    def __init__(self) -> None:
        self.calls = 0

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        self.calls += 1
        await report("Launching Chromium")
        await report("Loading http://127.0.0.1/")
        return CallResult([TextBlock(f"{name} done")])


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def sdk_server_for(call: CallTool) -> Server[Any]:
    """The SDK's server around one stub call (its resources: a session that wrote nothing)."""
    return build_server(lambda _ctx: call, TOOLS_JSON, lambda _ctx: SessionFiles(None))


def call_request(request_id: int, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "navigate", **params}}


@pytest.mark.anyio
async def test_a_call_with_a_progress_token_sends_numbered_progress_with_messages_before_its_answer() -> None:
    written = await exchange(
        sdk_server_for(Reporting().call),
        INITIALIZE,
        INITIALIZED,
        call_request(1, _meta={"progressToken": "t"}),
    )
    assert written[1:] == [
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": 1.0, "message": "Launching Chromium"},
        },
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": 2.0, "message": "Loading http://127.0.0.1/"},
        },
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"content": [{"type": "text", "text": "navigate done"}], "isError": False},
        },
    ]


@pytest.mark.anyio
async def test_a_call_without_a_token_sends_no_progress() -> None:
    reporting = Reporting()
    written = await exchange(sdk_server_for(reporting.call), INITIALIZE, INITIALIZED, call_request(1))
    assert [message.get("id") for message in written] == [0, 1] and reporting.calls == 1


@pytest.mark.anyio
async def test_the_official_client_gets_its_progress_callback_called() -> None:
    received: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, total, message))

    async with Client(sdk_server_for(Reporting().call), mode="legacy") as client:
        result = await client.call_tool("navigate", {}, progress_callback=on_progress)
    assert not result.is_error
    assert received == [(1, None, "Launching Chromium"), (2, None, "Loading http://127.0.0.1/")]


@pytest.mark.anyio
async def test_progress_that_cannot_be_sent_does_not_fail_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: ServerSession, *args: object, **kwargs: object) -> None:
        raise anyio.BrokenResourceError

    monkeypatch.setattr(ServerSession, "report_progress", broken)
    reporting = Reporting()
    written = await exchange(
        sdk_server_for(reporting.call),
        INITIALIZE,
        INITIALIZED,
        call_request(1, _meta={"progressToken": 7}),
    )
    assert written[1:] == [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"content": [{"type": "text", "text": "navigate done"}], "isError": False},
        }
    ]
    assert reporting.calls == 1
