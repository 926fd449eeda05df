"""The origin lists on a real Chromium: two local origins, one of them blocked.

The allowed site is served on 127.0.0.1 and the blocked one is reached as localhost (another
origin, and another site, so its frames run out of process). The blocked server records
every request it gets: a refused request must fail in the page, be marked blocked in the
network log, and never reach that server.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from cdpilot.browser.observe.network_facts import NetworkEntry
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.page.origin_policy import OriginPolicy, Refusal
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.browser.session.request_interceptor import RequestInterceptor
from cdpilot.browser.session.route_facts import Abort, Fulfill, RouteSpec
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError
from tests.support.chromium import chrome_env
from tests.support.pages import PageSpec, serve_pages
from tests.support.registry import answer, in_process_registry

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

WAIT_S = 10.0
PROBES = """
const load = (tag, url) => new Promise(done => {
  const element = document.createElement(tag);
  element.onload = () => done('loaded');
  element.onerror = () => done('refused');
  element.src = url;
  document.body.append(element);
});
const get = url => fetch(url).then(response => response.text(), () => 'refused');
"""


GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
CONTENT = {"gif": ("image/gif", GIF), "js": ("text/javascript", b"void 0")}  # by file extension


class _RecordingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _RecordingHandler)
        self.paths: list[str] = []


class _RecordingHandler(BaseHTTPRequestHandler):
    """Answers every request, with CORS allowed (so only the policy can make a fetch fail),
    and records its path."""

    server: _RecordingServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        content_type, body = CONTENT.get(self.path.rsplit(".", 1)[-1], ("text/html", b"<title>Other</title>"))
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is for the tests."""


