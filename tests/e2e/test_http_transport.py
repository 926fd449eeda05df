"""The real server over Streamable HTTP (``--transport http``), with the SDK's HTTP client and a
real headless Chromium: sessions isolated from each other (browser contexts of one shared
Chromium by default, processes of their own with ``--browser-per-session``), browsers and
contexts closed whichever way a session ends, the session and tab limits, the token, the
Host and Origin checks, and a clean SIGTERM.

Each server gets a marker among its Chromium flags and a TMPDIR of its own, so its browser
processes and temp profiles can be counted apart from those of every other test.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from cdpilot.server.tool_filter import tools_list_json
from tests.e2e.harness import ModeClient, spelled, text_of
from tests.support.chromium import TEST_CHROME_ARGS, processes_with
from tests.support.pages import serve_pages

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def colour_page(name: str) -> tuple[int, str, bytes]:
    """A page titled `name` whose button logs "<name> says hi" to the console."""
    script = f"console.log('{name} says hi'); this.dataset.clicked = 'yes'"
    html = f'<title>{name.title()}</title><button id=b onclick="{script}">{name}</button>'
    return 200, "text/html", html.encode()


SLOW_PAGE = b"""<title>Slow</title><p id=late hidden>late</p>
<script>setTimeout(() => document.getElementById("late").hidden = false, 400)</script>"""
PAGES = {"/red": colour_page("red"), "/blue": colour_page("blue"), "/slow": (200, "text/html", SLOW_PAGE)}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}
JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class HttpServer:
    proc: subprocess.Popen[str]
    port: int
    marker: str  # among the flags of every Chromium this server launches
    tmp: Path  # its TMPDIR, where its temp profiles go

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def health(self) -> dict[str, Any]:
        reply: dict[str, Any] = httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=5).json()
        return reply

    def browsers(self) -> list[int]:
        return processes_with(self.marker)

    def profiles(self) -> list[Path]:
        return sorted(self.tmp.glob("cdpilot-profile-*"))

    def stop(self, within_s: float = 30) -> tuple[int, str]:
        """SIGTERM, then the exit status and everything written to stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=within_s)
        return self.proc.returncode, err


@contextmanager
def http_server(*flags: str, mode: str = "legacy", env: dict[str, str] | None = None) -> Iterator[HttpServer]:
    """The server on a free port of 127.0.0.1 (unless `flags` say otherwise), ready to serve."""
    port, marker = free_port(), f"--cdpilot-test-server={uuid.uuid4().hex}"
    tmp = Path(tempfile.mkdtemp(prefix="cdpilot-h-"))  # short: Chromium's socket path must fit below it
    environment = {k: v for k, v in os.environ.items() if k not in ("CDPILOT_MODE", "USE_LEGACY_TOOLS")}
    environment.update(
        CDPILOT_MODE=mode, CDPILOT_CHROME_ARGS=shlex.join((*TEST_CHROME_ARGS, marker)), TMPDIR=str(tmp), **(env or {})
    )
    args = [sys.executable, "-m", "cdpilot.cli", "--transport", "http", "--port", str(port), *flags]
    proc = subprocess.Popen(args, env=environment, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    server = HttpServer(proc, port, marker, tmp)
    try:
        wait_until(lambda: proc.poll() is not None or reachable(port), "the server to listen")
        assert proc.poll() is None, server.stop()[1]
        yield server
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def reachable(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_until(condition: Any, what: str, within_s: float = 30) -> None:
    """Poll `condition` (a process or socket state no event announces) until true, or fail."""
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@asynccontextmanager
async def http_client(
    server: HttpServer | str, mode: str = "legacy", *, token: str | None = None, delete: bool = True
) -> AsyncIterator[ModeClient]:
    """A session of `server` (or of the MCP endpoint at that URL), closed by DELETE unless told not to."""
    url = server if isinstance(server, str) else server.url
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(60, read=300)) as web,
        Client(
            streamable_http_client(url, http_client=web, terminate_on_close=delete),
            mode="legacy",
            read_timeout_seconds=60,
        ) as client,
    ):
        yield ModeClient(client, mode)


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def module_server() -> Iterator[HttpServer]:
    with http_server("--max-sessions", "3") as server:
        yield server


