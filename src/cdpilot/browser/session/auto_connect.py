"""Find a Chrome already running on this machine with remote debugging on, to attach to.

A Chrome with remote debugging writes ``DevToolsActivePort`` into its user data directory:
the port on line 1, the browser's websocket path (``/devtools/browser/<id>``) on line 2.
The file stays behind when the browser crashes, so a port is only trusted once something
accepts a connection on it. Failing every file, the conventional port 9222 is asked for its
``/json/version``.

A port from a file is checked with a bare TCP connection, not by opening the websocket or
asking ``/json/version``: a Chrome whose debugging was switched on from its own settings page
(rather than by a flag) may serve the websocket only, and ask its user to allow each
websocket connection, so a check through the websocket would prompt them twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from cdpilot.cdp import discover_websocket_url
from cdpilot.errors import BrowserConnectionError

HOST = "127.0.0.1"
PORT_FILE = "DevToolsActivePort"
LINUX_CONFIG_DIRS = ("google-chrome", "google-chrome-beta", "google-chrome-unstable", "chromium")
MACOS_APP_SUPPORT_DIRS = ("Google/Chrome", "Google/Chrome Beta", "Google/Chrome Canary", "Chromium")
NOT_FOUND_HINT = (
    "Start Chrome with --remote-debugging-port=9222 (and a --user-data-dir of its own), "
    "or pass --browser-url http://127.0.0.1:PORT for a browser listening elsewhere."
)


async def find_local_browser(
    *,
    profile_dirs: Sequence[Path] | None = None,
    env: Mapping[str, str] | None = None,
    default_port: int = 9222,
    timeout_s: float = 2.0,
) -> str:
    """The browser websocket URL of a local Chrome with remote debugging on.

    `profile_dirs` are the user data directories to look in, in order (default: those of
    Chrome's channels and Chromium for this platform, found from $HOME and $XDG_CONFIG_HOME
    in `env`). Raises `BrowserConnectionError` naming every place it looked."""
    environ = os.environ if env is None else env
    looked: list[str] = []
    for profile_dir in default_profile_dirs(environ) if profile_dirs is None else profile_dirs:
        port_file = Path(profile_dir) / PORT_FILE
        try:
            port, path = read_port_file(port_file)
        except FileNotFoundError:
            looked.append(f"{port_file}: no such file")
            continue
        except (OSError, ValueError) as exc:
            looked.append(f"{port_file}: unreadable ({exc})")
            continue
        if await _accepts_connections(port, timeout_s):
            return f"ws://{HOST}:{port}{path}"
        looked.append(f"{port_file}: nothing accepts connections on port {port} (left by a browser that ended)")
    try:
        return await discover_websocket_url(HOST, default_port, timeout_s=timeout_s)
    except BrowserConnectionError as exc:
        looked.append(f"http://{HOST}:{default_port}/json/version: {exc.message}")
    raise BrowserConnectionError(
        "No local Chrome with remote debugging was found. Looked at:\n" + "\n".join(f"- {place}" for place in looked),
        suggestion=NOT_FOUND_HINT,
    )


def default_profile_dirs(env: Mapping[str, str]) -> list[Path]:
    """The default user data directories of Chrome's channels and of Chromium, by platform."""
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "darwin":
        support = home / "Library" / "Application Support"
        return [support / name for name in MACOS_APP_SUPPORT_DIRS]
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    return [*(config / name for name in LINUX_CONFIG_DIRS), home / "snap" / "chromium" / "common" / "chromium"]


def read_port_file(port_file: Path) -> tuple[int, str]:
    """The port and browser path in a ``DevToolsActivePort`` file; ValueError if it holds neither."""
    lines = [line.strip() for line in port_file.read_text(encoding="utf-8", errors="replace").splitlines()]
    if len(lines) < 2 or not lines[0].isdigit() or not lines[1].startswith("/devtools/browser/"):
        raise ValueError("expected a port, then a /devtools/browser/ path")
    port = int(lines[0])
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is out of range")
    return port, lines[1]


async def _accepts_connections(port: int, timeout_s: float) -> bool:
    try:
        async with asyncio.timeout(timeout_s):
            _, writer = await asyncio.open_connection(HOST, port)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True