@contextmanager
def recording_server() -> Iterator[_RecordingServer]:
    server = _RecordingServer()
    thread = threading.Thread(target=server.serve_forever, name="blocked-origin", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def blocked_server() -> Iterator[_RecordingServer]:
    with recording_server() as server:
        yield server


@pytest.fixture
def blocked(blocked_server: _RecordingServer) -> Iterator[str]:
    """The blocked origin's base URL; the test fails if any request reached it."""
    blocked_server.paths.clear()
    yield f"http://localhost:{blocked_server.server_address[1]}"
    assert blocked_server.paths == []


def allowed_pages(blocked: str) -> dict[str, PageSpec]:
    script = f"const BLOCKED = {json.dumps(blocked)};\n{PROBES}"
    return {
        "/": (200, "text/html", f"<title>Allowed</title><body><script>{script}</script>".encode()),
        "/pic.gif": (200, "image/gif", GIF),
        "/data": (200, "text/plain", b"own data"),
        "/leaky": (
            200,
            "text/html",
            f"<title>Leaky</title><img src='{blocked}/pic.gif' onload='document.title = \"loaded\"' "
            "onerror='document.title = \"refused\"'>".encode(),
        ),
        "/moved": (302, "text/plain", b"", {"Location": f"{blocked}/data"}),
        "/worker.js": (
            200,
            "text/javascript",
            f"onmessage = () => fetch('{blocked}/data').then(r => r.text(), () => 'refused')"
            ".then(postMessage)".encode(),
        ),
        "/sw/page": (200, "text/html", b"<title>Service worker</title>"),
        "/sw.js": (
            200,
            "text/javascript",
            f"addEventListener('message', e => fetch('{blocked}/data').then(r => r.text(), () => 'refused')"
            ".then(text => e.source.postMessage(text)))".encode(),
        ),
    }


@pytest.fixture(scope="module")
def site(blocked_server: _RecordingServer) -> Iterator[str]:
    with serve_pages(allowed_pages(f"http://localhost:{blocked_server.server_address[1]}")) as base_url:
        yield base_url


@pytest.fixture(scope="module")
async def manager(blocked_server: _RecordingServer) -> AsyncIterator[ConnectionManager]:
    """A manager with the blocked origin in --blocked-origins, and one browser it launched."""
    policy = OriginPolicy(blocked=[f"localhost:{blocked_server.server_address[1]}"])
    connections = ConnectionManager(env=chrome_env(), origins=policy)
    try:
        await connections.launch(LaunchOptions(connection_id=None))
        yield connections
    finally:
        await connections.aclose()


@pytest.fixture
async def guarded(manager: ConnectionManager, site: str) -> BrowserConnection:
    conn = manager.get(None)
    await navigate(conn, f"{site}/")
    return conn


async def evaluate(session: CdpSession, expression: str) -> Any:
    """The JSON value of `expression` (awaited), run as if the user had clicked: popups open."""
    reply = await session.send(
        "Runtime.evaluate",
        {
            "expression": f"Promise.resolve({expression}).then(JSON.stringify)",
            "awaitPromise": True,
            "userGesture": True,
        },
    )
    return json.loads(reply["result"]["value"])


def entries_for(conn: BrowserConnection, url: str) -> list[NetworkEntry]:
    return [entry for entry in conn.features.network.requests() if entry.url == url]


def refusal(blocked: str) -> Refusal:
    origin = blocked.removeprefix("http://")
    return Refusal(blocked, "--blocked-origins", f"blocked by --blocked-origins {origin}")


async def test_subresources_and_fetches_to_a_blocked_origin_fail_in_the_page(
    guarded: BrowserConnection, site: str, blocked: str
) -> None:
    probes = "Promise.all([load('img', '/pic.gif'), load('img', BLOCKED + '/pic.gif'), "
    probes += "load('script', BLOCKED + '/app.js'), get('/data'), get(BLOCKED + '/data')])"
    assert await evaluate(guarded.page, probes) == ["loaded", "refused", "refused", "own data", "refused"]
    for path in ("/pic.gif", "/app.js", "/data"):
        [entry] = entries_for(guarded, blocked + path)
        assert (entry.status, entry.refused) == (0, refusal(blocked))
    [own] = entries_for(guarded, f"{site}/data")
    assert (own.status, own.refused) == (200, None)


async def test_the_network_tools_mark_refused_requests_blocked(
    manager: ConnectionManager, guarded: BrowserConnection, site: str, blocked: str
) -> None:
    """Refused requests read BLOCKED; allowed ones, held and let go, keep their bodies."""
    assert await evaluate(guarded.page, "Promise.all([load('img', BLOCKED + '/pic.gif'), get('/data')])") == [
        "refused",
        "own data",
    ]
    [refused] = entries_for(guarded, f"{blocked}/pic.gif")
    [own] = entries_for(guarded, f"{site}/data")
    registry = in_process_registry(manager, "legacy")
    error, listed = await answer(registry, "list_network_requests")
    assert error is None
    assert f"{refused.id} GET BLOCKED (--blocked-origins) image {blocked}/pic.gif (" in listed
    assert f"{own.id} GET 200 fetch /data (" in listed
    error, detail = await answer(registry, "get_network_request", request_id=refused.id, include_body=True)
    assert error is None
    assert f"image, BLOCKED: {refusal(blocked).statement}" in detail
    assert "it has no body" in detail
    error, detail = await answer(registry, "get_network_request", request_id=own.id, include_body=True)
    assert (error, detail.splitlines()[-1]) == (None, "own data")


async def test_a_redirect_to_a_blocked_origin_fails(guarded: BrowserConnection, site: str, blocked: str) -> None:
    assert await evaluate(guarded.page, "get('/moved')") == "refused"
    [hop] = entries_for(guarded, f"{site}/moved")
    [refused] = entries_for(guarded, f"{blocked}/data")
    assert (hop.status, refused.status, refused.refused) == (302, 0, refusal(blocked))


async def test_frames_and_workers_cannot_reach_a_blocked_origin(guarded: BrowserConnection, blocked: str) -> None:
    frame = "new Promise(done => { const f = document.createElement('iframe'); f.onload = () => done('done'); "
    frame += "f.src = BLOCKED + '/frame'; document.body.append(f); })"
    assert await evaluate(guarded.page, frame) == "done"
    [document] = entries_for(guarded, f"{blocked}/frame")
    assert (document.resource_type, document.refused) == ("document", refusal(blocked))
    worker = "new Promise(done => { const w = new Worker('/worker.js'); w.onmessage = e => done(e.data); "
    worker += "w.postMessage('go'); })"
    assert await evaluate(guarded.page, worker) == "refused"


@pytest.mark.usefixtures("blocked")
async def test_a_service_worker_cannot_reach_a_blocked_origin(guarded: BrowserConnection, site: str) -> None:
    await navigate(guarded, f"{site}/sw/page")
    asked = (
        "navigator.serviceWorker.register('/sw.js', {scope: '/sw/'})"
        ".then(() => navigator.serviceWorker.ready)"
        ".then(ready => new Promise(done => { navigator.serviceWorker.onmessage = e => done(e.data); "
        "ready.active.postMessage('go'); }))"
    )
    try:
        assert await evaluate(guarded.page, asked) == "refused"
    finally:
        await evaluate(guarded.page, "navigator.serviceWorker.ready.then(ready => ready.unregister())")


async def test_a_navigation_the_page_starts_is_blocked(guarded: BrowserConnection, blocked: str) -> None:
    with guarded.page.listen("Page.frameNavigated") as navigated:
        await evaluate(guarded.page, "(location.href = BLOCKED + '/next', 0)")
        async with asyncio.timeout(WAIT_S):
            main_frame = await navigated.first(lambda event: "parentId" not in event.params["frame"])
    frame = main_frame.params["frame"]
    assert (frame["url"], frame["unreachableUrl"]) == ("chrome-error://chromewebdata/", f"{blocked}/next")


async def test_a_popup_to_a_blocked_origin_is_blocked(guarded: BrowserConnection, blocked: str) -> None:
    """The popup is never attached by cdpilot: the browser-wide interception holds it anyway."""
    url = f"{blocked}/popup"
    browser = guarded.cdp.browser
    with browser.listen("Target.targetInfoChanged") as changed:
        await evaluate(guarded.page, f"(window.open({json.dumps(url)}), 0)")
        async with asyncio.timeout(WAIT_S):
            info = (await changed.first(lambda event: event.params["targetInfo"]["url"] == url)).params["targetInfo"]
    try:
        popup = await guarded.cdp.attach(info["targetId"])
        frame = (await popup.send("Page.getFrameTree"))["frameTree"]["frame"]
        assert (frame["url"], frame["unreachableUrl"]) == ("chrome-error://chromewebdata/", url)
    finally:
        await browser.send("Target.closeTarget", {"targetId": info["targetId"]})


async def test_a_page_paused_in_the_debugger_holds_up_no_request(
    guarded: BrowserConnection, site: str, blocked: str
) -> None:
    """Requests are answered through the browser session: those the paused page sent are
    decided while it is paused, and another tab (another site, so another renderer) loads
    meanwhile, its blocked request refused."""
    page, browser = guarded.page, guarded.cdp.browser
    await page.send("Debugger.enable")
    probes = "window.probes = Promise.all([get(BLOCKED + '/data'), get('/data')]); debugger; 0"
    with page.listen("Debugger.paused") as paused, browser.listen("Fetch.requestPaused") as held:
        stalled = asyncio.ensure_future(page.send("Runtime.evaluate", {"expression": probes}))
        async with asyncio.timeout(WAIT_S):
            await paused.next()
            seen: set[str] = set()
            while not {f"{blocked}/data", f"{site}/data"} <= seen:
                seen.add((await held.next()).params["request"]["url"])
    other = await browser.send("Target.createTarget", {"url": "about:blank"})
    try:
        tab = await guarded.cdp.attach(other["targetId"])
        await tab.send("Page.enable")
        with tab.listen("Page.loadEventFired") as loaded:
            await tab.send("Page.navigate", {"url": site.replace("127.0.0.1", "localhost") + "/"})
            async with asyncio.timeout(WAIT_S):
                await loaded.next()
        assert await evaluate(tab, "Promise.all([get(BLOCKED + '/data'), get('/data')])") == ["refused", "own data"]
    finally:
        await browser.send("Target.closeTarget", {"targetId": other["targetId"]})
        await page.send("Debugger.resume")
        await stalled
        await page.send("Debugger.disable")
    assert await evaluate(page, "window.probes") == ["refused", "own data"]


async def test_navigating_to_a_blocked_origin_is_refused_before_anything_is_sent(
    manager: ConnectionManager, guarded: BrowserConnection, site: str, blocked: str
) -> None:
    registry = in_process_registry(manager, "legacy")
    targets_before = (await guarded.cdp.browser.send("Target.getTargets"))["targetInfos"]
    expected = f"Refused to navigate: {refusal(blocked).statement}."
    for tool in ("navigate", "new_target"):
        error, text = await answer(registry, tool, url=f"{blocked}/page")
        assert (error, text.splitlines()[0]) == ("VALIDATION", expected)
    assert (await guarded.cdp.browser.send("Target.getTargets"))["targetInfos"] == targets_before
    assert guarded.target_url == f"{site}/"


async def test_a_launch_with_a_blocked_start_url_is_refused_before_the_browser_starts(blocked: str) -> None:
    connections = ConnectionManager(env=chrome_env(), origins=OriginPolicy(blocked=[blocked]))
    with pytest.raises(
        ArgumentError, match=r"Refused to navigate: http://localhost:\d+ is blocked by --blocked-origins"
    ):
        await connections.launch(LaunchOptions(connection_id=None, url=f"{blocked}/start"))
    assert connections.list() == []


async def test_a_start_url_is_opened_only_once_the_origins_are_enforced(site: str, blocked: str) -> None:
    """Given on the command line, the start page would load at once and race the interception:
    the browser starts on about:blank instead, and goes to the start page afterwards."""
    connections = ConnectionManager(env=chrome_env(), origins=OriginPolicy(blocked=[blocked]))
    try:
        await connections.launch(LaunchOptions(connection_id=None, url=f"{site}/leaky"))
        conn = connections.get(None)
        assert conn.process is not None and conn.process.plan.args[-1] == "about:blank"
        assert await title_after_load(conn, f"{site}/leaky") == "refused"
    finally:
        await connections.aclose()


async def title_after_load(conn: BrowserConnection, url: str) -> str:
    """The title of the page once it is at `url` and loaded (images included)."""
    page = conn.page
    with page.listen("Page.frameNavigated") as navigated:
        frame = (await page.send("Page.getFrameTree"))["frameTree"]["frame"]
        async with asyncio.timeout(WAIT_S):
            while frame["url"] != url:
                frame = (await navigated.first(lambda event: "parentId" not in event.params["frame"])).params["frame"]
    loaded = "new Promise(done => addEventListener('load', () => done(document.title)))"
    return str(await evaluate(page, f"document.readyState === 'complete' ? document.title : {loaded}"))


async def test_an_allowed_list_refuses_every_other_origin(site: str, blocked: str) -> None:
    connections = ConnectionManager(env=chrome_env(), origins=OriginPolicy(allowed=[site]))
    try:
        await connections.launch(LaunchOptions(connection_id=None))
        conn = connections.get(None)
        await navigate(conn, f"{site}/")
        same_host_other_port = blocked.replace("localhost", "127.0.0.1")
        probes = (
            f"Promise.all([get('/data'), get(BLOCKED + '/data'), get({json.dumps(same_host_other_port)} + '/data')])"
        )
        assert await evaluate(conn.page, probes) == ["own data", "refused", "refused"]
        [entry] = entries_for(conn, f"{same_host_other_port}/data")
        assert entry.refused == Refusal(same_host_other_port, "--allowed-origins", "not in --allowed-origins")
    finally:
        await connections.aclose()


class _RecordingSession:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        patterns = (params or {}).get("patterns")
        self.sent.append(method if patterns is None else f"{method} {patterns[0]['urlPattern']}")
        return {}

    def on(self, method: str, handler: object) -> object:
        self.sent.append(f"on {method}")
        return lambda: None


async def test_without_entries_no_request_is_held() -> None:
    session = _RecordingSession()
    await RequestInterceptor(OriginPolicy()).start(session)  # type: ignore[arg-type]
    assert session.sent == ["on Fetch.requestPaused", "Fetch.enable cdpilot-holds-nothing:"]
    session.sent.clear()
    await RequestInterceptor(OriginPolicy(blocked=["example.com"])).start(session)  # type: ignore[arg-type]
    assert session.sent == ["on Fetch.requestPaused", "Fetch.enable *"]


async def test_routes_hold_requests_while_there_are_some_unless_the_policy_needs_it() -> None:
    route = RouteSpec("*/api/*", regex=False, action=Abort("Failed"))
    held_then_not = ["Fetch.enable *", "Fetch.enable cdpilot-holds-nothing:"]
    for policy, switched in ((OriginPolicy(), held_then_not), (OriginPolicy(blocked=["a.com"]), [])):
        session = _RecordingSession()
        interceptor = RequestInterceptor(policy)
        await interceptor.start(session)  # type: ignore[arg-type]
        session.sent.clear()
        routes = interceptor.routes(None)
        first = await routes.add(route)
        await routes.add(route)
        await routes.remove(first.id)
        await routes.remove(None)
        assert session.sent == switched


class _AnsweringSession(_RecordingSession):
    """Also records how each held request was answered, and lets a test hold one."""

    def __init__(self) -> None:
        super().__init__()
        self.handlers: dict[str, Any] = {}
        self.answers: list[tuple[str, str]] = []

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if method.startswith("Fetch.") and method != "Fetch.enable":
            self.answers.append((method, str((params or {}).get("requestId"))))
        return await super().send(method, params)

    def on(self, method: str, handler: object) -> object:
        self.handlers[method] = handler
        return super().on(method, handler)

    async def hold(self, request_id: str, frame_id: str, url: str) -> None:
        params = {"requestId": request_id, "frameId": frame_id, "request": {"url": url, "headers": {}}}
        self.handlers["Fetch.requestPaused"](CdpEvent("Fetch.requestPaused", params, None))
        await asyncio.sleep(0)  # the answer is sent by a task of the interceptor's


async def test_in_a_shared_browser_a_request_meets_only_the_routes_of_its_frames_context() -> None:
    """Two connections in contexts A and B of one browser, each with a route for the same URL:
    each request is answered by its own context's route; a frame of no known context meets none
    (the origin lists only), and a context's routes go when it closes."""
    owners = {"frame-a": "A", "frame-b": "B"}
    session = _AnsweringSession()
    interceptor = RequestInterceptor(OriginPolicy(), owner_of=owners.get)
    await interceptor.start(session)  # type: ignore[arg-type]
    await interceptor.routes("A").add(RouteSpec("*/api", regex=False, action=Abort("Failed")))
    await interceptor.routes("B").add(RouteSpec("*/api", regex=False, action=Fulfill(200, (), b"mocked")))
    for request_id, frame in (("1", "frame-a"), ("2", "frame-b"), ("3", "frame-of-nobody")):
        await session.hold(request_id, frame, "http://127.0.0.1/api")
    assert session.answers == [
        ("Fetch.failRequest", "1"),
        ("Fetch.fulfillRequest", "2"),
        ("Fetch.continueRequest", "3"),
    ]
    assert [len(interceptor.routes(c)) for c in "AB"] == [1, 1]
    await interceptor.drop_routes("A")
    await session.hold("4", "frame-a", "http://127.0.0.1/api")
    assert session.answers[-1] == ("Fetch.continueRequest", "4")
