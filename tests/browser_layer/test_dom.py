"""The DOM layer on a real Chromium: resolve_element (what the input tools act on), queries and waits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cdpilot.browser.dom.query import resolve_element, wait_for
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, StateError
from tests.support.pages import serve_pages
from tests.support.site import SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    **SITE,
    "/moving": (200, "text/html", html("Moving", "<script>setTimeout(() => location.href = '/welcome', 100)</script>")),
    "/nested": (
        200,
        "text/html",
        html(
            "Nested",
            """<button class="b">first</button><div id="outer"></div><button class="b">last</button>
<iframe id="f" src="/frame-content"></iframe>
<script>
  const outer = document.getElementById("outer").attachShadow({mode: "open"});
  outer.innerHTML = '<button class="b">outer</button><span id="inner-host"></span>';
  outer.getElementById("inner-host").attachShadow({mode: "open"}).innerHTML = '<button class="b">deep</button>';
</script>""",
        ),
    ),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


async def text_via(conn: BrowserConnection, object_id: str) -> str:
    """The element's text, read through its object id as the input tools would use it."""
    reply = await conn.page.send(
        "Runtime.callFunctionOn",
        {"objectId": object_id, "functionDeclaration": "function() { return this.textContent }", "returnByValue": True},
    )
    return str(reply["result"]["value"])


async def test_resolve_finds_the_login_submit_button(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/login")
    handle = await resolve_element(browser, "button[type=submit]", 0)
    assert (handle.description, handle.match_count, handle.index, handle.where) == (
        'button.btn.primary "Sign in"',
        1,
        0,
        "",
    )
    assert handle.session is browser.page
    assert await text_via(browser, handle.object_id) == "Sign in"
    quads = await browser.page.send("DOM.getContentQuads", {"objectId": handle.object_id})
    assert quads["quads"], "the object id is usable with DOM commands"


async def test_resolve_counts_shadow_roots_and_frames_in_document_order(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/nested")  # the load event waits for the iframe too
    texts = [await text_via(browser, (await resolve_element(browser, "button", i)).object_id) for i in range(5)]
    assert texts == ["first", "outer", "deep", "last", "In frame"]
    deep = await resolve_element(browser, ".b", 2)
    assert deep.where == "shadow root of div#outer > shadow root of span#inner-host"
    framed = await resolve_element(browser, "#frame-btn", 0)
    assert (framed.where, framed.description) == ("iframe#f", 'button#frame-btn "In frame"')


async def test_resolve_counts_hidden_matches(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/hidden")
    handle = await resolve_element(browser, ".action", 1)
    assert (handle.match_count, handle.description) == (6, 'button#none-btn "Display none"')


async def test_resolve_errors(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/hidden")
    with pytest.raises(StateError, match="No element matches"):
        await resolve_element(browser, "#nothing-here", 0)
    with pytest.raises(StateError, match="index 7 is out of range: 6 elements match"):
        await resolve_element(browser, ".action", 7)
    with pytest.raises(ArgumentError) as caught:
        await resolve_element(browser, "button[", 0)
    assert caught.value.problems[0].field == "selector"
    assert "not a valid selector" in caught.value.problems[0].given
    assert (await resolve_element(browser, "#visible-btn", 0)).match_count == 1


async def test_wait_survives_a_navigation(browser: BrowserConnection, site: str) -> None:
    await navigate(browser, f"{site}/moving")
    result = await wait_for(browser, selector="#welcome", state="visible", texts=None, timeout_ms=5000)
    assert result.found == 'h1#welcome "Signed in"'
