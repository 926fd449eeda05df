"""Where a click in a cross-origin iframe landed, as the click's retry decides it: the frame's
own window sees the mousedown, on the element or not at all (a real Chromium, the iframe in a
target of its own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cdpilot.browser.dom.element_input import actionable_point, arm_landing, landed, send_mouse
from cdpilot.browser.dom.query import resolve_element
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from tests.support.pages import PageSpec, serve_pages
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES: dict[str, PageSpec] = {
    "/": (
        200,
        "text/html",
        html(
            "Outer",
            '<p id="outside" style="height:60px">outside</p><iframe id="pay" width="300" height="120"></iframe>'
            "<script>document.getElementById('pay').src = 'http://localhost:' + location.port + '/pay';</script>",
        ),
    ),
    "/pay": (200, "text/html", html("Pay", '<button id="buy">Buy</button><p id="note">note</p>')),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


async def click_at(conn: BrowserConnection, x: float, y: float) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        await send_mouse(conn, {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


async def test_a_click_on_the_element_lands_and_one_beside_the_frame_does_not(
    browser: BrowserConnection, site: str
) -> None:
    await navigate(browser, f"{site}/")
    buy = await resolve_element(browser, "#buy", 0)
    assert buy.frames and buy.session is not browser.page, "the button must be in the iframe's own target"
    x, y = await actionable_point(browser, buy, 5000, need_enabled=True)

    await arm_landing(browser, buy)
    await click_at(browser, 5, 5)  # the page around the frame: the frame never sees it
    assert await landed(browser, buy) is False

    note = await resolve_element(browser, "#note", 0)
    await arm_landing(browser, buy)
    note_x, note_y = await actionable_point(browser, note, 5000, need_enabled=False)
    await click_at(browser, note_x, note_y)  # inside the frame, on another element
    assert await landed(browser, buy) is False

    await arm_landing(browser, buy)
    await click_at(browser, x, y)
    assert await landed(browser, buy) is True
