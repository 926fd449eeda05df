"""Several connections at once: ids, the active one, replacing, and connecting to running browsers."""

from __future__ import annotations

import asyncio
import socket

import pytest

from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager, ConnectOptions
from cdpilot.errors import ArgumentError, BrowserConnectionError
from tests.support.chromium import StandaloneChromium, leftovers_of, processes_with, wait_gone

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def test_ids_the_active_connection_switch_and_disconnect(manager: ConnectionManager) -> None:
    first = await manager.launch(LaunchOptions(connection_id=None))
    second = await manager.launch(LaunchOptions(connection_id=None))
    assert (first.id, second.id, manager.active_id) == ("browser-1", "browser-2", "browser-2")
    assert [(i.id, i.active) for i in manager.list()] == [("browser-1", False), ("browser-2", True)]
    assert manager.get(None).id == "browser-2" and manager.get("browser-1").id == "browser-1"

    switched = manager.switch("browser-1")
    assert switched.active and manager.get(None).id == "browser-1"

    gone = await manager.disconnect("browser-1")  # the active one: browser-2 takes over
    assert (gone.id, gone.active, manager.active_id) == ("browser-1", True, "browser-2")
    assert [(i.id, i.active) for i in manager.list()] == [("browser-2", True)]

    third = await manager.launch(LaunchOptions(connection_id=None))
    assert third.id == "browser-1"  # the first free id


async def test_disconnecting_an_inactive_connection_keeps_the_active_one(manager: ConnectionManager) -> None:
    await manager.launch(LaunchOptions(connection_id="a"))
    await manager.launch(LaunchOptions(connection_id="b"))
    await manager.disconnect("a")
    assert manager.active_id == "b"
    await manager.disconnect("b")
    assert manager.active_id is None and manager.list() == []


async def test_unknown_ids_name_the_known_ones(manager: ConnectionManager) -> None:
    with pytest.raises(BrowserConnectionError, match="No browser is connected"):
        manager.get(None)
    with pytest.raises(BrowserConnectionError, match="Known connections: none"):
        manager.get("ghost")
    await manager.launch(LaunchOptions(connection_id="real"))
    for attempt in (lambda: manager.get("ghost"), lambda: manager.switch("ghost")):
        with pytest.raises(BrowserConnectionError) as caught:
            attempt()
        assert caught.value.message == "No connection named 'ghost'. Known connections: real."
        assert "{tool:chrome_list_connections}" in caught.value.suggestion
    with pytest.raises(BrowserConnectionError, match="Known connections: real"):
        await manager.disconnect("ghost")


async def test_reusing_an_id_replaces_the_connection_cleanly(manager: ConnectionManager) -> None:
    old = await manager.launch(LaunchOptions(connection_id="work"))
    new = await manager.launch(LaunchOptions(connection_id="work"))
    assert old.pid is not None and old.user_data_dir is not None
    assert new.pid != old.pid and new.user_data_dir != old.user_data_dir
    assert wait_gone([old.pid], timeout_s=5) == [] and leftovers_of(old.user_data_dir) == []
    assert [(i.id, i.pid) for i in manager.list()] == [("work", new.pid)]


async def test_connect_by_host_and_port(manager: ConnectionManager, standalone: StandaloneChromium) -> None:
    info = await manager.connect(ConnectOptions(connection_id=None, port=standalone.port))
    assert (info.id, info.kind, info.pid, info.user_data_dir) == ("browser-1", "connected", None, None)
    assert info.endpoint == standalone.ws_url and info.browser.startswith("Chrome/")
    assert info.target_url == "about:blank"
    await manager.disconnect(info.id)
    assert processes_with(standalone.profile_dir)  # a browser we did not start keeps running


async def test_connect_by_websocket_url_and_replace(manager: ConnectionManager, standalone: StandaloneChromium) -> None:
    first = await manager.connect(ConnectOptions(connection_id="remote", ws_url=standalone.ws_url))
    again = await manager.connect(ConnectOptions(connection_id="remote", host="localhost", port=standalone.port))
    assert first.endpoint == standalone.ws_url
    assert again.endpoint == standalone.ws_url.replace("127.0.0.1", "localhost")
    assert [i.id for i in manager.list()] == ["remote"]
    version = await manager.get("remote").cdp.browser.send("Browser.getVersion")
    assert version["product"] == again.browser


async def test_connect_to_a_closed_port_fails_fast_naming_it(manager: ConnectionManager) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(BrowserConnectionError) as caught:
        await manager.connect(ConnectOptions(connection_id=None, port=port))
    assert loop.time() - started < 2
    assert (
        caught.value.message == f"Cannot reach a browser or Node.js inspector at 127.0.0.1:{port} (connection refused)"
    )
    assert manager.list() == []


@pytest.mark.parametrize(
    ("host", "ws_url", "field"),
    [
        ("192.0.2.10", None, "host"),
        ("example.com", None, "host"),
        ("127.0.0.1", "ws://192.0.2.10:9222/devtools/browser/x", "ws_url"),
    ],
)
async def test_remote_hosts_are_refused_without_allow_remote(
    manager: ConnectionManager, standalone: StandaloneChromium, host: str, ws_url: str | None, field: str
) -> None:
    await manager.connect(ConnectOptions(connection_id="kept", port=standalone.port))
    with pytest.raises(ArgumentError) as caught:
        await manager.connect(ConnectOptions(connection_id="kept", host=host, ws_url=ws_url))
    assert [problem.field for problem in caught.value.problems] == [field]
    assert "--allow-remote" in caught.value.suggestion
    assert [i.id for i in manager.list()] == ["kept"]  # a refused call replaces nothing
