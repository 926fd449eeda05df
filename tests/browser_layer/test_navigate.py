"""navigate() on a real Chromium (one browser shared by the module), pages served on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cdpilot.browser.page.loading import navigate
from cdpilot.browser.page.page_facts import LoadProgress
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, CdpTimeoutError, ExecutionError
from tests.support.pages import HANG_PATH

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def test_a_page_answers_url_title_and_status(browser: BrowserConnection, site: str) -> None:
    result = await navigate(browser, f"{site}/")
    assert (result.url, result.title, result.status, result.wait_until) == (f"{site}/", "Home page", 200, "load")
    assert 0 < result.elapsed_ms < 30000


async def test_a_missing_page_reports_404(browser: BrowserConnection, site: str) -> None:
    result = await navigate(browser, f"{site}/missing")
    assert (result.status, result.title) == (404, "Not here")


async def test_a_redirect_reports_where_it_ended(browser: BrowserConnection, site: str) -> None:
    result = await navigate(browser, f"{site}/moved")
    assert (result.url, result.status, result.title) == (f"{site}/second", 200, "Second")


async def test_a_page_without_title_has_an_empty_title(browser: BrowserConnection, site: str) -> None:
    assert (await navigate(browser, f"{site}/untitled")).title == ""


@pytest.mark.parametrize("wait_until", ["domcontentloaded", "networkidle"])
async def test_other_wait_conditions(browser: BrowserConnection, site: str, wait_until: str) -> None:
    result = await navigate(browser, f"{site}/busy", wait_until=wait_until)  # type: ignore[arg-type]
    assert (result.status, result.wait_until) == (200, wait_until)
    if wait_until == "networkidle":
        assert result.title == "Fetched"  # the page's own fetch finished before network idle


async def test_a_page_that_never_answers_times_out(browser: BrowserConnection, site: str) -> None:
    with pytest.raises(CdpTimeoutError, match=r"did not reach 'load' within 500 ms"):
        await navigate(browser, f"{site}{HANG_PATH}", timeout_ms=500)
    assert (await navigate(browser, f"{site}/second")).title == "Second"  # the page is usable again


async def test_a_committed_page_whose_load_never_ends_says_how_far_it_got(
    browser: BrowserConnection, site: str
) -> None:
    result = await navigate(browser, f"{site}/stuck", timeout_ms=800)
    assert (result.url, result.title, result.status) == (f"{site}/stuck", "Stuck", 200)
    assert result.unfinished == LoadProgress(800, True, (f"{site}{HANG_PATH}",), 1)
    assert (await navigate(browser, f"{site}/second")).unfinished is None


async def test_a_url_without_scheme_gets_http(browser: BrowserConnection, site: str) -> None:
    result = await navigate(browser, site.removeprefix("http://") + "/second")
    assert (result.url, result.status) == (f"{site}/second", 200)


async def test_a_hash_change_finishes_at_once(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/")
    result = await navigate(browser, f"{site}/#part-two")
    assert (result.url, result.title, result.status) == (f"{site}/#part-two", "Home page", None)


async def test_data_and_about_blank_have_no_status(browser: BrowserConnection) -> None:
    data = await navigate(browser, "data:text/html,<title>Inline</title><p>hi")
    assert (data.title, data.status) == ("Inline", None)
    blank = await navigate(browser, "about:blank")
    assert (blank.url, blank.title, blank.status) == ("about:blank", "", None)


async def test_a_refused_connection_is_an_execution_error(browser: BrowserConnection) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ExecutionError, match=r"Navigation failed: net::ERR_CONNECTION_REFUSED"):
        await navigate(browser, f"http://127.0.0.1:{port}/")


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "chrome://settings", "file:///etc/hostname"],
)
async def test_refused_urls_are_validation_errors_naming_url(browser: BrowserConnection, url: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        await navigate(browser, url)
    assert [problem.field for problem in caught.value.problems] == ["url"]


async def test_file_urls_work_when_allowed(browser: BrowserConnection, tmp_path: Path) -> None:
    page = tmp_path / "local.html"
    page.write_text("<title>Local file</title>")
    result = await navigate(browser, page.as_uri(), allow_file_urls=True)
    assert (result.url, result.title, result.status) == (page.as_uri(), "Local file", None)


async def test_the_connection_knows_where_its_page_is(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/second")
    assert (browser.target_url, browser.target_title) == (f"{site}/second", "Second")
    with browser.cdp.browser.listen("Target.targetInfoChanged") as changes:
        await browser.page.send("Runtime.evaluate", {"expression": "history.pushState(null, '', '/pushed')"})
        while browser.target_url != f"{site}/pushed":
            await changes.next()  # the URL follows the page's own navigations too


async def test_answers_of_several_mebibytes_cross_the_pipe(browser: BrowserConnection) -> None:
    reply = await browser.page.send(
        "Runtime.evaluate", {"expression": "'x'.repeat(5 * 1024 * 1024)", "returnByValue": True}
    )
    assert len(reply["result"]["value"]) == 5 * 1024 * 1024
