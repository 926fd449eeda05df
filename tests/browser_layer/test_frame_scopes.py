"""Frame-scoped selector prefixes on a real Chromium: `frame_scope_prefix` names each frame as
the element tools reach it, whether Chromium keeps it in the page's process (another origin of
the same site, opaque) or gives it a target of its own (another site), nested too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cdpilot.browser.dom.query import resolve_element, wait_for
from cdpilot.browser.frames.frame_search import frame_scope_prefix
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpSession
from tests.support.pages import serve_pages
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

TOP = html(
    "Top",
    """<iframe id="same" src="/leaf"></iframe><iframe id="pay"></iframe>
<iframe id="opaque" src="data:text/html,x"></iframe>
<script>
const other = new URLSearchParams(location.search).get("other");
document.getElementById("pay").src = "http://127.0.0.1:" + other + "/middle?top=" + location.port;
</script>""",
)
MIDDLE = html(
    "Middle",
    """<iframe id="inner"></iframe>
<script>
const topPort = new URLSearchParams(location.search).get("top");
document.getElementById("inner").src = "http://localhost:" + topPort + "/leaf";
</script>""",
)
PAGES = {
    "/top": (200, "text/html", TOP),
    "/middle": (200, "text/html", MIDDLE),
    "/leaf": (200, "text/html", html("Leaf", '<button id="go">Go</button>')),
}


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[str, str]]:
    with serve_pages(PAGES) as site, serve_pages(PAGES) as other:
        yield site, other


async def frame_id(session: CdpSession, expression: str) -> str:
    """The frame id of the iframe element `expression` evaluates to in `session`'s document."""
    element = await session.send("Runtime.evaluate", {"expression": expression})
    return str((await session.send("DOM.describeNode", {"objectId": element["result"]["objectId"]}))["node"]["frameId"])


async def test_each_frame_has_the_prefix_the_element_tools_take(
    browser: BrowserConnection, sites: tuple[str, str]
) -> None:
    site, other = sites
    await navigate(browser, f"{site}/top?other={other.rsplit(':', 1)[1]}")
    deepest = "iframe#pay >> iframe#inner >> #go"
    await wait_for(browser, selector=deepest, state="attached", texts=None, timeout_ms=10000)
    page = browser.page
    pay = await frame_id(page, "document.getElementById('pay')")
    assert await frame_scope_prefix(browser, pay) == "iframe#pay >> "
    assert await frame_scope_prefix(browser, await frame_id(page, "document.getElementById('opaque')")) == (
        "iframe#opaque >> "
    )
    handle = await resolve_element(browser, deepest, 0)
    inner = handle.frames[-1].frame_id  # the cross-site frame's own target
    assert await frame_scope_prefix(browser, inner) == "iframe#pay >> iframe#inner >> "
    assert await frame_scope_prefix(browser, await frame_id(page, "document.getElementById('same')")) == ""
    assert await frame_scope_prefix(browser, "no-such-frame") == ""
