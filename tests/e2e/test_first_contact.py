"""First contact as a new user makes it: no launch step, no debugger step, arguments checked first.

Each test starts its own server, since what is tested is what happens before any browser exists.
"""

from __future__ import annotations

import re
import shlex
import uuid
from typing import Any

import anyio
import pytest
from cdpilot_generated.catalog import DISPATCH
from cdpilot_generated.manifests import MODES, Mode

from tests.e2e.harness import ModeClient, mcp_client, spelled, text_of
from tests.support.chromium import TEST_CHROME_ARGS, cmdline_of, processes_with, standalone_chromium
from tests.support.debug_site import DEBUG_PAGES, line_of
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {**SITE, **DEBUG_PAGES}
LAUNCHED = re.compile(r"^Launched headless \S+ as 'browser-1': no browser was connected \(cdpilot --no-auto-launch")


def marked() -> tuple[str, dict[str, str]]:
    """A flag every Chromium of one server gets, and the server environment that gives it."""
    marker = f"--cdpilot-test-server={uuid.uuid4().hex}"
    return marker, {"CDPILOT_CHROME_ARGS": shlex.join((*TEST_CHROME_ARGS, marker))}


def browser_processes(marker: str) -> list[int]:
    """The browser processes (not their helpers) started with `marker`."""
    return [pid for pid in processes_with(marker) if "--type=" not in " ".join(cmdline_of(pid))]


@pytest.mark.parametrize("mode", MODES)
async def test_the_first_navigate_launches_a_browser_and_says_so_once(mode: Mode, site_url: str) -> None:
    marker, env = marked()
    async with mcp_client(mode, env=env) as raw:
        client = ModeClient(raw, mode)
        first = await client.ok("navigate", url=f"{site_url}/")
        lines = first.splitlines()
        assert LAUNCHED.match(lines[0]), first
        (browser,) = browser_processes(marker)  # the one started as the call arrived: no second
        assert f"pid={browser}" in await client.ok("chrome_list_connections")
        assert "Navigated" in lines[1] or site_url in lines[1], first
        again = await client.ok("navigate", url=f"{site_url}/")
        assert not again.startswith("Launched"), again
        assert await client.js("[innerWidth, innerHeight]") == [1280, 720]
        listed = await client.ok("chrome_list_connections")
        assert "1 connection(s)" in listed and "launched" in listed, listed


@pytest.mark.parametrize("mode", MODES)
async def test_a_breakpoint_needs_no_launch_and_no_enable(mode: Mode, site_url: str) -> None:
    async with mcp_client(mode) as raw:
        client = ModeClient(raw, mode)
        text = await client.ok(
            "debugger_set_breakpoint", url=f"{site_url}/static/app.js", line_number=line_of("compute-first")
        )
        lines = text.splitlines()
        assert LAUNCHED.match(lines[0]), text
        assert lines[1].startswith("Debugger enabled on "), text
        await client.ok("navigate", url=f"{site_url}/debug")
        await client.ok("click_element", selector="#compute")
        stack = await client.stack_once_paused()
        assert "app.js" in stack, stack
        await client.ok("debugger_resume")


@pytest.mark.parametrize("mode", MODES)
async def test_no_auto_launch_keeps_the_explicit_launch(mode: Mode, site_url: str) -> None:
    async with mcp_client(mode, "--no-auto-launch") as raw:
        client = ModeClient(raw, mode)
        error, text = await client.error("navigate", url=f"{site_url}/")
        assert error == "CONNECTION"
        assert text.startswith("No browser is connected."), text
        assert "No connections" in await client.ok("chrome_list_connections")


