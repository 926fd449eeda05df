"""Targets and history navigation, in both modes, through the real server on a real Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.e2e.harness import ModeClient, browser_session
from tests.support.pages import serve_pages
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


@pytest.fixture(scope="module", params=["smart", "legacy"])
async def session(request: pytest.FixtureRequest) -> AsyncIterator[ModeClient]:
    async with browser_session(request.param) as client:
        yield client


async def test_tabs_open_switch_and_close(session: ModeClient, site_url: str) -> None:
    await session.ok("navigate", url=f"{site_url}/")
    opened = await session.ok("new_target", url=f"{site_url}/login")
    assert opened.startswith("Opened a new tab [1], now the current page.")
    assert "Loaded " in opened and "(HTTP 200). Title: Sign in" in opened
    assert await session.js("location.pathname") == "/login"

    listing = await session.ok("list_targets")
    assert listing.splitlines()[0] == "2 page(s), 0 other target(s); * = current page."
    assert listing.splitlines()[1].startswith(" [0] Home — http://127.0.0.1:")
    assert listing.splitlines()[2].startswith("*[1] Sign in — http://127.0.0.1:")

    await session.ok("switch_target", index=0)
    assert await session.js("document.title") == "Home"
    await session.ok("switch_target", title="SIGN")
    assert await session.js("document.title") == "Sign in"
    await session.ok("switch_target", url="*/")
    assert await session.js("location.pathname") == "/"

    closed = await session.ok("close_target")
    assert closed.startswith("Closed [0] Home.")
    assert await session.js("document.title") == "Sign in"
    listing = await session.ok("list_targets")
    assert listing.splitlines()[0].startswith("1 page(s)")

    # Closing the last page leaves a blank one rather than a browser with no page.
    await session.ok("close_target")
    assert await session.js("location.href") == "about:blank"


async def test_iframes_are_listed_but_not_numbered(session: ModeClient, site_url: str) -> None:
    await session.ok("navigate", url=f"{site_url}/frames")
    assert await session.js("document.querySelector('iframe').contentDocument.title") == "Inner"
    listing = await session.ok("list_targets")
    assert listing.splitlines()[0].startswith("1 page(s)")


async def test_switch_target_errors(session: ModeClient, site_url: str) -> None:
    kind, text = await session.error("switch_target", index=7)
    assert kind == "STATE" and text.startswith("No page with index 7. Pages: [0] ")
    spelled = 'target(action="list")' if session.mode == "smart" else "list_targets()"
    assert f"Suggestion: See every page with {spelled}." in text
    kind, text = await session.error("switch_target", index=0, title="x")
    assert kind == "VALIDATION" and "index/title/url: expected exactly one of them, got 2 given" in text
    kind, text = await session.error("switch_target")
    assert kind == "VALIDATION"
    assert "[0]" in await session.ok("list_targets")  # the session goes on


async def test_back_forward_and_reload(session: ModeClient, site_url: str) -> None:
    await session.ok("new_target")  # a tab with no history yet
    kind, text = await session.error("go_back")
    assert kind == "STATE" and "There is no page to go back to" in text
    await session.ok("navigate", url=f"{site_url}/")
    await session.ok("navigate", url=f"{site_url}/login")
    back = await session.ok("go_back")
    assert back.startswith(f"Went back to {site_url}/ (") and "Title: Home" in back
    assert await session.js("location.pathname") == "/"
    forward = await session.ok("go_forward")
    assert forward.startswith(f"Went forward to {site_url}/login (")
    assert await session.js("document.title") == "Sign in"

    await session.js("(window.__marker = 1)")
    reloaded = await session.ok("reload", ignore_cache=True)
    assert reloaded.startswith(f"Reloaded {site_url}/login (HTTP 200, load after ")
    assert await session.js("typeof window.__marker") == "undefined"  # a real reload: page state is gone
    kind, _ = await session.error("go_forward")
    assert kind == "STATE"
    await session.ok("close_target")


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", " JavaScript:alert(1)", "file:///etc/passwd", "chrome://version"]
)
async def test_refused_schemes_and_bad_timeouts(session: ModeClient, url: str) -> None:
    kind, text = await session.error("navigate", url=url)
    assert kind == "VALIDATION" and "url: " in text
    kind, text = await session.error("new_target", url=url)
    assert kind == "VALIDATION" and "url: " in text
    for timeout in (0, -5):
        kind, text = await session.error("navigate", url="http://127.0.0.1/", timeout_ms=timeout)
        assert kind == "VALIDATION" and f"timeout_ms: expected greater than or equal to 1, got {timeout}" in text
    assert (await session.ok("list_targets")).startswith("1 page(s)")


async def test_an_oversized_answer_is_refused_and_says_how_to_narrow(session: ModeClient) -> None:
    kind, text = await session.error("evaluate_js", expression="'x'.repeat(6000)")
    assert kind == "VALIDATION" and "The answer would be 6002 characters; the limit is 5000." in text
    spelled = "evaluate()" if session.mode == "smart" else "evaluate_js()"
    assert f"Suggestion: Narrow the request and call {spelled} again" in text
    assert await session.js("6 * 7") == 42