@pytest.fixture(scope="module")
def module_per_session_server() -> Iterator[HttpServer]:
    with http_server("--browser-per-session") as server:
        yield server


@pytest.fixture
def shared_server(module_server: HttpServer) -> HttpServer:
    """The file's server once the sessions of earlier tests have ended (their browsers with them)."""
    wait_until(lambda: module_server.health()["sessions"] == 0, "earlier sessions to end")
    return module_server


@pytest.fixture(params=["shared browser", "browser per session"])
def either_server(request: pytest.FixtureRequest) -> HttpServer:
    """The default server (one shared Chromium) or one with ``--browser-per-session``, idle."""
    name = "module_server" if request.param == "shared browser" else "module_per_session_server"
    server: HttpServer = request.getfixturevalue(name)
    wait_until(lambda: server.health()["sessions"] == 0, "earlier sessions to end")
    return server


def per_session(server: HttpServer) -> bool:
    return "--browser-per-session" in server.proc.args  # type: ignore[operator]


async def test_two_concurrent_sessions_each_see_only_their_own_browser(
    either_server: HttpServer, site_url: str
) -> None:
    server = either_server
    async with http_client(server) as red, http_client(server) as blue:

        async def visit(client: ModeClient, page: str) -> None:
            await client.ok("chrome_launch")
            await client.ok("navigate", url=f"{site_url}/{page}")
            await client.ok("click_element", selector="#b")
            await client.ok("set_cookie", name="colour", value=page)
            await client.ok("set_storage", key="colour", value=page)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(visit, red, "red")
            tasks.start_soon(visit, blue, "blue")
        kind = "launched" if per_session(server) else "context of the shared browser"
        health = server.health()
        assert (health["browsers"], health["contexts"]) == ((2, 0) if per_session(server) else (1, 2)), health
        pids = {}
        for client, mine, theirs in ((red, "red", "blue"), (blue, "blue", "red")):
            assert await client.js("location.pathname") == f"/{mine}"
            targets = await client.ok("list_targets")
            assert f"/{mine}" in targets and f"/{theirs}" not in targets
            connections = await client.ok("chrome_list_connections")
            assert connections.count(f"{kind} Chrome") == 1, connections
            pids[mine] = re.search(rf"browser-1 \[active\] {kind} \S+ pid=(\d+)", connections)[1]  # type: ignore[index]
            console = await client.ok("get_console_logs")
            assert f"{mine} says hi" in console and f"{theirs} says hi" not in console
            network = await client.ok("list_network_requests")
            assert f"/{mine}" in network and f"/{theirs}" not in network
            # The same origin in both: cookies and storage are each session's own all the same.
            cookies = await client.ok("get_cookies", include_values=True)
            assert mine in cookies and theirs not in cookies, cookies
            storage = await client.ok("get_storage", include_values=True)
            assert mine in storage and theirs not in storage, storage
        # Both are "browser-1", each in its own session: one process, or one each.
        assert (pids["red"] != pids["blue"]) is per_session(server)
        # Closing "browser-1" in one session closes that session's browser (or context) only.
        await blue.ok("chrome_disconnect", connection_id="browser-1")
        assert "No connections" in await blue.ok("chrome_list_connections")
        assert f"pid={pids['red']}" in await red.ok("chrome_list_connections")
        assert await red.js("document.title") == "Red"


