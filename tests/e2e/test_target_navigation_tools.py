"""Targets and history navigation, in both modes, through the real server on a real Chromium."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


PAGES = SITE


async def test_tabs_open_switch_and_close(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    opened = await client.ok("new_target", url=f"{site_url}/login")
    assert opened.startswith("Opened a new tab [1], now the current page.")
    assert "Loaded " in opened and "(HTTP 200). Title: Sign in" in opened
    assert await client.js("location.pathname") == "/login"

    listing = await client.ok("list_targets")
    assert listing.splitlines()[0] == "2 page(s), 0 other target(s); * = current page."
    assert listing.splitlines()[1].startswith(" [0] Home — http://127.0.0.1:")
    assert listing.splitlines()[2].startswith("*[1] Sign in — http://127.0.0.1:")

    await client.ok("switch_target", index=0)
    assert await client.js("document.title") == "Home"
    await client.ok("switch_target", title="SIGN")
    assert await client.js("document.title") == "Sign in"
    await client.ok("switch_target", url="*/")
    assert await client.js("location.pathname") == "/"

    closed = await client.ok("close_target")
    assert closed.startswith("Closed [0] Home.")
    assert await client.js("document.title") == "Sign in"
    listing = await client.ok("list_targets")
    assert listing.splitlines()[0].startswith("1 page(s)")

    # Closing the last page leaves a blank one rather than a browser with no page.
    await client.ok("close_target")
    assert await client.js("location.href") == "about:blank"


async def test_iframes_are_listed_but_not_numbered(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/frames")
    assert await client.js("document.querySelector('iframe').contentDocument.title") == "Inner"
    listing = await client.ok("list_targets")
    assert listing.splitlines()[0].startswith("1 page(s)")


async def test_switch_target_errors(client: ModeClient, site_url: str) -> None:
    kind, text = await client.error("switch_target", index=7)
    assert kind == "STATE" and text.startswith("No page with index 7. Pages: [0] ")
    spelled = 'target(action="list")' if client.mode == "smart" else "list_targets()"
    assert f"Suggestion: See every page with {spelled}." in text
    kind, text = await client.error("switch_target", index=0, title="x")
    assert kind == "VALIDATION" and "index/title/url: expected exactly one of them, got 2 given" in text
    kind, text = await client.error("switch_target")
    assert kind == "VALIDATION"
    assert "[0]" in await client.ok("list_targets")  # the session goes on


async def test_back_forward_and_reload(client: ModeClient, site_url: str) -> None:
    await client.ok("new_target")  # a tab with no history yet
    kind, text = await client.error("go_back")
    assert kind == "STATE" and "There is no page to go back to" in text
    await client.ok("navigate", url=f"{site_url}/")
    await client.ok("navigate", url=f"{site_url}/login")
    back = await client.ok("go_back")
    assert back.startswith(f"Went back to {site_url}/ (") and "Title: Home" in back
    assert await client.js("location.pathname") == "/"
    forward = await client.ok("go_forward")
    assert forward.startswith(f"Went forward to {site_url}/login (")
    assert await client.js("document.title") == "Sign in"

    await client.js("(window.__marker = 1)")
    cacheless = {} if await client.refused_in_smart("reload", ignore_cache=True) else {"ignore_cache": True}
    reloaded = await client.ok("reload", **cacheless)
    assert reloaded.startswith(f"Reloaded {site_url}/login (HTTP 200, load after ")
    assert await client.js("typeof window.__marker") == "undefined"  # a real reload: page state is gone
    kind, _ = await client.error("go_forward")
    assert kind == "STATE"
    await client.ok("close_target")


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", " JavaScript:alert(1)", "file:///etc/passwd", "chrome://version"]
)
async def test_refused_schemes_and_bad_timeouts(client: ModeClient, url: str) -> None:
    kind, text = await client.error("navigate", url=url)
    assert kind == "VALIDATION" and "url: " in text
    kind, text = await client.error("new_target", url=url)
    assert kind == "VALIDATION" and "url: " in text
    for timeout in (0, -5):
        kind, text = await client.error("navigate", url="http://127.0.0.1/", timeout_ms=timeout)
        assert kind == "VALIDATION" and f"timeout_ms: expected greater than or equal to 1, got {timeout}" in text
    assert (await client.ok("list_targets")).startswith("1 page(s)")


async def test_an_oversized_answer_is_cut_and_says_how_to_read_the_rest(client: ModeClient) -> None:
    text = await client.ok("evaluate_js", expression="'x'.repeat(6000)")
    assert len(text) <= 5000 and text.startswith('"xxx')
    assert "(Cut: the value is a string of 6000 characters; the answer shows the first " in text
    assert await client.js("6 * 7") == 42
