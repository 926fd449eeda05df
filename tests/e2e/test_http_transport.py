"""The real server over Streamable HTTP (``--transport http``), with the SDK's HTTP client and a
real headless Chromium: sessions isolated from each other, browsers closed whichever way a
session ends, the session limit, the token, the Host and Origin checks, and a clean SIGTERM.

Each server gets a marker among its Chromium flags and a TMPDIR of its own, so its browser
processes and temp profiles can be counted apart from those of every other test.
"""

from __future__ import annotations

import os
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
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.e2e.harness import ModeClient, text_of
from tests.support.chromium import TEST_CHROME_ARGS, processes_with
from tests.support.pages import serve_pages

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def colour_page(name: str) -> tuple[int, str, bytes]:
    """A page titled `name` whose button logs "<name> says hi" to the console."""
    html = f"<title>{name.title()}</title><button id=b onclick=\"console.log('{name} says hi')\">{name}</button>"
    return 200, "text/html", html.encode()


PAGES = {"/red": colour_page("red"), "/blue": colour_page("blue")}
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
    server: HttpServer, mode: str = "legacy", *, token: str | None = None, delete: bool = True
) -> AsyncIterator[ModeClient]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(60, read=300)) as web,
        Client(
            streamable_http_client(server.url, http_client=web, terminate_on_close=delete),
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
def shared_server() -> Iterator[HttpServer]:
    with http_server("--max-sessions", "3") as server:
        yield server


async def test_two_concurrent_sessions_each_see_only_their_own_browser(
    shared_server: HttpServer, site_url: str
) -> None:
    async with http_client(shared_server) as red, http_client(shared_server) as blue:

        async def visit(client: ModeClient, page: str) -> None:
            await client.ok("chrome_launch")
            await client.ok("navigate", url=f"{site_url}/{page}")
            await client.ok("click_element", selector="#b")

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(visit, red, "red")
            tasks.start_soon(visit, blue, "blue")
        assert shared_server.health()["browsers"] == 2
        for client, mine, theirs in ((red, "red", "blue"), (blue, "blue", "red")):
            assert await client.js("location.pathname") == f"/{mine}"
            targets = await client.ok("list_targets")
            assert f"/{mine}" in targets and f"/{theirs}" not in targets
            connections = await client.ok("chrome_list_connections")
            assert connections.count("launched Chrome") == 1, connections
            console = await client.ok("get_console_logs")
            assert f"{mine} says hi" in console and f"{theirs} says hi" not in console
            network = await client.ok("list_network_requests")
            assert f"/{mine}" in network and f"/{theirs}" not in network
        # The other session's connection is unknown here: it can be neither switched to nor closed.
        kind, text = await blue.error("chrome_switch_connection", connection_id="browser-2")
        assert "browser-2" in text, (kind, text)
        kind, _ = await blue.error("chrome_disconnect", connection_id="browser-2")
        assert await red.js("document.title") == "Red"


async def test_ending_a_session_by_delete_closes_its_browser(shared_server: HttpServer) -> None:
    before = len(shared_server.browsers())
    async with http_client(shared_server) as client:
        await client.ok("chrome_launch")
        assert len(shared_server.browsers()) > before
    wait_until(lambda: len(shared_server.browsers()) == before, "the session's Chromium to end")
    assert shared_server.health()["sessions"] == 0


async def test_the_session_limit_refuses_one_more_with_503_and_the_others_go_on(shared_server: HttpServer) -> None:
    async with http_client(shared_server) as first, http_client(shared_server), http_client(shared_server):
        assert shared_server.health()["sessions"] == 3
        reply = httpx.post(shared_server.url, json=INITIALIZE, headers=JSON_HEADERS, timeout=10)
        assert reply.status_code == 503 and "Too many open sessions" in reply.text
        await first.ok("list_connections" if first.mode == "smart" else "chrome_list_connections")
    assert shared_server.proc.poll() is None


async def test_an_idle_session_is_ended_and_its_browser_closed() -> None:
    with http_server("--session-idle-timeout", "1") as server:
        async with http_client(server, delete=False) as client:  # gone without a DELETE
            await client.ok("chrome_launch")
            assert len(server.browsers()) > 0
        wait_until(lambda: not server.browsers() and server.health()["sessions"] == 0, "the idle session to end")
        assert server.profiles() == []


async def test_sigterm_with_active_sessions_leaves_no_chromium_and_no_profile() -> None:
    with http_server() as server:
        async with http_client(server, delete=False) as one, http_client(server, delete=False) as two:
            await one.ok("chrome_launch")
            await two.ok("chrome_launch")
            assert len(server.profiles()) == 2
            status, err = await anyio.to_thread.run_sync(server.stop)
        assert status == 0, err
        assert server.browsers() == [] and server.profiles() == []


async def test_a_token_is_required_on_a_non_loopback_bind_and_never_logged() -> None:
    token = "s3cret-" + uuid.uuid4().hex
    with http_server("--host", "0.0.0.0", env={"CDPILOT_AUTH_TOKEN": token}) as server:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": token}):
            reply = httpx.post(server.url, json=INITIALIZE, headers={**JSON_HEADERS, **headers}, timeout=10)
            assert reply.status_code == 401, reply.text
        assert server.health()["sessions"] == 0
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


@pytest.mark.parametrize(
    ("header", "status"),
    [({"Host": "evil.example:80"}, 421), ({"Origin": "http://evil.example"}, 403)],
)
def test_a_foreign_host_or_origin_is_refused(shared_server: HttpServer, header: dict[str, str], status: int) -> None:
    reply = httpx.post(shared_server.url, json=INITIALIZE, headers={**JSON_HEADERS, **header}, timeout=10)
    assert reply.status_code == status
    assert shared_server.health()["sessions"] == 0
