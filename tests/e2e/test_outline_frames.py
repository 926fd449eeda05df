"""The page outline in frames of every origin, through the real server in both modes.

The page (127.0.0.1, one port) holds a same-origin iframe, one from another origin of the same
site (127.0.0.1 on a second server's port: Chromium keeps it in the page's process, with no
target of its own), one from another site (localhost: a target of its own), and below a tall
spacer a second same-site one. The frames of another origin hold the same form, whose ids are the
page's too, so only a frame-scoped selector (`iframe#pay >> #card`) names one of their controls:
the outline must print those, and each must work as printed in click_element and fill_element.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.frame_sites import nested_frame_pages, open_with_frames
from tests.e2e.harness import ModeClient
from tests.support.pages import serve_pages
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

TOP = html(
    "Checkout",
    """<main><h1>Checkout</h1><input id="card" aria-label="Top card"><button id="go">Top pay</button>
<iframe id="same" title="Same"></iframe>
<iframe id="pay" title="Pay"></iframe>
<iframe id="xsite" title="Xsite"></iframe>
<div style="height: 3000px">spacer</div>
<iframe id="low" title="Low"></iframe></main>
<script>
const here = location.port, other = new URLSearchParams(location.search).get("other");
const sources = {
  same: "/same.html",
  pay: "http://127.0.0.1:" + other + "/card.html",
  xsite: "http://localhost:" + here + "/card.html",
  low: "http://127.0.0.1:" + other + "/card.html",
};
for (const [id, src] of Object.entries(sources)) document.getElementById(id).src = src + "?in=" + id;
</script>""",
)
CARD = html(
    "Card",
    """<form aria-label="Card"><input id="card" aria-label="Card number">
<button id="go" type="button" onclick="this.textContent = 'Paid'">Pay now</button></form>""",
)
SAME = html(
    "Same",
    """<input id="coupon" aria-label="Coupon">
<button id="apply" type="button" onclick="this.textContent = 'Applied'">Apply</button>""",
)
PAGES = {
    "/top": (200, "text/html", TOP),
    # Nested: a same-site frame of another origin (in the page's process) holding a cross-site one (a target of
    # its own), both holding the form.
    **nested_frame_pages(
        before="",
        outer='title="Outer" width="500" height="300"',
        middle="""<button id="go" type="button" onclick="this.textContent = 'Paid'">Pay now</button>\n""",
        inner='title="Inner" width="400" height="200"',
    ),
    "/card.html": (200, "text/html", CARD),
    "/same.html": (200, "text/html", SAME),
}
FRAMES = ["same", "pay", "xsite", "low"]


@pytest.fixture(scope="module")
def other_url() -> Iterator[str]:
    """The same pages on a second port of 127.0.0.1: another origin of the same site."""
    with serve_pages(PAGES) as base_url:
        yield base_url


LINE = re.compile(r'^(?P<indent> *)(?P<role>\S+) "(?P<name>[^"]*)"(?: = "[^"]*")?(?: (?P<sel>[^(]+?))?(?: \(.*\))?$')


def selectors_in(text: str) -> dict[str, dict[str, str]]:
    """The selector of each named control of the outline, by the title of the iframe holding it ("" for the page)."""
    found: dict[str, dict[str, str]] = {}
    frames: list[tuple[int, str]] = []
    for line in text.splitlines()[1:]:
        m = LINE.match(line)
        if m is None:
            continue
        depth = len(m["indent"])
        frames = [(d, title) for d, title in frames if d < depth]
        if m["role"] == "iframe":
            frames.append((depth, m["name"]))
        elif m["sel"]:
            found.setdefault(frames[-1][1] if frames else "", {})[m["name"]] = m["sel"]
    return found


async def in_frame(client: ModeClient, frame: str, expression: str) -> Any:
    """`expression` evaluated in the iframe `frame` of another origin, through evaluate_js's frame-scoped form."""
    return await client.js(f"iframe#{frame} >> {expression}")


