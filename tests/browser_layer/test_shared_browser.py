"""Browser contexts of one shared Chromium, as the HTTP transport gives each session: two
clients (two registries over the real handler table, two connection managers) on one browser.

Each must see only its own tabs, cookies, storage, routes and downloads; giving back the
last context must end the browser; a launch that needs a process of its own gets one; and a
client cannot open more tabs than its limit.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace

import anyio
import pytest

from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.browser.session.shared_browser import SharedBrowser
from cdpilot.context import Settings
from cdpilot.server.registry import Registry
from tests.support.chromium import TEST_CHROME_ARGS, chrome_env, wait_gone
from tests.support.pages import PageSpec, serve_pages
from tests.support.registry import answer, in_process_registry

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

MAX_TABS = 3
SITE: dict[str, PageSpec] = {
    "/": (200, "text/html", b"<title>Home</title><p>home</p>"),
    "/framed": (200, "text/html", b"<title>Framed</title><iframe src='/inner'></iframe>"),
    "/inner": (  # a same-process iframe: its request names a frame that is no target
        200,
        "text/html",
        b"<script>fetch('/api').then(r => r.text()).then(t => parent.document.title = t)</script>",
    ),
    "/api": (200, "text/plain", b"from the server"),
    "/file": (200, "application/octet-stream", b"body", {"Content-Disposition": "attachment; filename=a.txt"}),
}
SETTINGS = Settings(rate_limit=None, launch=LaunchOptions(extra_args=TEST_CHROME_ARGS))
TITLE_SOON = "new Promise(done => setTimeout(() => done(document.title), 500))"


@dataclass
class Client:
    connections: ConnectionManager
    registry: Registry

    async def ok(self, tool: str, **arguments: object) -> str:
        error, text = await answer(self.registry, tool, **arguments)
        assert error is None, f"{tool}: {error}: {text}"
        return text


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


@pytest.fixture
async def shared() -> AsyncIterator[SharedBrowser]:
    browser = SharedBrowser(_options(), env={}, origins=SETTINGS.origins)
    try:
        yield browser
    finally:
        await browser.aclose()


@pytest.fixture
async def clients(shared: SharedBrowser, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[list[Client]]:
    made = []
    for n in range(2):
        out = tmp_path_factory.mktemp(f"client{n}")
        connections = ConnectionManager(env=chrome_env(), output_dir=out, shared=shared, max_tabs=MAX_TABS)
        settings = replace(SETTINGS, output_dir=out)
        made.append(Client(connections, in_process_registry(connections, "legacy", settings)))
    try:
        yield made
    finally:
        for client in made:
            await client.connections.aclose()


async def shared_targets(client: Client) -> list[str]:
    """The URL of every target of the browser a client's context is in, its own UI's included."""
    browser = client.connections.get(None).cdp.browser
    return [str(info["url"]) for info in (await browser.send("Target.getTargets"))["targetInfos"]]


def _options() -> LaunchOptions:
    return LaunchOptions(connection_id=None, extra_args=TEST_CHROME_ARGS)


async def test_two_clients_share_one_browser_and_see_only_their_own_tabs_cookies_and_storage(
    shared: SharedBrowser, clients: list[Client], site: str
) -> None:
    a, b = clients
    launched = [await client.connections.launch(_options()) for client in clients]
    assert [info.kind for info in launched] == ["context", "context"]
    assert launched[0].pid == launched[1].pid is not None and shared.process_count == 1
    assert shared.context_count == 2

    await a.ok("navigate", url=f"{site}/")
    await b.ok("navigate", url=f"{site}/framed")
    await a.ok("new_target", url=f"{site}/?second")
    a_tabs, b_tabs = await a.ok("list_targets"), await b.ok("list_targets")
    assert "/?second" in a_tabs and "/framed" not in a_tabs and "/inner" not in a_tabs
    assert "/framed" in b_tabs and "/?second" not in b_tabs and f"{site}/\n" not in b_tabs

    every_target = await shared_targets(a)
    assert not [url for url in every_target if "omnibox-popup" in url], every_target  # a renderer each, unused
    await a.ok("set_cookie", name="who", value="client-a")
    await a.ok("set_storage", key="who", value="client-a")
    await b.ok("navigate", url=f"{site}/")  # the same origin as a's tab
    assert "who" in await a.ok("get_cookies") and "who" not in await b.ok("get_cookies")
    assert "client-a" in await a.ok("get_storage", include_values=True)
    assert "who" not in await b.ok("get_storage", include_values=True)

    await a.ok("chrome_disconnect", connection_id=launched[0].id)
    assert shared.process_count == 1 and shared.context_count == 1
    assert "Home" in await b.ok("list_targets")  # the other client's context goes on
    pid = launched[1].pid
    await b.ok("chrome_disconnect", connection_id=launched[1].id)
    assert shared.process_count == 0 and shared.context_count == 0
    assert wait_gone([pid], 10.0) == [], "the shared browser outlived its last context"


async def test_routes_and_downloads_reach_only_their_own_context(clients: list[Client], site: str) -> None:
    a, b = clients
    for client in clients:
        await client.connections.launch(_options())
    await a.ok("route_requests", url_pattern="*/api", status=200, body="mocked for a")
    await a.ok("navigate", url=f"{site}/framed")  # the request comes from a same-process iframe
    await b.ok("navigate", url=f"{site}/framed")
    titles = [await client.ok("evaluate_js", expression=TITLE_SOON) for client in clients]
    assert "mocked for a" in titles[0] and "from the server" in titles[1], titles

    assert "a.txt" in await a.ok("navigate", url=f"{site}/file")
    assert a.connections.get(None).downloads.mark() == 1 and b.connections.get(None).downloads.mark() == 0


async def test_a_client_cannot_hold_more_tabs_than_its_limit(clients: list[Client]) -> None:
    a, _ = clients
    await a.connections.launch(_options())
    for _ in range(MAX_TABS - 1):
        await a.ok("new_target")
    error, text = await answer(a.registry, "new_target")
    assert error == "STATE" and f"{MAX_TABS} tabs open" in text, text
    error, text = await answer(a.registry, "chrome_launch")
    assert error == "STATE" and "--max-tabs-per-session" in text, text
    await a.ok("close_target")
    await a.ok("new_target")  # room again


async def test_a_launch_that_needs_its_own_process_gets_one(shared: SharedBrowser, clients: list[Client]) -> None:
    a, _ = clients
    options = LaunchOptions(connection_id=None, extra_args=TEST_CHROME_ARGS, user_agent="cdpilot-test")
    assert a.connections.own_process_reasons(options) == ("user_agent",)
    info = await a.connections.launch(options)
    assert info.kind == "launched" and shared.process_count == 0 and a.connections.launched_count == 1
    text = await a.ok("chrome_launch")  # the server's settings: a context
    assert "browser context of the shared" in text and shared.process_count == 1


async def test_a_trace_is_refused_in_a_shared_context_since_it_would_show_the_other_sessions(
    clients: list[Client],
) -> None:
    a, _ = clients
    await a.connections.launch(_options())
    error, text = await answer(a.registry, "record_trace", duration_ms=100)
    assert error == "STATE" and "what other sessions do" in text and "--browser-per-session" in text, text


async def test_a_context_stuck_in_a_loop_or_asking_to_stay_is_closed_and_the_others_go_on(
    shared: SharedBrowser, clients: list[Client], site: str
) -> None:
    a, b = clients
    for client in clients:
        await client.connections.launch(_options())
    await a.ok("navigate", url=f"{site}/")
    await a.ok(
        "evaluate_js", expression="addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = '' })"
    )
    await a.ok("click_element", selector="p")  # a user gesture: the page may now ask before it is left
    await a.ok("new_target", url=f"{site}/?looping")
    error, _ = await answer(a.registry, "evaluate_js", expression="while (true) {}", timeout_ms=500)
    assert error is not None
    with anyio.fail_after(20):
        await a.connections.aclose()
    assert shared.context_count == 1
    await b.ok("navigate", url=f"{site}/?after")  # the shared browser serves on
    assert "/?looping" not in await b.ok("list_targets") and "?after" in await b.ok("list_targets")


async def test_a_shared_browser_that_dies_is_reported_and_the_next_launch_starts_another(
    shared: SharedBrowser, clients: list[Client], site: str
) -> None:
    a, b = clients
    first = await a.connections.launch(_options())
    await b.connections.launch(_options())
    assert first.pid is not None
    os.kill(first.pid, signal.SIGKILL)
    assert wait_gone([first.pid], 10.0) == []
    for _ in range(500):  # noticed as it happens, before any call: no dead browser counts
        if (shared.process_count, shared.context_count) == (0, 0):
            break
        await anyio.sleep(0.02)
    else:
        pytest.fail("the dead shared browser still counts")
    for client in clients:
        error, text = await answer(client.registry, "navigate", url=f"{site}/")
        died, opened, navigated = text.splitlines()[:3]
        assert error is None, text
        dropped = f"Connection 'browser-1' was dropped: the shared browser (pid {first.pid}) died"
        assert died == dropped + "; no browser is connected now.", text
        assert opened.startswith("Opened a context of the shared") and navigated.startswith("Navigated to"), text
    assert shared.process_count == 1 and shared.context_count == 2
    again = b.connections.info("browser-1")
    assert again.kind == "context" and again.pid not in (None, first.pid) and again.alive