async def test_a_file_a_session_writes_is_read_through_its_link_by_that_session_only(
    shared_server: HttpServer, site_url: str
) -> None:
    async with http_client(shared_server) as owner, http_client(shared_server) as other:
        await owner.ok("navigate", url=f"{site_url}/red")
        assert await owner.js("document.title") == "Red"
        result = await owner.call("browser_screenshot", path="shots/red.png")
        assert not result.is_error, text_of(result)
        (link,) = [block for block in result.content if isinstance(block, types.ResourceLink)]
        saved = Path(re.search(r" to (/\S+\.png)", text_of(result))[1])  # type: ignore[index]
        assert saved.parent.parent.name.startswith("session-") and link.uri == "cdpilot://files/shots/red.png"
        (contents,) = (await owner.client.read_resource(link.uri)).contents
        assert isinstance(contents, types.BlobResourceContents)
        assert base64.b64decode(contents.blob) == saved.read_bytes()
        listed = await owner.client.list_resources(cache_mode="refresh")
        assert [resource.uri for resource in listed.resources] == [link.uri]
        theirs = f"cdpilot://files/../{saved.parent.parent.name}/shots/red.png"
        for uri in (link.uri, theirs, "cdpilot://files/shots/none.png"):
            with pytest.raises(MCPError) as refused:
                await other.client.read_resource(uri)
            assert refused.value.error.message.startswith(f"No file of this session at {uri!r}."), uri
        assert (await other.client.list_resources(cache_mode="refresh")).resources == []


async def test_the_python_client_at_its_defaults_reads_a_20_mib_file_byte_exact(shared_server: HttpServer) -> None:
    """The SDK's Python client caps a server-sent event at 1 MiB: a read is answered as JSON."""
    async with http_client(shared_server) as client:
        saved = await client.ok("browser_screenshot", path="first.png")
        folder = Path(re.search(r" to (/\S+)/first\.png", saved)[1])  # type: ignore[index]
        big = os.urandom(20 * 1024 * 1024)
        (folder / "big.bin").write_bytes(big)
        (contents,) = (await client.client.read_resource("cdpilot://files/big.bin")).contents
        assert isinstance(contents, types.BlobResourceContents)
        assert base64.b64decode(contents.blob) == big
        assert "big.bin" in str((await client.client.list_resources(cache_mode="refresh")).resources)


async def test_ending_a_session_by_delete_closes_its_browser(either_server: HttpServer) -> None:
    """Process, context and tab counts all return to where they were: a session that ends while
    another goes on gives back only its own."""
    server = either_server
    async with http_client(server) as staying:
        await staying.ok("chrome_launch")
        before = (len(server.browsers()), server.health(), await staying.ok("list_targets"))
        async with http_client(server) as leaving:
            await leaving.ok("chrome_launch")
            await leaving.ok("new_target")
            during = server.health()
            assert during["browsers"] == before[1]["browsers"] + per_session(server), during
            assert during["contexts"] == before[1]["contexts"] + (not per_session(server)), during
        wait_until(lambda: server.health()["sessions"] == 1, "the session to end")
        assert (len(server.browsers()), server.health(), await staying.ok("list_targets")) == before
    wait_until(lambda: server.health()["sessions"] == 0, "the other session to end")
    assert server.browsers() == [] and server.health()["contexts"] == 0


async def test_the_session_limit_refuses_one_more_with_503_and_the_others_go_on(shared_server: HttpServer) -> None:
    async with http_client(shared_server) as first, http_client(shared_server), http_client(shared_server):
        assert shared_server.health()["sessions"] == 3
        reply = httpx.post(shared_server.url, json=INITIALIZE, headers=JSON_HEADERS, timeout=10)
        assert reply.status_code == 503 and "Too many open sessions" in reply.text
        await first.ok("list_connections" if first.mode == "smart" else "chrome_list_connections")
    assert shared_server.proc.poll() is None


async def test_a_connected_but_silent_client_is_ended_after_the_idle_timeout() -> None:
    """An SDK client keeps a GET stream open while connected; idle still means no request."""
    with http_server("--session-idle-timeout", "2") as server:
        async with http_client(server) as client:
            await client.ok("chrome_launch")
            assert server.health()["sessions"] == 1 and len(server.browsers()) > 0
            wait_until(lambda: server.health()["sessions"] == 0, "the silent session to end", within_s=15)
            wait_until(lambda: not server.browsers(), "its browser to close")
            with pytest.raises(MCPError, match="Session not found"):  # its id answers 404 now
                await client.call("chrome_list_connections")


