"""Launching real Chromium: pipe only, the launch options, clean start-up failures, and no process,
profile or temp file left behind."""

from __future__ import annotations

import asyncio
import os
import signal
import ssl
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from cdpilot.browser.page.loading import navigate
from cdpilot.browser.page.tabs import new_target
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import find_browser, spawn_ahead
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.cdp import CdpSession
from cdpilot.errors import ArgumentError, BrowserConnectionError, render_parameter_references
from tests.support import readable
from tests.support.chromium import (
    TEST_CHROME_ARGS,
    chrome_env,
    cmdline_of,
    leftovers_of,
    listening_socket_inodes,
    no_processes_with,
    processes_with,
    socket_inodes_of,
    wait_gone,
)
from tests.support.pages import serve_pages

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def chromium_tmpdir(pid: int) -> Path:
    """The TMPDIR a browser process was started with."""
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    [value] = [entry.split(b"=", 1)[1] for entry in environ if entry.startswith(b"TMPDIR=")]
    return Path(value.decode())


def singleton_socket_dir(profile: Path) -> Path:
    """Where Chromium's singleton put its socket: a directory it makes under $TMPDIR (the profile's
    SingletonSocket links into it) and removes only when it exits cleanly."""
    return Path(os.readlink(profile / "SingletonSocket")).parent


async def page_value(page: CdpSession, expression: str) -> Any:
    reply = await page.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    return reply["result"]["value"]


class _SelfSignedPage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<title>Self-signed</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def self_signed_site(tmp_path: Path) -> Iterator[str]:
    """An HTTPS page on 127.0.0.1 with a certificate made just now, which no browser trusts."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    request = ("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1")
    subprocess.run((*request, "-keyout", str(key), "-out", str(cert)), check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SelfSignedPage)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, name="self-signed-site", daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


def script(tmp_path: Path, body: str) -> str:
    """A stand-in 'browser' executable for start-up failure tests."""
    path = tmp_path / "fake-browser"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


async def test_launch_speaks_over_the_pipe_and_opens_no_port(manager: ConnectionManager) -> None:
    info = await manager.launch(LaunchOptions(connection_id=None))
    assert (info.id, info.kind, info.endpoint, info.active, info.alive) == ("browser-1", "launched", "pipe", True, True)
    assert info.browser.startswith("Chrome/") and info.protocol_version == "1.3"
    assert (info.target_url, info.target_title) == ("about:blank", "about:blank")
    assert info.pid is not None and info.user_data_dir is not None
    assert os.path.basename(info.user_data_dir).startswith("cdpilot-profile-")
    args = cmdline_of(info.pid)
    assert "--remote-debugging-pipe" in args and not any(a.startswith("--remote-debugging-port") for a in args)
    assert set(TEST_CHROME_ARGS) <= set(args)
    tree = processes_with(info.user_data_dir)
    assert info.pid in tree
    listening = listening_socket_inodes()
    assert not [pid for pid in tree if socket_inodes_of(pid) & listening]


async def test_disconnect_ends_the_browser_and_removes_its_profile(manager: ConnectionManager) -> None:
    info = await manager.launch(LaunchOptions(connection_id="solo"))
    assert info.pid is not None and info.user_data_dir is not None
    closed = await manager.disconnect("solo")
    assert closed.id == "solo" and closed.active
    assert wait_gone([info.pid], timeout_s=5) == []
    assert leftovers_of(info.user_data_dir) == []
    assert manager.list() == [] and manager.active_id is None


async def test_a_given_profile_is_used_and_kept(manager: ConnectionManager, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    info = await manager.launch(LaunchOptions(connection_id=None, user_data_dir=str(profile)))
    assert info.user_data_dir == str(profile)
    await manager.disconnect(info.id)
    assert no_processes_with(str(profile))
    assert profile.is_dir() and any(profile.iterdir())


@pytest.mark.parametrize("ending", ["disconnect", "browser SIGKILLed", "kill_all_now"])
@pytest.mark.parametrize("profile_kind", ["temp profile", "given profile"])
async def test_chromium_temp_files_go_with_the_launch(
    manager: ConnectionManager, tmp_path: Path, profile_kind: str, ending: str
) -> None:
    """Chromium's TMPDIR is in a scratch dir of ours, gone once the browser is: the temp profile,
    or a dir of its own when a profile is given (that one is kept). So nothing is left in the
    system temp dir, not even the singleton's socket dir, which a killed Chromium cannot remove."""
    given = str(tmp_path / "profile") if profile_kind == "given profile" else None
    info = await manager.launch(LaunchOptions(connection_id="temp", user_data_dir=given))
    assert info.pid is not None and info.user_data_dir is not None
    profile = Path(info.user_data_dir)
    tmpdir = chromium_tmpdir(info.pid)
    scratch_dir = tmpdir.parent
    assert scratch_dir == profile if given is None else scratch_dir.name.startswith("cdpilot-scratch-")
    socket_dir = singleton_socket_dir(profile)
    assert socket_dir.parent == tmpdir and socket_dir.name.startswith("org.chromium.")
    if ending == "kill_all_now":
        manager.kill_all_now()
    else:
        if ending == "browser SIGKILLed":
            os.kill(info.pid, signal.SIGKILL)
            assert wait_gone([info.pid], timeout_s=5) == []
        await manager.disconnect("temp")
    assert wait_gone([info.pid], timeout_s=5) == []
    assert leftovers_of(str(scratch_dir)) == []
    assert not socket_dir.exists()
    assert profile.is_dir() == (given is not None)


