"""Scrolling through the real server in both modes: the page a page at a time and to its ends,
inside a scrollable box, an element into view, and step by step until a text appears in a
virtualized list that renders only the rows in view, from its scroll events. Each answer says
what moved, by how much and where it is now; the page's own scroll positions are read back.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

STYLE = "<style>body { margin: 0 } .item { height: 40px }</style>"
ITEMS = "".join(f'<div class="item" id="item-{i}">Item {i}</div>' for i in range(50))
# A list of `rows` rows of 30 px in a 300 px box that renders only the rows in view, on scroll.
VIRTUAL = """<div id="vlist" style="height: 300px; overflow: auto; position: relative">
  <div style="height: {height}px"></div>
</div>
<script>
const box = document.getElementById("vlist");
function render() {{
  const first = Math.floor(box.scrollTop / 30), last = Math.min({rows}, first + 11);
  box.querySelectorAll(".row").forEach((row) => row.remove());
  for (let i = first; i < last; i++) {{
    const row = document.createElement("div");
    row.className = "row";
    row.style.cssText = `position: absolute; top: ${{i * 30}}px; height: 30px`;
    row.textContent = "Row " + i;
    box.appendChild(row);
  }}
}}
box.addEventListener("scroll", render);
render();
</script>"""
PAGES = {
    "/long": (
        200,
        "text/html",
        html(
            "Long",
            "<div style='height: 6000px'>Top</div>"
            "<button id='far' style='display: block; height: 30px'>Far</button>"
            "<div style='height: 1970px'></div>",
            STYLE,
        ),
    ),
    "/box": (
        200,
        "text/html",
        html("Box", f"<div id='box' style='height: 300px; overflow: auto'>{ITEMS}</div>", STYLE),
    ),
    "/virtual": (200, "text/html", html("Virtual", VIRTUAL.format(rows=1000, height=30000), STYLE)),
    "/short-virtual": (200, "text/html", html("Short", VIRTUAL.format(rows=100, height=3000), STYLE)),
}


async def test_the_page_scrolls_a_page_at_a_time_and_to_its_ends(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/long")
    text = await client.ok("scroll", to="down")
    assert text.startswith("Scrolled the page down 630 px (now at 630–1,350 of 8,000 px)."), text
    assert await client.js("scrollY") == 630
    text = await client.ok("scroll", to="bottom")
    assert text.startswith("Scrolled the page down 6,650 px (now at the bottom, 7,280–8,000 of 8,000 px)."), text
    text = await client.ok("scroll", to="down")
    assert text.startswith("Nothing moved: the page is at the bottom, 7,280–8,000 of 8,000 px."), text
    text = await client.ok("scroll", to="up")
    assert text.startswith("Scrolled the page up 630 px (now at 6,650–7,370 of 8,000 px)."), text
    text = await client.ok("scroll", to="top")
    assert text.startswith("Scrolled the page up 6,650 px (now at the top, 0–720 of 8,000 px)."), text
    assert await client.js("scrollY") == 0


async def test_a_box_scrolls_within_itself_and_the_page_stays(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/box")
    text = await client.ok("scroll", selector="#box", to="down")
    top = await client.js("document.getElementById('box').scrollTop")
    assert top == 263 and text.startswith("Scrolled div#box down 263 px (now at 263–563 of 2,000 px)."), text
    text = await client.ok("scroll", selector="#item-3", to="bottom")  # an element in it: the box around it
    assert text.startswith("Scrolled div#box down 1,437 px (now at the bottom, 1,700–2,000 of 2,000 px)."), text
    assert await client.js("[scrollY, document.getElementById('box').scrollTop]") == [0, 1700]


async def test_an_element_is_scrolled_into_view(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/long")
    text = await client.ok("scroll", selector="#far")
    assert re.match(r'Scrolled button#far "Far" into view: the page down [\d,]+ px \(now at ', text), text
    assert await client.js("(r => r.top >= 0 && r.bottom <= innerHeight)(far.getBoundingClientRect())") is True
    text = await client.ok("scroll", selector="#far")
    assert text.startswith('button#far "Far" was in view already; nothing scrolled.'), text
    await client.ok("navigate", url=f"{site_url}/box")
    text = await client.ok("scroll", selector="#item-40")
    assert text.startswith('Scrolled div#item-40 "Item 40" into view: div#box down 1,470 px (now at'), text


async def test_a_virtualized_list_is_scrolled_until_the_row_is_rendered(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/virtual")
    assert await client.js("[...document.querySelectorAll('.row')].some(r => r.textContent === 'Row 300')") is False
    text = await client.ok("scroll", selector="#vlist", until="Row 300")
    match = re.match(
        r'Found "Row 300" in div\.row "Row 300" after (\d+) steps down; scrolled it into view: '
        r"div#vlist down ([\d,]+) px \(now at ([\d,]+)–[\d,]+ of 30,000 px\)\.",
        text,
    )
    assert match is not None, text
    assert int(match[1]) == 34  # 9,000 px of rows in steps of 263 px: row 300 is rendered in the 35th view
    top = await client.js("document.getElementById('vlist').scrollTop")
    assert int(match[3].replace(",", "")) == top and 9000 - 300 < top <= 9000
    rows = await client.js("[...document.querySelectorAll('.row')].map(r => r.textContent)")
    assert "Row 300" in rows and "Row 0" not in rows


async def test_a_search_that_never_finds_says_where_it_stopped(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/short-virtual")
    text = await client.ok("scroll", until="Row 5000")  # no selector: the page's scrolling box, the list
    assert text.startswith(
        '"Row 5000" is not in the page: reached the bottom of div#vlist after 11 steps down without finding it; '
        "div#vlist down 2,700 px (now at the bottom, 2,700–3,000 of 3,000 px)."
    ), text
    await client.ok("navigate", url=f"{site_url}/virtual")
    if client.mode == "legacy":
        text = await client.ok("scroll", selector="#vlist", until="Row 5000", max_steps=5)
        assert text.startswith(
            '"Row 5000" is not in the page: stopped after 5 steps down, the most this search takes'
        ), text
        await client.ok("scroll", selector="#vlist", to="top")
    text = await client.ok("scroll", selector="#vlist", until="Row 5000", to="up")
    assert text.startswith(
        '"Row 5000" is not in the page: reached the top of div#vlist after 0 steps up without finding it; '
        "div#vlist is at the top, 0–300 of 30,000 px."
    ), text


async def test_bad_calls_get_clear_errors(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/box")
    kind, text = await client.error("scroll", selector="##", to="down")
    assert kind == "VALIDATION" and "selector" in text, text
    kind, text = await client.error("scroll", selector="#nope", to="down")
    assert kind == "STATE" and "No element matches the selector" in text, text
    kind, text = await client.error("scroll", until="Item 9", to="bottom")
    assert kind == "VALIDATION" and "- to: expected down or up with until" in text, text
    kind, text = await client.error("scroll", until=" ")
    assert kind == "VALIDATION" and "until is empty" in text, text
    if await client.refused_in_smart("scroll", until="Item 9", max_steps=3):
        return
    kind, text = await client.error("scroll", until="Item 9", max_steps=0)
    assert kind == "VALIDATION" and "max_steps" in text, text