async def test_a_call_longer_than_the_idle_timeout_is_not_cut() -> None:
    """Idle is counted from a request's end: a session with a call still running is busy."""
    with http_server("--session-idle-timeout", "1") as server:
        async with http_client(server) as client:
            await client.ok("chrome_launch")
            waited = await client.ok("evaluate_js", expression="new Promise(r => setTimeout(() => r('done'), 3000))")
            assert "done" in waited, waited
            assert server.health()["sessions"] == 1


async def test_an_ended_sessions_files_go_after_their_retention(tmp_path: Path) -> None:
    with http_server("--output-dir", str(tmp_path), "--session-files-retention", "1") as server:
        async with http_client(server) as client:
            saved = await client.ok("browser_screenshot", path="shot.png")
            shot = Path(re.search(r"(/\S+shot\.png)", saved)[1])  # type: ignore[index]
            assert shot.is_file(), saved
        wait_until(lambda: not shot.parent.exists(), "the ended session's folder to go", within_s=15)
        assert server.health()["sessions"] == 0
    with http_server("--output-dir", str(tmp_path)) as server:  # the default keeps them an hour
        async with http_client(server) as client:
            saved = await client.ok("browser_screenshot", path="kept.png")
        kept = Path(re.search(r"(/\S+kept\.png)", saved)[1])  # type: ignore[index]
        wait_until(lambda: server.health()["sessions"] == 0, "the session to end")
        assert kept.is_file()


async def test_an_idle_session_is_ended_and_its_browser_closed() -> None:
    with http_server("--session-idle-timeout", "1") as server:
        async with http_client(server, delete=False) as client:  # gone without a DELETE
            await client.ok("chrome_launch")
            assert len(server.browsers()) > 0
        wait_until(lambda: not server.browsers() and server.health()["sessions"] == 0, "the idle session to end")
        assert server.profiles() == []


async def test_a_crash_of_the_shared_browser_is_told_and_the_next_page_tool_starts_another() -> None:
    with http_server() as server:
        async with http_client(server) as one, http_client(server) as two:
            await one.ok("chrome_launch")
            await two.ok("chrome_launch")
            assert server.health() == {"status": "ok", "sessions": 2, "browsers": 1, "contexts": 2}
            (browser,) = [pid for pid in server.browsers() if "--type=" not in Path(f"/proc/{pid}/cmdline").read_text()]
            os.kill(browser, signal.SIGKILL)
            wait_until(lambda: server.health()["browsers"] == 0, "/healthz to tell the browser died")
            assert server.health()["contexts"] == 0
            for client in (one, two):
                listed = await client.ok("chrome_list_connections")
                assert listed.startswith(f"Connection 'browser-1' was dropped: the shared browser (pid {browser}) died")
                assert listed.endswith("No connections. Launch a browser or connect to a running one."), listed
                navigated = await client.ok("navigate", url="about:blank")
                assert navigated.startswith("Opened a context of the shared"), navigated
            assert server.health() == {"status": "ok", "sessions": 2, "browsers": 1, "contexts": 2}


async def test_sigterm_lets_a_call_under_way_finish_with_its_answer() -> None:
    """The drain: a call due to end about a second after the signal still gets its answer on its
    stream, and the server then exits with status 0, having logged no broken response."""
    with http_server() as server:
        async with http_client(server, delete=False) as client:
            await client.ok("chrome_launch")
            async with anyio.create_task_group() as calls:
                answered: list[str] = []

                async def slow_call() -> None:
                    expression = "new Promise(r => setTimeout(() => r('finished'), 1300))"
                    answered.append(await client.ok("evaluate_js", expression=expression))

                calls.start_soon(slow_call)
                await anyio.sleep(0.3)  # the call is under way
                server.proc.send_signal(signal.SIGTERM)
            assert answered == ["finished"] or "finished" in answered[0], answered
        status, err = await anyio.to_thread.run_sync(server.stop)
    assert status == 0, err
    assert "ASGI callable returned without completing response" not in err, err


