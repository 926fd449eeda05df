"""Connection tools and navigate through the real server, in both modes, on a real Chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import mcp_client, text_of
from tests.support.chromium import StandaloneChromium, standalone_chromium

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    "/": (200, "text/html", b"<title>Home page</title><h1>home</h1>"),
    "/missing": (404, "text/html", b"<title>Not here</title>"),
}

# The smart and legacy spelling of the same call.
CALLS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "smart": {
        "launch": ("chrome", {"action": "launch"}),
        "connect": ("chrome", {"action": "connect"}),
        "list": ("chrome", {"action": "list"}),
        "switch": ("chrome", {"action": "switch"}),
        "disconnect": ("chrome", {"action": "disconnect"}),
        "navigate": ("navigate", {}),
    },
    "legacy": {
        "launch": ("chrome_launch", {}),
        "connect": ("chrome_connect", {}),
        "list": ("chrome_list_connections", {}),
        "switch": ("chrome_switch_connection", {}),
        "disconnect": ("chrome_disconnect", {}),
        "navigate": ("navigate", {}),
    },
}


@pytest.fixture(scope="module")
def running_browser() -> Iterator[StandaloneChromium]:
    """A browser someone else started, with a DevTools port, for connect."""
    with standalone_chromium() as browser:
        yield browser


def normalise(text: str) -> str:
    """Blank out what differs between two runs: process ids, timings, ports."""
    text = re.sub(r"pid=\d+", "pid=N", text)
    text = re.sub(r"after \d+ ms", "after N ms", text)
    text = re.sub(r"/devtools/browser/[0-9a-f-]+", "/devtools/browser/ID", text)
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)


def profile_of(pid: int) -> Path:
    args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    [flag] = [a for a in args if a.startswith(b"--user-data-dir=")]
    return Path(flag.split(b"=", 1)[1].decode())


async def session(mode: str, site_url: str, running: StandaloneChromium) -> list[str]:
    """The same story in either mode; returns every answer, normalised."""
    calls = CALLS[mode]
    answers: list[str] = []

    async with mcp_client(mode) as client:

        async def call(step: str, **arguments: Any) -> str:
            tool, base = calls[step]
            result = await client.call_tool(tool, {**base, **arguments})
            text = text_of(result)
            assert not result.is_error, text
            answers.append(normalise(text))
            return text

        first = await call("launch")
        assert "as connection 'browser-1' (now active)" in first
        pid = int(re.search(r"pid=(\d+)", first).group(1))  # type: ignore[union-attr]
        profile = profile_of(pid)
        assert profile.is_dir()
        second = await call("launch", connection_id="second")
        assert "as connection 'second' (now active)" in second

        listing = await call("list")
        assert listing.startswith("2 connection(s):")
        assert re.search(r"^browser-1 launched Chrom", listing, re.M)
        assert re.search(r"^second \[active\] launched Chrom", listing, re.M)

        await call("switch", connection_id="browser-1")
        done = await call("navigate", url=f"{site_url}/")
        assert f"Navigated to {site_url}/ (HTTP 200, load after" in done
        assert "Title: Home page" in done
        missing = await call("navigate", url=f"{site_url}/missing", connection_id="second")
        assert "(HTTP 404," in missing

        listing = await call("list")
        assert re.search(r'^browser-1 \[active\].*\n  page: "Home page" http://127', listing, re.M)

        bye = await call("disconnect")
        assert (
            bye == "Disconnected 'browser-1' (closed the browser and removed its temp profile). "
            "Active connection: 'second'."
        )
        assert not profile.exists()
        assert not Path(f"/proc/{pid}").exists()
        await call("disconnect")
        assert (await call("list")).startswith("No connections.")

        attached = await call("connect", port=running.port, connection_id="ext")
        assert "as connection 'ext' (now active)" in attached
        assert f"endpoint=ws://127.0.0.1:{running.port}/devtools/browser/" in attached
        assert "Navigated to" in await call("navigate", url=f"{site_url}/")
        await call("navigate", url="about:blank")  # leave the shared browser as we found it
        assert await call("disconnect") == "Disconnected 'ext' (detached). No connections left."
        assert Path(f"/proc/{running.pid}").exists(), "disconnect must not end a browser we did not launch"
    return answers


async def test_smart_and_legacy_connection_tools_behave_the_same(
    site_url: str, running_browser: StandaloneChromium
) -> None:
    assert await session("smart", site_url, running_browser) == await session("legacy", site_url, running_browser)