# Arguments the schema accepts but a handler refuses; each must be refused before a browser starts.
REFUSED_BY_HANDLERS: list[tuple[str, dict[str, Any], str]] = [
    ("navigate", {"url": "javascript:alert(1)"}, "url"),
    ("navigate", {"url": "file:///etc/passwd"}, "url"),
    ("new_target", {"url": "javascript:alert(1)"}, "url"),
    ("switch_target", {"index": 0, "title": "x"}, "index/title/url"),
    ("switch_target", {}, "index/title/url"),
    ("debugger_set_breakpoint", {"line_number": 1}, "url"),
    ("debugger_set_breakpoint", {"url_regex": "(", "line_number": 1}, "url_regex"),
    ("debugger_search_sources", {"query": "(", "regex": True}, "query"),
    ("select_option", {"selector": "select", "value": "a", "label": "b"}, "value"),
    ("inspect_element", {}, "description"),
    ("wait_for", {}, "selector | texts"),
    ("press_key", {"key": "Hyper+NoSuchKey"}, "key"),
    ("browser_screenshot", {"path": "../outside.png"}, "path"),
    ("get_network_request", {"request_id": "1", "save_body_to": "/etc/x"}, "save_body_to"),
    ("chrome_connect", {"host": "example.com"}, "host"),
]


def smart_form_exists(mode: Mode, tool: str) -> bool:
    try:
        spelled(mode, tool, {})
    except KeyError:
        return False
    return True


@pytest.mark.parametrize("mode", MODES)
async def test_validation_comes_first_for_every_tool_and_starts_no_browser(mode: Mode) -> None:
    marker, env = marked()
    async with mcp_client(mode, env=env) as raw:
        client = ModeClient(raw, mode)
        refused = await raw.call_tool("navigate", {"no_such_parameter": 1})  # a first call, refused:
        assert refused.is_error and browser_processes(marker) == []  # the browser started ahead is gone
        listed = await raw.list_tools()
        assert {tool.name for tool in listed.tools} == set(DISPATCH[mode])
        for tool in listed.tools:
            result = await raw.call_tool(tool.name, {"no_such_parameter": 1})
            assert result.is_error, (tool.name, text_of(result))
            assert result.meta is not None and result.meta["cdpilot/errorType"] == "VALIDATION", (
                tool.name,
                text_of(result),
            )
        for granular, arguments, field in REFUSED_BY_HANDLERS:
            if not smart_form_exists(mode, granular):
                continue
            error, text = await client.error(granular, **arguments)
            assert error == "VALIDATION", (granular, arguments, text)
            assert field in text, (granular, text)
        assert "No connections" in await client.ok("chrome_list_connections")


@pytest.mark.parametrize("how", ["--browser-url", "--ws-endpoint"])
async def test_attach_flags_make_the_first_page_tool_connect(how: str, site_url: str) -> None:
    with standalone_chromium() as chromium:
        where = f"http://127.0.0.1:{chromium.port}" if how == "--browser-url" else chromium.ws_url
        async with mcp_client("smart", how, where) as raw:
            client = ModeClient(raw, "smart")
            first = await client.ok("navigate", url=f"{site_url}/")
            assert re.match(rf"^Attached to \S+ at {re.escape(where)} as 'browser-1'", first), first
            listed = await client.ok("chrome_list_connections")
            assert "connected" in listed and "launched" not in listed, listed


@pytest.mark.parametrize("mode", MODES)
async def test_a_breakpoint_while_a_dialog_is_open_says_so_at_once(mode: Mode, site_url: str) -> None:
    """Turning the debugger on waits for the page's script thread, which an open dialog holds."""
    async with mcp_client(mode) as raw:
        client = ModeClient(raw, mode)
        await client.ok("navigate", url=f"{site_url}/dialogs")
        await client.ok("click_element", selector="#alert-btn")
        with anyio.fail_after(10):
            error, text = await client.error(
                "debugger_set_breakpoint", url=f"{site_url}/static/app.js", line_number=line_of("compute-first")
            )
        assert error == "STATE" and "dialog" in text.lower(), text
        await client.ok("handle_dialog", accept=True)
        text = await client.ok(
            "debugger_set_breakpoint", url=f"{site_url}/static/app.js", line_number=line_of("compute-first")
        )
        assert text.startswith("Debugger enabled on "), text