@pytest.mark.parametrize("given", [None, (1024, 600)])
async def test_a_headless_page_sees_exactly_the_viewport(
    manager: ConnectionManager, given: tuple[int, int] | None
) -> None:
    """1280x720 by default; a tab cdpilot opens gets it too."""
    await manager.launch(LaunchOptions(None) if given is None else LaunchOptions(None, viewport=given))
    expected = list(given or (1280, 720))
    connection = manager.get(None)
    size = "[innerWidth, innerHeight]"
    assert await page_value(connection.page, size) == expected
    await new_target(connection)
    assert await page_value(connection.page, size) == expected


async def test_the_user_agent_proxy_and_certificate_options_are_honoured(
    manager: ConnectionManager, tmp_path: Path
) -> None:
    # The page server answers a proxy's request too: its path is the absolute URL. The host
    # resolves nowhere (test flags), so the page can only come through the proxy.
    proxied = {"http://through-the-proxy.test/": (200, "text/html", b"<title>Proxied</title>")}
    with serve_pages(proxied) as proxy, self_signed_site(tmp_path) as https_url:
        options = LaunchOptions(None, user_agent="cdpilot-test/1.0", proxy_server=proxy, ignore_https_errors=True)
        await manager.launch(options)
        connection = manager.get(None)
        assert await page_value(connection.page, "navigator.userAgent") == "cdpilot-test/1.0"
        assert (await navigate(connection, "http://through-the-proxy.test/")).title == "Proxied"
        assert (await navigate(connection, https_url)).title == "Self-signed"


async def test_a_headed_launch_without_a_display_fails_at_once() -> None:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "CDPILOT_CHROME_ARGS")
    manager = ConnectionManager(env={k: v for k, v in os.environ.items() if k not in hidden})
    with pytest.raises(BrowserConnectionError) as caught:
        await manager.launch(LaunchOptions(connection_id=None, headless=False))
    assert caught.value.message == (
        "Cannot start a headed browser: no display was found (neither DISPLAY nor WAYLAND_DISPLAY is set)."
    )
    assert "xvfb-run" in caught.value.suggestion
    assert manager.list() == []


async def test_launch_opens_the_start_url(manager: ConnectionManager) -> None:
    info = await manager.launch(LaunchOptions(connection_id=None, url="data:text/html,<title>Start</title>"))
    assert info.target_url == "data:text/html,<title>Start</title>"


async def test_a_refused_start_url_launches_nothing(manager: ConnectionManager) -> None:
    with pytest.raises(ArgumentError, match="javascript: URLs are not allowed"):
        await manager.launch(LaunchOptions(connection_id=None, url="javascript:alert(1)"))
    assert manager.list() == []


async def test_no_browser_found_says_how_to_install_one(tmp_path: Path) -> None:
    manager = ConnectionManager(env={"PATH": str(tmp_path)})
    with pytest.raises(BrowserConnectionError) as caught:
        await manager.launch(LaunchOptions(connection_id=None))
    assert "chromium, chromium-browser, google-chrome" in caught.value.message
    assert "apt-get install chromium" in caught.value.suggestion