@pytest.mark.parametrize("flags", [(), ("--browser-per-session",)], ids=["shared browser", "browser per session"])
async def test_sigterm_with_active_sessions_leaves_no_chromium_and_no_profile(flags: tuple[str, ...]) -> None:
    with http_server(*flags) as server:
        async with http_client(server, delete=False) as one, http_client(server, delete=False) as two:
            await one.ok("chrome_launch")
            await two.ok("chrome_launch")
            assert len(server.profiles()) == (2 if flags else 1)
            status, err = await anyio.to_thread.run_sync(server.stop)
        assert status == 0, err
        assert server.browsers() == [] and server.profiles() == []


async def test_a_session_past_its_tab_limit_is_refused_and_the_others_go_on() -> None:
    with http_server("--max-tabs-per-session", "2") as server:
        async with http_client(server) as busy, http_client(server) as other:
            await busy.ok("chrome_launch")
            await busy.ok("new_target")
            for tool in ("new_target", "chrome_launch"):
                kind, text = await busy.error(tool)
                assert kind == "STATE" and "2 tabs open" in text and "--max-tabs-per-session" in text, text
            await other.ok("chrome_launch")
            await other.ok("new_target")  # its own two
            await busy.ok("close_target")
            await busy.ok("new_target")


async def test_a_token_is_required_on_a_non_loopback_bind_and_never_logged() -> None:
    token = "s3cret-" + uuid.uuid4().hex
    with http_server("--host", "0.0.0.0", env={"CDPILOT_AUTH_TOKEN": token}) as server:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": token}, {"Authorization": "Basic x"}):
            reply = httpx.post(server.url, json=INITIALIZE, headers={**JSON_HEADERS, **headers}, timeout=10)
            assert reply.status_code == 401, reply.text
        assert server.health()["sessions"] == 0
        for scheme in ("bearer", "BEARER"):  # the scheme's name is case-insensitive
            reply = httpx.post(
                server.url, json=INITIALIZE, headers={**JSON_HEADERS, "Authorization": f"{scheme} {token}"}, timeout=10
            )
            assert reply.status_code == 200, reply.text
        async with http_client(server, token=token) as client:
            assert "No connections" in text_of(await client.call("chrome_list_connections"))
        _, err = server.stop()
    assert token not in err and "401" in err


def test_a_non_loopback_bind_without_a_token_is_refused_at_start() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cdpilot.cli", "--transport", "http", "--host", "0.0.0.0", "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=30,
        env={k: v for k, v in os.environ.items() if k != "CDPILOT_AUTH_TOKEN"},
    )
    assert done.returncode == 2
    assert "--auth-token" in done.stderr and "0.0.0.0" in done.stderr


def test_a_port_in_use_is_one_clear_line_and_status_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "cdpilot.cli", "--transport", "http", "--port", str(port)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert f"cdpilot: cannot listen on 127.0.0.1 port {port}: Address already in use" in done.stderr


def test_a_client_gone_mid_upload_is_no_error_and_no_session() -> None:
    with http_server() as server:
        with socket.create_connection(("127.0.0.1", server.port)) as upload:
            head = (
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n"
            )
            upload.sendall(head.encode() + b'{"jsonrpc":')
        assert server.health()["sessions"] == 0  # the server answers on, and no session was made
        _, err = server.stop()
    assert "Traceback" not in err and " 500 " not in err and "ClientDisconnect" not in err, err


def test_a_refused_request_without_a_session_gets_no_session_id(shared_server: HttpServer) -> None:
    """Not an initialize, and no session named: refused, and no id of a session that never exists."""
    listed = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    reply = httpx.post(shared_server.url, json=listed, headers=JSON_HEADERS, timeout=10)
    assert reply.status_code == 400, reply.text
    assert "mcp-session-id" not in reply.headers, dict(reply.headers)
    assert shared_server.health()["sessions"] == 0


