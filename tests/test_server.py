"""`Backend` alone: the handler layer loads once, on first need, and a broken table stops the server."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import cdpilot.handlers
from cdpilot.context import Settings
from cdpilot.server.app import Backend
from cdpilot.server.registry import Registry


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
    broken = dict(cdpilot.handlers.HANDLERS)
    del broken["navigate"]
    monkeypatch.setattr(cdpilot.handlers, "HANDLERS", broken)
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    backend.warm_up()
    assert backend.problems == ["navigate: no handler"]
    assert stops.count == 1
    assert capsys.readouterr().err.splitlines() == [
        "cdpilot: the handler table does not match the tool catalog:",
        "  navigate: no handler",
    ]
    assert backend.load() is None  # checked once: the answer stands


@pytest.mark.anyio
async def test_a_call_on_a_broken_table_gets_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = dict(cdpilot.handlers.HANDLERS)
    del broken["navigate"]
    monkeypatch.setattr(cdpilot.handlers, "HANDLERS", broken)
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    call = asyncio.ensure_future(backend.call("chrome_list_connections", {}))
    done, _ = await asyncio.wait({call}, timeout=0.2)
    assert not done  # stopping: like a failed start-up, no answer; shutdown cancels the call
    assert stops.count == 1
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call


def test_the_handler_layer_is_not_imported_until_loaded() -> None:
    """What makes the handshake cheap: the server module imports no handler, registry or browser code."""
    probe = (
        "import sys, cdpilot.server.app; "
        "print(sorted(m for m in sys.modules if m.startswith(('cdpilot.handlers', 'cdpilot.server.registry', "
        "'cdpilot.browser', 'cdpilot.cdp', 'cdpilot_generated.models', 'websockets'))))"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_a_handler_module_that_fails_to_import_stops_the_server_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "cdpilot.handlers", None)  # importing it now raises ModuleNotFoundError
    stops = Stops()
    backend = Backend("legacy", Settings(), stop=stops)
    backend.warm_up()
    assert stops.count == 1
    assert len(backend.problems) == 1
    assert backend.problems[0].startswith("the handler layer failed to load (ModuleNotFoundError: ")
    err = capsys.readouterr().err
    assert "Traceback" in err and f"cdpilot: {backend.problems[0]}" in err