@pytest.mark.parametrize("source", ["executable_path", "CDPILOT_CHROME_PATH"])
async def test_a_given_browser_that_is_not_executable_is_refused(tmp_path: Path, source: str) -> None:
    path = str(tmp_path / "no-such-chrome")
    env = {**chrome_env(), "CDPILOT_CHROME_PATH": path} if source == "CDPILOT_CHROME_PATH" else chrome_env()
    options = LaunchOptions(connection_id=None, executable_path=path if source == "executable_path" else None)
    named = "the executable path" if source == "executable_path" else source
    with pytest.raises(BrowserConnectionError, match=f"given by {named} .* is not an executable file"):
        await ConnectionManager(env=env).launch(options)


async def test_a_browser_that_dies_at_start_reports_its_exit_code_and_stderr(
    manager: ConnectionManager, tmp_path: Path
) -> None:
    fake = script(tmp_path, 'echo "cannot open display: nowhere" >&2\nexit 3')
    with pytest.raises(BrowserConnectionError) as caught:
        await manager.launch(LaunchOptions(connection_id=None, executable_path=fake))
    assert "stopped during start-up (exit code 3)" in caught.value.message
    assert "cannot open display: nowhere" in caught.value.message
    assert manager.list() == []


async def test_a_browser_that_never_answers_is_killed_after_the_timeout(
    manager: ConnectionManager, tmp_path: Path
) -> None:
    marker = f"--cdpilot-silent-{os.getpid()}"
    # A stand-in that keeps its pipes open and says nothing; its command line keeps our args.
    fake = script(
        tmp_path, f'echo "stuck loading the GPU" >&2; exec {sys.executable} -c "import time; time.sleep(300)" "$@"'
    )
    options = LaunchOptions(connection_id=None, executable_path=fake, extra_args=(marker,), timeout_ms=300)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(BrowserConnectionError, match=r"did not answer within 0\.3 s") as caught:
        await manager.launch(options)
    assert "Its last output:\nstuck loading the GPU" in caught.value.message  # what it was doing, if it said
    assert loop.time() - started < 5
    assert no_processes_with(marker)


async def test_invalid_chrome_args_in_the_environment_are_reported() -> None:
    manager = ConnectionManager(env={**chrome_env(), "CDPILOT_CHROME_ARGS": "--flag='unclosed"})
    with pytest.raises(BrowserConnectionError, match="CDPILOT_CHROME_ARGS is not valid shell words"):
        await manager.launch(LaunchOptions(connection_id=None))


async def test_kill_all_now_leaves_no_process_and_no_profile(manager: ConnectionManager) -> None:
    infos = [await manager.launch(LaunchOptions(connection_id=None)) for _ in range(2)]
    manager.kill_all_now()
    for info in infos:
        assert info.pid is not None and info.user_data_dir is not None
        assert wait_gone([info.pid], timeout_s=1) == []
        assert leftovers_of(info.user_data_dir) == []
    manager.kill_all_now()  # idempotent; aclose (fixture) still works afterwards


async def test_a_browser_killed_mid_call_fails_the_call_promptly_and_can_be_replaced(
    manager: ConnectionManager,
) -> None:
    info = await manager.launch(LaunchOptions(connection_id="victim"))
    assert info.pid is not None
    page = manager.get("victim").page
    hanging = asyncio.create_task(
        page.send("Runtime.evaluate", {"expression": "new Promise(() => {})", "awaitPromise": True})
    )
    await page.send("Runtime.enable")  # sent after it: once this answers, the evaluate is in flight
    os.kill(info.pid, signal.SIGKILL)
    async with asyncio.timeout(3):
        with pytest.raises(BrowserConnectionError, match="Lost the connection to the browser"):
            await hanging
    assert manager.list() == []  # dropped as its browser died, and said in the next answer:
    assert manager.ended_news() == [
        f"Connection 'victim' was dropped: its browser (pid {info.pid}) died; no browser is connected now."
    ]
    again = await manager.launch(LaunchOptions(connection_id="victim"))
    assert again.alive and again.pid != info.pid
    assert info.user_data_dir is not None and leftovers_of(info.user_data_dir) == []


