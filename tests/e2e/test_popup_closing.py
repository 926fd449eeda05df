"""A popup that closes itself, as a sign-in popup does once it has posted its result to its opener: through the
real server in both modes, on a real Chromium. The click that closes it is no failure, the opener becomes the
current page, and the tools go on working there; closing "the current page" once it is gone says so."""

from __future__ import annotations

import anyio
import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    "/shop": (
        200,
        "text/html",
        html(
            "Shop",
            """<button id="login" onclick="window.open('/sign-in', 'auth', 'width=400,height=400')">Log in</button>
<button id="login-form" onclick="window.open('/sign-in-form', 'auth', 'width=400,height=400')">Log in by code</button>
<p id="token">none</p>
<script>addEventListener("message", (e) => { document.getElementById("token").textContent = e.data; });</script>""",
        ),
    ),
    "/sign-in": (
        200,
        "text/html",
        html(
            "Sign in",
            """<button id="allow" onclick="opener.postMessage('token-123', '*'); window.close()">Allow</button>""",
        ),
    ),
    "/sign-in-form": (
        200,
        "text/html",
        html(
            "Sign in by code",
            """<form onsubmit="opener.postMessage(this.code.value, '*'); window.close(); return false">
<input id="code" name="code"></form>""",
        ),
    ),
}


async def open_popup(client: ModeClient, site_url: str, button: str = "#login", path: str = "/sign-in") -> None:
    """The shop, its sign-in popup opened by a click (the click's answer says so), and the popup made current."""
    await client.ok("navigate", url=f"{site_url}/shop")
    text = await client.ok("click_element", selector=button)
    assert "Opened a new page [1] " in text and f" at {site_url}{path}" in text, text
    await client.ok("switch_target", index=1)


async def test_a_click_that_closes_its_popup_goes_back_to_the_opener(client: ModeClient, site_url: str) -> None:
    await open_popup(client, site_url)
    text = await client.ok("click_element", selector="#allow")
    assert text == (
        f'Clicked #allow; the tab closed itself ("Sign in" {site_url}/sign-in); the current page is now [0] "Shop" '
        f"{site_url}/shop."
    ), text
    await client.ok("wait_for", texts=["token-123"])  # the message is a task of its own in the opener
    assert "*[0] Shop" in await client.ok("list_targets")
    await client.ok("click_element", selector="#login")  # the tools go on working on the opener
    assert "[1] " in await client.ok("list_targets")
    await client.ok("close_target", index=1)


async def test_closing_the_current_page_once_it_closed_itself_says_so(client: ModeClient, site_url: str) -> None:
    await open_popup(client, site_url)
    await client.ok("evaluate_js", expression="setTimeout(() => window.close()), 'closing'")
    with anyio.fail_after(10):  # until the browser has closed it
        while True:
            if "[1] " not in await client.ok("list_targets"):
                break
            await anyio.sleep(0.05)
    kind, text = await client.error("close_target")
    assert kind == "STATE", text
    assert text.startswith(
        f'Nothing was closed: the current page, "Sign in" ({site_url}/sign-in), had already closed itself. The '
        f'current page is now [0] "Shop" ({site_url}/shop).'
    ), text
    assert await client.js("document.title") == "Shop"


async def test_a_key_that_submits_and_closes_its_popup_goes_back_to_the_opener(
    client: ModeClient, site_url: str
) -> None:
    await open_popup(client, site_url, "#login-form", "/sign-in-form")
    await client.ok("fill_element", selector="#code", text="token-456")
    text = await client.ok("press_key", key="Enter", selector="#code")
    assert text == (
        f'Pressed Enter in #code; the tab closed itself ("Sign in by code" {site_url}/sign-in-form); the current '
        f'page is now [0] "Shop" {site_url}/shop.'
    ), text
    await client.ok("wait_for", texts=["token-456"])
    assert "*[0] Shop" in await client.ok("list_targets")


async def test_a_fill_that_submits_and_closes_its_popup_goes_back_to_the_opener(
    client: ModeClient, site_url: str
) -> None:
    await open_popup(client, site_url, "#login-form", "/sign-in-form")
    text = await client.ok("fill_element", selector="#code", text="token-789", submit=True)
    assert text == (
        f'Filled #code with 9 characters and pressed Enter; the tab closed itself ("Sign in by code" '
        f'{site_url}/sign-in-form); the current page is now [0] "Shop" {site_url}/shop.'
    ), text
    await client.ok("wait_for", texts=["token-789"])
    assert "*[0] Shop" in await client.ok("list_targets")
