"""The page outline through the real server in both modes, on pages served on 127.0.0.1: roles,
names and states from the accessibility tree, and selectors the page itself confirms."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.harness import ModeClient
from tests.support.outline_pages import OUTLINE_PAGES
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    **OUTLINE_PAGES,
    "/outline/cross": (
        200,
        "text/html",
        html(
            "Cross",
            '<main><button id="here">Here</button><iframe id="away"></iframe></main>'
            "<script>document.getElementById('away').src = "
            "'http://localhost:' + location.port + '/outline/frame';</script>",
        ),
    ),
}
LINE = re.compile(
    r'^(?P<indent> *)(?P<role>\S+)(?: "(?P<name>[^"]*)")?(?: = "[^"]*")?(?: \[[^\]]*\])?(?: (?P<sel>.+))?$'
)
# What element each role stands for on these pages, for the page to confirm a selector points at the right one.
ELEMENTS = {
    "link": "a", "button": "button", "textbox": "input, textarea", "checkbox": "input[type=checkbox]",
    "radio": "input[type=radio]", "combobox": "select", "slider": "input[type=range]", "tab": "[role=tab]",
    "menuitem": "[role=menuitem]", "summary": "summary", "region": "section", "navigation": "nav", "main": "main",
    "form": "form", "banner": "header", "contentinfo": "footer", "iframe": "iframe",
}  # fmt: skip
# For each (role, name, selector): how many elements match, and whether the one that does is that role
# and carries that name (its text, label, aria-label, placeholder or title).
CHECK_SELECTORS = """(items => items.map(([role, name, sel, kind]) => {
  const found = document.querySelectorAll(sel), el = found[0];
  if (found.length !== 1) return [sel, found.length];
  const names = [el.textContent, el.getAttribute('aria-label'), el.placeholder, el.title,
    ...[...(el.labels || [])].map(l => l.textContent)].map(t => (t || '').replace(/\\s+/g, ' ').trim());
  const named = !name || names.some(t => t.includes(name)) || (el.getAttribute('aria-labelledby') &&
    document.getElementById(el.getAttribute('aria-labelledby')).textContent === name);
  return el.matches(kind) && named ? null : [sel, el.outerHTML.slice(0, 80)];
}).filter(Boolean))"""


def outline_lines(text: str) -> list[re.Match[str]]:
    """The parsed lines of the outline body (the header and any hint left out)."""
    return [m for line in text.splitlines()[1:] if not line.startswith("…") and (m := LINE.match(line))]


async def test_the_outline_shows_structure_controls_states_and_selectors_the_page_confirms(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/shop")
    text = await client.ok("page_outline")
    assert text.startswith('Outline of "Acme Outdoor Shop" (29 controls; role "name" = value [state] selector):\n')
    for line in (
        "banner header.site-header",
        '  navigation "Main" nav[aria-label="Main"]',
        '  button "Account" [expanded] #menu-toggle',
        "main #content",
        '  h1 "Checkout"',
        '    region "Your cart" #content section',
        '        summary "Delivery options" [expanded] #content summary',
        '        radio "Standard (3-5 days)" [checked] input[name="delivery"][value="standard"]',
        '    form "Checkout" #checkout',
        '      h2 "Shipping address"',
        '        textbox "Full name" = "Ada Lovelace" [required] #full-name',
        '        combobox "Country" = "Germany" [collapsed] #country',
        '        slider "Tip" = "5" #tip',
        '        checkbox "I accept the terms" [checked] input[name="terms"]',
        '        checkbox "Gift wrap" input[name="gift"]',
        '        tab "Card" [selected] #tab-card',
        '        button "Place order" [disabled] button[type="submit"]',
        '    iframe "Newsletter" #newsletter',
        '        textbox "Your email" #news-email',
        "contentinfo body > footer",
        '  link "Contact us" a[href="/contact"]',
    ):
        assert "\n" + line + "\n" in text + "\n", (line, text)
    assert "Hidden button" not in text and "Tracking pixel" not in text  # hidden, aria-hidden
    items = []
    in_frame = None
    for m in outline_lines(text):
        depth = len(m["indent"])
        if in_frame is not None and depth > in_frame:
            continue  # the frame's own document: its selectors hold there, not in this one
        in_frame = depth if m["role"] == "iframe" else None
        if m["sel"] and m["role"] in ELEMENTS:
            items.append([m["role"], m["name"] or "", m["sel"], ELEMENTS[m["role"]]])
    assert len(items) == 34, items  # 27 controls of this document, 7 landmarks and frames
    assert await client.js(f"{CHECK_SELECTORS}({json.dumps(items)})") == []


async def test_a_same_origin_frame_is_outlined_with_selectors_unique_across_the_page(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/shop")
    text = await client.ok("page_outline")
    framed = text[text.index('\n    iframe "Newsletter" #newsletter\n') :].split("\ncontentinfo")[0]
    assert framed.splitlines()[2:] == [
        '      h2 "Newsletter"',
        '        textbox "Your email" #news-email',
        '        link "Privacy" body > a',  # a[href="/privacy"] is the footer's link too
    ], framed
    selectors = [m["sel"] for m in outline_lines(text) if m["sel"]]
    # Each selector matches one element in all the page's documents together, as the DOM tools search them.
    counts = await client.js(
        f"{json.dumps(selectors)}.map(s => document.querySelectorAll(s).length + "
        "document.getElementById('newsletter').contentDocument.querySelectorAll(s).length)"
    )
    assert counts == [1] * len(selectors), list(zip(selectors, counts, strict=True))


async def test_an_outline_of_one_element_holds_only_its_subtree(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/shop")
    text = await client.ok("page_outline", selector="#checkout")
    assert text.startswith('Outline of "#checkout" (11 controls; role "name" = value [state] selector):\n'), text
    assert text.splitlines()[1] == 'form "Checkout" #checkout'
    assert '    button "Place order" [disabled] button[type="submit"]' in text
    assert "Tents" not in text and "Newsletter" not in text
    both = await client.ok("page_outline", selector="li")
    assert both.startswith('Outline of "li" (first of 8 matches; 1 control; '), both
    assert both.splitlines()[1:] == ['link "Tents" a[href="/tents"]']


async def test_a_long_outline_is_cut_with_its_count_and_the_parts_to_outline_alone(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/links")
    text = await client.ok("page_outline")
    assert len(text) <= 4000
    hint = re.search(r"\n…(\d+) more items \((\d+) controls\) not shown\. (.*)$", text)
    assert hint is not None, text[-300:]
    shown = len(outline_lines(text))
    assert shown + int(hint[1]) == 504  # main, h1, 500 links, footer, its link
    assert hint[3] == 'Outline one part with selector: "body > main" (501 items), "body > footer" (1 item).'
    assert await client.js("document.querySelectorAll('body > main a').length") == 500
    footer = await client.ok("page_outline", selector="body > footer")
    assert footer.splitlines()[1:] == ["contentinfo body > footer", '  link "About" a[href="/about"]']
    if client.mode == "legacy":  # smart mode leaves max_chars out
        small = await client.ok("page_outline", max_chars=500)
        assert len(small) <= 500 and re.search(r"\n…\d+ more items", small), small


async def test_a_cross_origin_iframe_is_named_as_not_outlined(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/cross")
    text = await client.ok("page_outline")
    assert text.splitlines()[1] == "1 cross-origin iframe not outlined (another site's process)."
    assert "\n  iframe #away (cross-origin: not outlined)" in text, text
    assert '\n  button "Here" #here' in text


async def test_an_unknown_selector_is_the_usual_not_found_state_error(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/shop")
    kind, text = await client.error("page_outline", selector="#no-such-part")
    assert kind == "STATE" and text.startswith("No element matches the selector."), (kind, text)