async def test_a_crashed_page_fails_its_pending_call_and_navigation_revives_it(
    manager: ConnectionManager, site: str
) -> None:
    await manager.launch(LaunchOptions(connection_id=None))
    connection = manager.get(None)
    page = connection.page
    hanging = asyncio.create_task(
        page.send("Runtime.evaluate", {"expression": "new Promise(() => {})", "awaitPromise": True})
    )
    await page.send("Runtime.enable")  # answered after the evaluate was received
    with pytest.raises(BrowserConnectionError):  # the renderer dies before it can answer
        await page.send("Page.crash", timeout_s=5)
    async with asyncio.timeout(3):
        with pytest.raises(BrowserConnectionError, match="The page crashed"):
            await hanging
    assert (await navigate(connection, f"{site}/second")).title == "Second"


async def test_kill_all_now_during_a_launch_ends_it_cleanly(manager: ConnectionManager, tmp_path: Path) -> None:
    fifo = tmp_path / "spawned"
    os.mkfifo(fifo)
    # A stand-in that reports its arguments through the FIFO, then stays silent on its pipes.
    fake = script(tmp_path, f'echo "$@" > {fifo}\nexec {sys.executable} -c "import time; time.sleep(300)" "$@"')
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        launching = asyncio.create_task(manager.launch(LaunchOptions(connection_id=None, executable_path=fake)))
        await readable(reader)
        args = os.read(reader, 65536).decode().split()
    finally:
        os.close(reader)
    manager.kill_all_now()
    async with asyncio.timeout(5):
        with pytest.raises(BrowserConnectionError, match="stopped during start-up"):
            await launching
    assert manager.list() == []
    [profile] = [a.split("=", 1)[1] for a in args if a.startswith("--user-data-dir=")]
    assert leftovers_of(profile) == []


async def test_a_browser_started_ahead_is_the_one_the_first_launch_connects_to() -> None:
    """The head start of a stdio server's first page tool: the same process, not a second one."""
    options = LaunchOptions(extra_args=TEST_CHROME_ARGS)
    head = spawn_ahead(options, chrome_env())
    manager = ConnectionManager(env=chrome_env(), head_start=head)
    try:
        info = await manager.launch(options)
        assert info.pid == head.process.pid and head.process.process.poll() is None
        await manager.end_head_start()  # taken: nothing left to end
        assert head.process.process.poll() is None
    finally:
        await manager.aclose()
    assert wait_gone([head.process.pid], 10.0) == []


async def test_a_browser_started_ahead_for_other_options_is_ended_and_another_launched() -> None:
    head = spawn_ahead(LaunchOptions(extra_args=TEST_CHROME_ARGS), chrome_env())
    manager = ConnectionManager(env=chrome_env(), head_start=head)
    try:
        info = await manager.launch(LaunchOptions(extra_args=TEST_CHROME_ARGS, viewport=(800, 600)))
        assert info.pid != head.process.pid
        assert wait_gone([head.process.pid], 10.0) == []
    finally:
        await manager.aclose()


async def test_a_browser_started_ahead_that_no_launch_takes_is_ended() -> None:
    head = spawn_ahead(LaunchOptions(extra_args=TEST_CHROME_ARGS), chrome_env())
    manager = ConnectionManager(env=chrome_env(), head_start=head)
    await manager.end_head_start()
    assert wait_gone([head.process.pid], 10.0) == [] and not Path(head.process.plan.scratch_dir).exists()
    await manager.aclose()


@pytest.mark.parametrize("mode_takes_executable_path", [True, False], ids=["legacy", "smart"])
def test_no_browser_found_names_every_way_to_give_one(tmp_path: Path, mode_takes_executable_path: bool) -> None:
    """Smart mode's chrome tool does not take executable_path, so its sentence is left out there:
    the package, the server flag and the variable must still be said without it."""
    with pytest.raises(BrowserConnectionError) as caught:
        find_browser(None, {"PATH": str(tmp_path)})
    suggestion = render_parameter_references(caught.value.suggestion, lambda _tool, _name: mode_takes_executable_path)
    assert "`apt-get install chromium`" in suggestion
    assert "`--executable-path PATH` flag" in suggestion and "CDPILOT_CHROME_PATH variable" in suggestion
    assert ("takes one as executable_path" in suggestion) == mode_takes_executable_path
