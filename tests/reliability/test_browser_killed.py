"""A launched browser SIGKILLed in the middle of a call: the call gets a CONNECTION error
within 2 s that says the connection was dropped, another connection of the same server is
unaffected, and relaunching works.

Calls go through the real registry in-process; the victim is killed, by the pid the launch
reported, once its call has sent the command it then waits on (a navigation that never loads,
a wait that never ends, a screenshot, a debugger pause request).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import pytest

from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.cdp import CdpSession
from cdpilot.context import Settings
from cdpilot.server.registry import Registry
from tests.reliability.conftest import Report
from tests.support.chromium import chrome_env
from tests.support.pages import HANG_PATH, serve_pages
from tests.support.registry import answer, in_process_registry
from tests.support.site import NOISE_PAGE, SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

ANSWER_BOUND_S = 2.0
# case: (tool, arguments, the CDP command whose sending puts the call in flight)
CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "navigate": ("navigate", {"url_path": HANG_PATH, "timeout_ms": 20000}, "Page.navigate"),
    "query (wait_for)": ("wait_for", {"selector": "#never", "timeout_ms": 20000}, "Runtime.evaluate"),
    "screenshot": ("browser_screenshot", {"format": "png", "path": "noise.png"}, "Page.captureScreenshot"),
    "paused debugger": ("debugger_pause", {"timeout_ms": 20000}, "Debugger.pause"),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages({**SITE, "/noise": NOISE_PAGE}) as base_url:
        yield base_url


@pytest.fixture(scope="module")
async def registry(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Registry]:
    connections = ConnectionManager(env=chrome_env())
    settings = Settings(output_dir=tmp_path_factory.mktemp("out"))  # not the process's kept temp dir
    try:
        yield in_process_registry(connections, "legacy", settings)
    finally:
        await connections.aclose()


def sent(conn: BrowserConnection, method: str, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Set once `conn` has sent a `method` command to its browser."""
    event = asyncio.Event()
    send_command = conn.cdp.send_command

    async def spy(name: str, params: Mapping[str, Any] | None, *, session: CdpSession, timeout_s: float) -> Any:
        if name == method:
            event.set()
        return await send_command(name, params, session=session, timeout_s=timeout_s)

    monkeypatch.setattr(conn.cdp, "send_command", spy)
    return event


async def launch(registry: Registry, connection_id: str) -> int:
    error, text = await answer(registry, "chrome_launch", connection_id=connection_id)
    assert error is None, text
    return int(text.split("pid=")[1].split()[0])


@pytest.mark.parametrize("case", list(CASES))
async def test_a_browser_killed_mid_call(
    case: str, registry: Registry, site: str, report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim_pid = await launch(registry, "victim")
    await launch(registry, "bystander")
    assert (await answer(registry, "navigate", url=f"{site}/", connection_id="bystander"))[0] is None
    assert (await answer(registry, "navigate", url=f"{site}/", connection_id="victim"))[0] is None
    tool, arguments, command = CASES[case]
    if "url_path" in arguments:
        arguments = {"url": site + arguments["url_path"], "timeout_ms": arguments["timeout_ms"]}
    if tool == "debugger_pause":
        assert (await answer(registry, "debugger_enable", connection_id="victim"))[0] is None
    if tool == "browser_screenshot":  # ~1 s to encode: the kill lands while Chrome is at it
        assert (await answer(registry, "navigate", url=f"{site}/noise", connection_id="victim"))[0] is None
        assert (await answer(registry, "browser_set_viewport", width=1600, height=1600, connection_id="victim"))[
            0
        ] is None

    command_sent = sent(registry.ctx.connections.get("victim"), command, monkeypatch)
    in_flight = asyncio.create_task(answer(registry, tool, connection_id="victim", **arguments))
    async with asyncio.timeout(10):
        await command_sent.wait()
    killed_at = time.monotonic()
    os.kill(victim_pid, signal.SIGKILL)
    async with asyncio.timeout(10):
        error, text = await in_flight
    took = time.monotonic() - killed_at
    bystander = await answer(registry, "evaluate_js", expression="6 * 7", connection_id="bystander")
    report.record(
        "browser_killed",
        **{f"{case}: error type": error, f"{case}: seconds after the kill": round(took, 2)},
    )
    assert error == "CONNECTION", text
    assert text.startswith(f"Connection 'victim' was dropped: its browser (pid {victim_pid}) died;"), text
    assert "victim" not in await answer(registry, "chrome_list_connections")  # dropped as it died
    assert took < ANSWER_BOUND_S
    assert bystander == (None, "42"), "the other connection was affected"

    relaunched = await launch(registry, "victim")  # the same id again: replaced cleanly
    assert relaunched != victim_pid
    assert await answer(registry, "evaluate_js", expression="1 + 1", connection_id="victim") == (None, "2")
    for connection_id in ("victim", "bystander"):
        assert (await answer(registry, "chrome_disconnect", connection_id=connection_id))[0] is None
