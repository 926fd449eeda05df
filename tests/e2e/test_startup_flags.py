"""Start-up settings through the real server: each reaches the browser, from a flag, a variable
or a config file, and a setting that cannot be honoured is said by the first call that needs it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.e2e.harness import ModeClient, mcp_client, server_env
from tests.support.chromium import standalone_chromium, wait_gone
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

CROSS_ORIGIN_PAGE = """<!doctype html><title>Mixed</title><p id=out>waiting</p><script>
const other = location.origin.replace("127.0.0.1", "localhost");
fetch(other + "/pixel").then(() => "loaded", () => "failed")
  .then(outcome => { document.querySelector("#out").textContent = outcome; });
</script>"""
PAGES = {
    **SITE,
    "/mixed": (200, "text/html", CROSS_ORIGIN_PAGE.encode()),
    "/pixel": (200, "text/plain", b"pixel", {"Access-Control-Allow-Origin": "*"}),
}


@asynccontextmanager
async def server(*args: str, env: Mapping[str, str] | None = None) -> AsyncIterator[ModeClient]:
    """The real server in smart mode with these flags, and these variables over the test ones."""
    async with mcp_client("smart", *args, env=env) as client:
        yield ModeClient(client, "smart")


async def test_a_flag_wins_over_a_variable_which_wins_over_the_config_file(tmp_path: Path, site_url: str) -> None:
    config = tmp_path / "cdpilot.json"
    config.write_text(json.dumps({"viewport": "1024x600", "user_agent": "from-the-file", "rate_limit": "0"}))
    env = {"CDPILOT_CONFIG": str(config), "CDPILOT_VIEWPORT": "900x500"}
    async with server("--viewport", "800x600", env=env) as client:
        await client.ok("navigate", url=f"{site_url}/")
        assert await client.js("[innerWidth, innerHeight, navigator.userAgent]") == [800, 600, "from-the-file"]
    async with server(env=env) as client:
        await client.ok("navigate", url=f"{site_url}/")
        assert await client.js("[innerWidth, innerHeight]") == [900, 500]


async def test_a_headed_browser_without_a_display_is_refused_clearly(site_url: str) -> None:
    env = {name: value for name, value in server_env("smart").items() if name not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["CDPILOT_CHROME_ARGS"] = "--no-sandbox"  # the test flags carry --headless; this browser must not get it
    params = StdioServerParameters(command=sys.executable, args=["-m", "cdpilot.cli", "--headed"], env=env)
    async with Client(params, read_timeout_seconds=60) as raw:
        client = ModeClient(raw, "smart")
        error, text = await client.error("navigate", url=f"{site_url}/")
    assert error == "CONNECTION"
    assert "no display was found" in text, text
    assert "xvfb-run" in text, text


async def test_an_executable_that_is_not_there_is_named(tmp_path: Path, site_url: str) -> None:
    missing = tmp_path / "no-chrome-here"
    async with server(env={"CDPILOT_CHROME_PATH": str(missing)}) as client:
        error, text = await client.error("navigate", url=f"{site_url}/")
    assert error == "CONNECTION"
    assert str(missing) in text, text


async def test_a_given_profile_is_used_and_kept(tmp_path: Path, site_url: str) -> None:
    profile = tmp_path / "profile"
    async with server("--user-data-dir", str(profile)) as client:
        first = await client.ok("navigate", url=f"{site_url}/")
        assert first.startswith("Launched headless"), first
        assert (profile / "Local State").is_file()  # the browser runs on it
    assert (profile / "Local State").is_file() and (profile / "Default").is_dir()  # and it is kept


async def test_auto_connect_finds_a_local_browser_through_its_devtools_active_port(
    tmp_path: Path, site_url: str
) -> None:
    with standalone_chromium() as chromium:
        home = tmp_path / "home"
        (home / ".config" / "chromium").mkdir(parents=True)
        path = chromium.ws_url.split(str(chromium.port), 1)[1]
        (home / ".config" / "chromium" / "DevToolsActivePort").write_text(f"{chromium.port}\n{path}\n")
        async with server("--auto-connect", env={"HOME": str(home), "XDG_CONFIG_HOME": ""}) as client:
            first = await client.ok("navigate", url=f"{site_url}/")
            assert first.startswith("Attached to ") and chromium.ws_url in first.splitlines()[0], first
            listed = await client.ok("chrome_list_connections")
            assert "connected" in listed and "launched" not in listed, listed
        assert wait_gone([chromium.pid], timeout_s=0.5) == [chromium.pid]  # an attached browser is left running


@pytest.mark.parametrize("flags", [("--blocked-origins", "localhost:*"), ("--allowed-origins", "127.0.0.1:*")])
async def test_origins_are_refused_for_navigation_and_for_the_pages_own_requests(
    flags: tuple[str, str], site_url: str
) -> None:
    other = site_url.replace("127.0.0.1", "localhost")
    async with server(*flags) as client:
        error, text = await client.error("navigate", url=f"{other}/")
        assert error == "VALIDATION" and "Refused to navigate" in text and flags[0] in text, text
        assert "No connections" in await client.ok("chrome_list_connections")  # refused before any launch
        await client.ok("navigate", url=f"{site_url}/mixed")
        await client.ok("wait_for", texts=["failed"], timeout_ms=5000)
        listed = await client.ok("list_network_requests", url_pattern="pixel")
        assert f"BLOCKED ({flags[0]})" in listed, listed


async def test_without_origin_flags_the_same_request_loads(site_url: str) -> None:
    async with server() as client:
        await client.ok("navigate", url=f"{site_url}/mixed")
        await client.ok("wait_for", texts=["loaded"], timeout_ms=5000)