async def test_every_frame_is_outlined_with_selectors_that_work_as_printed(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    text = await client.ok("page_outline")
    assert len(text) < 5000
    other, here = other_url.rsplit(":", 1)[1], site_url.rsplit(":", 1)[1]
    assert text.splitlines() == [
        'Outline of "Checkout" (10 controls; role "name" = value [state] selector):',
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.",
        "main body > main",
        '  h1 "Checkout"',
        '    textbox "Top card" input[aria-label="Top card"]',
        '    button "Top pay" body > main > button',
        '    iframe "Same" #same',
        '      textbox "Coupon" #coupon',
        '      button "Apply" #apply',
        f'    iframe "Pay" #pay (cross-origin: http://127.0.0.1:{other}/card.html?in=pay)',
        '      form "Card" iframe#pay >> form[aria-label="Card"]',
        '        textbox "Card number" iframe#pay >> #card',
        '        button "Pay now" iframe#pay >> #go',
        f'    iframe "Xsite" #xsite (cross-origin: http://localhost:{here}/card.html?in=xsite)',
        '      form "Card" iframe#xsite >> form[aria-label="Card"]',
        '        textbox "Card number" iframe#xsite >> #card',
        '        button "Pay now" iframe#xsite >> #go',
        f'    iframe "Low" #low (cross-origin: http://127.0.0.1:{other}/card.html?in=low)',
        '      form "Card" iframe#low >> form[aria-label="Card"]',
        '        textbox "Card number" iframe#low >> #card',
        '        button "Pay now" iframe#low >> #go',
    ], text
    # The same-origin frame's and the page's own selectors, plain as before, work as printed too.
    selectors = selectors_in(text)
    await client.ok("fill_element", selector=selectors["Same"]["Coupon"], text="SPRING")
    await client.ok("click_element", selector=selectors["Same"]["Apply"])
    await client.ok("fill_element", selector=selectors[""]["Top card"], text="1111")
    same = "document.getElementById('same').contentDocument"
    assert await client.js(f"{same}.getElementById('coupon').value") == "SPRING"
    assert await client.js(f"{same}.getElementById('apply').textContent") == "Applied"
    assert await client.js("document.getElementById('card').value") == "1111"
    assert await in_frame(client, "pay", "document.getElementById('card').value") == ""


@pytest.mark.parametrize("frame", ["pay", "xsite", "low"])
async def test_the_selectors_the_outline_prints_in_a_frame_of_another_origin_fill_and_click_there(
    client: ModeClient, site_url: str, other_url: str, frame: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    selectors = selectors_in(await client.ok("page_outline"))[frame.capitalize()]
    await client.ok("fill_element", selector=selectors["Card number"], text="4242")
    await client.ok("click_element", selector=selectors["Pay now"])
    assert await in_frame(client, frame, "document.getElementById('card').value") == "4242"
    assert await in_frame(client, frame, "document.getElementById('go').textContent") == "Paid"
    for other in {"pay", "xsite", "low"} - {frame}:  # the frames alike are untouched
        assert await in_frame(client, other, "document.getElementById('go').textContent") == "Pay now"
    assert await client.js("document.getElementById('card').value") == ""  # and so is the page's own field


async def test_the_outline_of_a_part_inside_a_frame_of_another_origin_gives_its_scoped_selectors(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    text = await client.ok("page_outline", selector="iframe#low >> form")
    other = other_url.rsplit(":", 1)[1]
    assert text.splitlines() == [
        f'Outline of "iframe#low >> form" in iframe#low (http://127.0.0.1:{other}/card.html?in=low) (2 controls; '
        'role "name" = value [state] selector):',
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.",
        'form "Card" iframe#low >> form[aria-label="Card"]',
        '  textbox "Card number" iframe#low >> #card',
        '  button "Pay now" iframe#low >> #go',
    ], text
    await client.ok("click_element", selector="iframe#low >> #go")
    assert await in_frame(client, "low", "document.getElementById('go').textContent") == "Paid"


async def test_a_cross_site_frame_in_a_same_site_one_is_outlined_with_the_chained_selector_that_reaches_it(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/nest")
    chained = "iframe#outer >> iframe#inner >> #go"
    await client.ok("wait_for", selector=chained, state="attached", timeout_ms=10000)
    text = await client.ok("page_outline")
    other, here = other_url.rsplit(":", 1)[1], site_url.rsplit(":", 1)[1]
    assert text.splitlines()[2:] == [
        f'iframe "Outer" #outer (cross-origin: http://127.0.0.1:{other}/middle.html?top={here})',
        '  button "Pay now" iframe#outer >> body > button',  # #go is the inner frame's too, which it reaches
        f'  iframe "Inner" iframe#outer >> #inner (cross-origin: http://localhost:{here}/card.html?in=inner)',
        '    form "Card" iframe#outer >> iframe#inner >> form[aria-label="Card"]',
        '      textbox "Card number" iframe#outer >> iframe#inner >> #card',
        f'      button "Pay now" {chained}',
    ], text
    await client.ok("click_element", selector=chained)
    await client.ok("fill_element", selector="iframe#outer >> iframe#inner >> #card", text="77")
    inner = "iframe#outer >> iframe#inner >> document.getElementById"
    assert await client.js(f"{inner}('go').textContent") == "Paid"
    assert await client.js(f"{inner}('card').value") == "77"
    assert await client.js("iframe#outer >> document.getElementById('go').textContent") == "Pay now"
    await client.ok("click_element", selector="iframe#outer >> body > button")
    assert await client.js("iframe#outer >> document.getElementById('go').textContent") == "Paid"