@pytest.mark.parametrize(
    ("header", "status"),
    [({"Host": "evil.example:80"}, 421), ({"Origin": "http://evil.example"}, 403)],
)
def test_a_foreign_host_or_origin_is_refused_and_its_value_not_logged(header: dict[str, str], status: int) -> None:
    with http_server() as server:
        reply = httpx.post(server.url, json=INITIALIZE, headers={**JSON_HEADERS, **header}, timeout=10)
        assert reply.status_code == status
        assert server.health()["sessions"] == 0
        _, err = server.stop()
    assert "evil.example" not in err and "(value not logged)" in err, err


@pytest.fixture(scope="module", params=["smart", "legacy"])
async def mode_client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ModeClient]:
    """A server in one mode over HTTP, and one session of it."""
    output = tmp_path_factory.mktemp("http-output")
    with http_server("--output-dir", str(output), mode=request.param) as server:
        async with http_client(server, request.param) as client:
            yield client


async def test_navigate_query_click_console_and_screenshot_over_http(mode_client: ModeClient, site_url: str) -> None:
    client = mode_client
    assert "Red" in await client.ok("navigate", url=f"{site_url}/red")
    found = await client.ok("query_elements", selector="button")
    assert '1 match "button"' in found and 'button#b "red"' in found, found
    await client.ok("click_element", selector="#b")
    assert "red says hi" in await client.ok("get_console_logs")
    assert await client.js("document.querySelector('#b').dataset.clicked") == "yes"
    shot = await client.call("browser_screenshot")
    assert not shot.is_error and [block.type for block in shot.content] == ["text", "image"]
    saved = await client.ok("browser_screenshot", path="shot.png")
    written = re.search(r"(/\S+shot\.png)", saved)
    assert written and Path(written[1]).parent.name.startswith("session-") and Path(written[1]).is_file(), saved


async def test_each_session_has_its_own_rate_limit() -> None:
    with http_server("--rate-limit", "2/600") as server:
        async with http_client(server) as eager, http_client(server) as other:
            for _ in range(2):
                await eager.ok("chrome_list_connections")
            kind, text = await eager.error("chrome_list_connections")
            assert "over its rate limit" in text, (kind, text)
            await other.ok("chrome_list_connections")


async def test_the_error_contract_is_the_same_as_on_stdio(mode_client: ModeClient) -> None:
    client = mode_client
    kind, text = await client.error("navigate", url="")
    assert kind == "VALIDATION" and "\n\nSuggestion: " in text
    result = await client.call("navigate", url="")
    assert (
        result.meta["cdpilot/recoverable"] is True
        and result.meta["cdpilot/toolName"] == spelled(client.mode, "navigate", {})[0]
    )
    with pytest.raises(MCPError) as info:
        await client.client.call_tool("no_such_tool", {})
    assert info.value.code == -32602 and info.value.message == "Unknown tool: no_such_tool"


async def test_progress_reaches_a_client_that_asks_over_http(mode_client: ModeClient, site_url: str) -> None:
    received: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, message))

    name, args = spelled(mode_client.mode, "navigate", {"url": f"{site_url}/slow"})
    result = await mode_client.client.call_tool(name, args, progress_callback=on_progress)
    assert not result.is_error and received and all(message for _, message in received), received
    assert [number for number, _ in received] == sorted({number for number, _ in received})


