"""Hangs a page can cause: every call ends with the right error type within its deadline,
no CDP command is left pending, and the next call works.

Calls go through the real registry in-process (the same pipeline the stdio server runs),
so the suite can read the CDP connection's pending-command count after each case.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.context import Settings
from cdpilot.server.registry import Registry
from tests.reliability.conftest import Report
from tests.support.chromium import chrome_env
from tests.support.pages import serve_pages
from tests.support.registry import answer, in_process_registry
from tests.support.site import NOISE_PAGE, SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

SETTLE_S = 3.0  # a stalled command is released by its own deadline (≤ the call's timeout + 1 s)
PAGES = {**SITE, "/noise": NOISE_PAGE}


class Session:
    """One registry over one launched browser, with the figures a case needs."""

    def __init__(self, registry: Registry, connections: ConnectionManager, report: Report) -> None:
        self.registry = registry
        self.connections = connections
        self.report = report

    async def call(self, tool: str, **arguments: Any) -> tuple[str | None, str, float]:
        """(error type or None, text, seconds) of one call."""
        started = time.monotonic()
        error, text = await answer(self.registry, tool, **arguments)
        return error, text, time.monotonic() - started

    async def pending_after_settling(self) -> int:
        """CDP commands still unanswered once stalled ones have had their deadline."""
        return await self.connections.get(None).cdp.drained(SETTLE_S)

    async def settled(self, name: str) -> None:
        pending = await self.pending_after_settling()
        self.report.record("hangs", **{f"{name}: CDP commands pending after": pending})
        assert pending == 0, name

    async def case(self, name: str, tool: str, expected: str | None, within_s: float, **arguments: Any) -> str:
        """Run one hanging call, check its outcome and bound, and that the next call works."""
        error, text, took = await self.call(tool, **arguments)
        follow_error, follow_text, _ = await self.call("evaluate_js", expression="6 * 7")
        figures = {f"{name}: error type": error or "none", f"{name}: seconds": round(took, 2)}
        if expected != "STATE":  # a blocked page holds its stalled command until the block ends
            figures[f"{name}: CDP commands pending after"] = await self.pending_after_settling()
        self.report.record("hangs", **figures)
        assert error == expected, (name, text)
        assert took < within_s, f"{name} took {took:.1f}s"
        if expected != "STATE":  # a dialog or pause still holds the page: the follow-up is that case's business
            assert follow_error is None and follow_text == "42", (name, follow_text)
        return text


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


@pytest.fixture(scope="module")
async def session(report: Report, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Session]:
    connections = ConnectionManager(env=chrome_env())
    settings = Settings(output_dir=tmp_path_factory.mktemp("out"))  # not the process's kept temp dir
    registry = in_process_registry(connections, "legacy", settings)
    try:
        error, text, _ = await Session(registry, connections, report).call("chrome_launch")
        assert error is None, text
        yield Session(registry, connections, report)
    finally:
        await connections.aclose()


async def test_an_endless_loop_and_a_promise_that_never_settles(session: Session, site: str) -> None:
    await session.call("navigate", url=site + "/")
    await session.case("endless loop", "evaluate_js", "EXECUTION", 3, expression="while (true) {}", timeout_ms=1000)
    await session.case(
        "unsettled promise", "evaluate_js", "EXECUTION", 3, expression="new Promise(() => {})", timeout_ms=1000
    )


async def test_an_open_alert(session: Session, site: str) -> None:
    await session.call("navigate", url=site + "/")
    text = await session.case("open alert", "evaluate_js", "STATE", 3, expression="alert('stuck')")
    assert 'An alert dialog is open: "stuck".' in text
    error, text, took = await session.call("query_elements", selector="h1")
    assert error == "STATE" and took < 3 and "handle_dialog()" in text
    error, _, _ = await session.call("handle_dialog", accept=True)
    assert error is None
    error, text, took = await session.call("evaluate_js", expression="6 * 7")
    assert (error, text) == (None, "42") and took < 3
    await session.settled("open alert, once answered")


async def test_a_page_paused_in_the_debugger(session: Session, site: str) -> None:
    await session.call("navigate", url=site + "/")
    await session.call("debugger_enable")
    try:
        error, text, took = await session.call("evaluate_js", expression="(() => { debugger; return 1 })()")
        assert error is None and "Paused (debugger statement)" in text and took < 3
        await session.case("paused: click", "click_element", "STATE", 3, selector="h1")
        await session.case("paused: wait_for", "wait_for", "STATE", 3, selector="#never", timeout_ms=20000)
        error, _, _ = await session.call("debugger_resume")
        assert error is None
        await session.settled("debugger pause, once resumed")
    finally:
        await session.call("debugger_disable")


async def test_a_crashed_tab(session: Session, site: str) -> None:
    await session.call("navigate", url=site + "/")
    page = session.connections.get(None).page
    with pytest.raises(Exception, match=r"crashed|closed"):  # the renderer dies before it can answer
        await page.send("Page.crash", timeout_s=5)
    error, text, took = await session.call("query_elements", selector="h1")
    session.report.record("hangs", **{"crashed tab: error type": error, "crashed tab: seconds": round(took, 2)})
    assert error == "CONNECTION" and "The page crashed" in text and "reload()" in text and took < 2
    error, text, _ = await session.call("save_pdf", path="crashed.pdf")
    assert error == "CONNECTION" and "The page crashed" in text, text
    error, text, _ = await session.call("reload")
    assert error is None, text
    error, text, took = await session.call("evaluate_js", expression="6 * 7")
    assert (error, text) == (None, "42") and took < 3


async def test_a_closed_tab(session: Session, site: str) -> None:
    conn = session.connections.get(None)
    await conn.cdp.browser.send("Target.closeTarget", {"targetId": conn.page.target_id})
    error, text, took = await session.call("query_elements", selector="h1")
    session.report.record("hangs", **{"closed tab: error type": error, "closed tab: seconds": round(took, 2)})
    assert error == "CONNECTION" and "The tab was closed" in text and "new_target()" in text and took < 2
    error, text, _ = await session.call("new_target", url=site + "/")
    assert error is None, text
    error, text, took = await session.call("evaluate_js", expression="6 * 7")
    assert (error, text) == (None, "42") and took < 3


async def test_a_seven_megabyte_screenshot_is_scaled_inline_and_saved_whole_to_a_file(
    session: Session, site: str
) -> None:
    await session.call("navigate", url=site + "/noise")
    await session.call("browser_set_viewport", width=1600, height=1600)
    text = await session.case("7 MB screenshot inline", "browser_screenshot", None, 20, format="png")
    assert "scaled to" in text and "path=" in text, text
    error, text, _ = await session.call("browser_screenshot", format="png", path="noise.png")
    assert error is None and "Saved screenshot" in text, text
    size_mb = int(text.split(", png, ")[1].split(" bytes")[0].replace(",", "")) / 1_000_000
    session.report.record("hangs", **{"7 MB screenshot: size MB": size_mb})
    assert size_mb > 5
