"""Finding a local Chrome to attach to, against a real Chromium started with a DevTools port.

Chromium writes ``DevToolsActivePort`` into its user data directory, so the standalone
browser's profile is a user data directory like any other to `find_local_browser`.
"""

from __future__ import annotations

import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cdpilot.browser.session.auto_connect import find_local_browser
from cdpilot.errors import BrowserConnectionError
from tests.support.chromium import StandaloneChromium

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


@pytest.fixture(scope="module")
def running(standalone: StandaloneChromium) -> StandaloneChromium:
    """The standalone browser once its ``DevToolsActivePort`` is written, which Chromium does
    a moment after it reports its websocket URL. Polled, with a deadline."""
    port_file = Path(standalone.profile_dir) / "DevToolsActivePort"
    deadline = time.monotonic() + 10
    while not (port_file.exists() and "/devtools/browser/" in port_file.read_text()):
        assert time.monotonic() < deadline, "Chromium wrote no DevToolsActivePort"
        time.sleep(0.01)
    return standalone


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 that refuses connections: bound by us, so nobody else takes it,
    and never listening."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def user_data_dir(path: Path, port_file: str) -> Path:
    """A user data directory whose ``DevToolsActivePort`` holds `port_file`."""
    path.mkdir(parents=True)
    (path / "DevToolsActivePort").write_text(port_file)
    return path


async def test_a_browser_is_found_through_its_devtools_active_port(
    running: StandaloneChromium, tmp_path: Path, closed_port: int
) -> None:
    dirs = [tmp_path / "no-browser-here", Path(running.profile_dir)]
    assert await find_local_browser(profile_dirs=dirs, default_port=closed_port) == running.ws_url


async def test_a_stale_devtools_active_port_is_skipped(
    running: StandaloneChromium, tmp_path: Path, closed_port: int
) -> None:
    crashed = user_data_dir(tmp_path / "crashed", f"{closed_port}\n/devtools/browser/gone\n")
    dirs = [crashed, Path(running.profile_dir)]
    assert await find_local_browser(profile_dirs=dirs, default_port=closed_port) == running.ws_url


async def test_without_a_devtools_active_port_the_default_port_is_asked(running: StandaloneChromium) -> None:
    assert await find_local_browser(profile_dirs=[], default_port=running.port) == running.ws_url


async def test_the_usual_user_data_dirs_follow_xdg_config_home(
    running: StandaloneChromium, tmp_path: Path, closed_port: int
) -> None:
    chromium = tmp_path / "config" / "chromium"
    chromium.mkdir(parents=True)
    shutil.copy(Path(running.profile_dir) / "DevToolsActivePort", chromium)
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    assert await find_local_browser(env=env, default_port=closed_port) == running.ws_url


async def test_nothing_found_names_every_place_it_looked(tmp_path: Path, closed_port: int) -> None:
    config = tmp_path / "home" / ".config"
    user_data_dir(config / "google-chrome", "not a port file")
    user_data_dir(config / "chromium", f"{closed_port}\n/devtools/browser/gone")
    with pytest.raises(BrowserConnectionError) as caught:
        await find_local_browser(env={"HOME": str(tmp_path / "home")}, default_port=closed_port, timeout_s=1)
    lines = caught.value.message.splitlines()
    assert lines[0] == "No local Chrome with remote debugging was found. Looked at:"
    assert lines[1:] == [
        f"- {config}/google-chrome/DevToolsActivePort: unreadable (expected a port, then a /devtools/browser/ path)",
        f"- {config}/google-chrome-beta/DevToolsActivePort: no such file",
        f"- {config}/google-chrome-unstable/DevToolsActivePort: no such file",
        f"- {config}/chromium/DevToolsActivePort: nothing accepts connections on port {closed_port} "
        "(left by a browser that ended)",
        f"- {tmp_path}/home/snap/chromium/common/chromium/DevToolsActivePort: no such file",
        f"- http://127.0.0.1:{closed_port}/json/version: Cannot reach a browser at 127.0.0.1:{closed_port} "
        "(connection refused)",
    ]
    assert "--remote-debugging-port=9222" in caught.value.suggestion
    assert "--browser-url" in caught.value.suggestion