async def test_a_cancelled_call_gets_no_result_and_the_session_goes_on(
    shared_server: HttpServer, site_url: str
) -> None:
    """The call would time out after 2 s and answer with an error result on its own stream: once
    cancelled, the stream ends with the SDK's "Request cancelled" instead (over HTTP the POST that
    carried the call must end somehow), and the session still serves the next call."""
    async with httpx.AsyncClient(headers=JSON_HEADERS, timeout=30) as web:
        opened = await web.post(shared_server.url, json=INITIALIZE)
        web.headers["Mcp-Session-Id"] = opened.headers["mcp-session-id"]
        web.headers["Mcp-Protocol-Version"] = "2025-06-18"
        await web.post(shared_server.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"})

        def call(request_id: int, tool: str, meta: dict[str, Any], **arguments: Any) -> dict[str, Any]:
            params = {"name": tool, "arguments": arguments, "_meta": meta}
            return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}

        assert (await web.post(shared_server.url, json=call(1, "navigate", {}, url=f"{site_url}/red"))).is_success
        seen: list[dict[str, Any]] = []
        wait = call(2, "wait_for", {"progressToken": "w"}, selector="#never", timeout_ms=2000)
        with anyio.fail_after(20):
            async with web.stream("POST", shared_server.url, json=wait) as stream:
                async for line in stream.aiter_lines():
                    if line.startswith("data:"):
                        seen.append(json.loads(line.removeprefix("data:")))
                        if len(seen) == 1:  # under way: a progress notification came first
                            cancel = {"requestId": 2, "reason": "test"}
                            notice = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
                            assert (await web.post(shared_server.url, json=notice)).status_code == 202
        assert seen[0]["method"] == "notifications/progress"
        answers = [message for message in seen if message.get("id") == 2]
        assert answers == [{"jsonrpc": "2.0", "id": 2, "error": {"code": -32800, "message": "Request cancelled"}}]
        later = await web.post(shared_server.url, json=call(3, "list_targets", {}))
        assert later.is_success and "/red" in later.text
        await web.delete(shared_server.url)


def haproxy_config(lb_port: int, replicas: list[HttpServer]) -> str:
    """The HAProxy configuration of docs/deploy.md, listening on `lb_port`, in front of `replicas`."""
    text = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = text.split("```haproxy\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if not line.strip().startswith("server ")]
    servers = [f"    server r{n} 127.0.0.1:{replica.port} check inter 500ms" for n, replica in enumerate(replicas)]
    return "\n".join(lines).replace("bind :8080", f"bind 127.0.0.1:{lb_port}") + "\n" + "\n".join(servers) + "\n"


@contextmanager
def load_balancer(config: Path, port: int) -> Iterator[None]:
    """HAProxy in the foreground with `config`, listening on `port`."""
    with subprocess.Popen(["haproxy", "-db", "-f", str(config)], stderr=subprocess.PIPE, text=True) as lb:
        try:
            wait_until(lambda: lb.poll() is not None or reachable(port), "haproxy to listen")
            assert lb.poll() is None, lb.communicate()[1]
            yield
        finally:
            lb.terminate()
            lb.communicate(timeout=10)


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
async def test_replicas_behind_the_documented_haproxy_keep_each_session_on_its_replica(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    with (
        http_server("--host", "0.0.0.0", env={"CDPILOT_AUTH_TOKEN": token}) as first,
        http_server("--host", "0.0.0.0", env={"CDPILOT_AUTH_TOKEN": token}) as second,
    ):
        lb_port = free_port()
        config = tmp_path / "haproxy.cfg"
        config.write_text(haproxy_config(lb_port, [first, second]))
        with load_balancer(config, lb_port):
            front = f"http://127.0.0.1:{lb_port}/mcp"
            async with (
                http_client(front, token=token) as a,
                http_client(front, token=token) as b,
                http_client(front, token=token) as c,
                http_client(front, token=token) as d,
            ):
                for client in (a, b, c, d):
                    await client.ok("chrome_launch")
                for client in (a, b, c, d):  # every later request reaches the replica that holds the session
                    assert "context of the shared browser" in await client.ok("chrome_list_connections")
                    assert await client.js("1 + 1") == 2
                counts = [first.health()["sessions"], second.health()["sessions"]]
                assert sorted(counts) == [2, 2], counts  # leastconn spread the new sessions


async def test_tools_list_over_http_is_the_manifest_of_the_mode(mode_client: ModeClient) -> None:
    listed = await mode_client.client.list_tools()
    served = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
    manifest = json.loads(tools_list_json(mode_client.mode, None))["tools"]  # type: ignore[arg-type]
    assert [tool["name"] for tool in served] == [tool["name"] for tool in manifest]
    assert [tool["inputSchema"] for tool in served] == [tool["inputSchema"] for tool in manifest]
