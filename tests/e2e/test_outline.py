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
            '<main><button id="here" onclick="window.hereClicks = 1">Here</button>'
            '<iframe id="away" title="Sign up"></iframe></main>'
            "<script>window.messages = [];"
            "addEventListener('message', event => window.messages.push(event.data));"
            "window.message = kind => new Promise(resolve => { const check = () => {"
            "  const found = window.messages.find(m => m.kind === kind);"
            "  found ? resolve(found) : setTimeout(check, 20); }; check(); });"
            "document.getElementById('away').src = 'http://localhost:' + location.port + '/outline/form';</script>",
        ),
    ),
    # The cross-origin frame's form; its button's id is the page's button's id too. It tells the page what
    # happens in it, since the page cannot look inside.
    "/outline/form": (
        200,
        "text/html",
        html(
            "Sign up form",
            '<form aria-label="Sign up"><input id="email" aria-label="Email" required>'
            '<label><input type="checkbox" name="news" checked> Newsletter</label>'
            '<button id="here" name="join" type="button">Join</button></form>'
            "<script>const tell = data => parent.postMessage(data, '*');"
            "document.getElementById('email').addEventListener('change', e => tell({kind: 'filled', value: "
            "e.target.value}));"
            "document.querySelector('[name=news]').addEventListener('change', e => tell({kind: 'checked', value: "
            "e.target.checked}));"
            "document.getElementById('here').addEventListener('click', () => tell({kind: 'clicked'}));</script>",
        ),
    ),
    # 127.0.0.1 holds a frame from localhost, which holds one from 127.0.0.1 again: a target of its own too.
    "/outline/nested": (
        200,
        "text/html",
        html(
            "Nested",
            '<iframe id="outer" title="Middle"></iframe>'
            "<script>window.clicked = new Promise(resolve => addEventListener('message', resolve));"
            "document.getElementById('outer').src = 'http://localhost:' + location.port + '/outline/middle';</script>",
        ),
    ),
    "/outline/middle": (
        200,
        "text/html",
        html(
            "Middle",
            '<button id="middle">Middle</button><div><a href="/same">Same</a></div>'
            '<iframe id="inner" title="Inner"></iframe>'
            "<script>document.getElementById('inner').src = 'http://127.0.0.1:' + location.port + "
            "'/outline/inner';</script>",
        ),
    ),
    "/outline/inner": (
        200,
        "text/html",
        html(
            "Inner",
            "<button name=\"go\" onclick=\"top.postMessage('inner clicked', '*')\">Go</button>"
            '<div><a href="/same">Same</a></div>',
        ),
    ),
    # A cross-origin frame whose renderer is busy (a long script) when the outline asks for its tree.
    "/outline/stuck": (
        200,
        "text/html",
        html(
            "Stuck",
            '<button id="here">Here</button><iframe id="busy"></iframe>'
            "<script>window.busy = new Promise(resolve => addEventListener('message', resolve));"
            "document.getElementById('busy').src = 'http://localhost:' + location.port + '/outline/busy';</script>",
        ),
    ),
    "/outline/busy": (
        200,
        "text/html",
        html(
            "Busy",
            "<button>Never seen</button><script>addEventListener('load', () => {"
            "parent.postMessage('busy', '*');"  # sent once this task ends: the long one comes next
            "setTimeout(() => { const end = Date.now() + 6000; while (Date.now() < end) {} }); });</script>",
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


async def test_a_cross_origin_iframe_is_outlined_from_its_own_target(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/cross")
    text = await client.ok("page_outline")
    port = site_url.rsplit(":", 1)[1]
    assert text.splitlines()[1:] == [
        "Selectors inside cross-origin iframes work with the element tools, which search those frames too.",
        "main body > main",
        '  button "Here" body > main > button',  # #here is the iframe's button's id too
        f'  iframe "Sign up" #away (cross-origin: http://localhost:{port}/outline/form)',
        '    form "Sign up" form[aria-label="Sign up"]',
        '      textbox "Email" [required] #email',
        '      checkbox "Newsletter" [checked] input[name="news"]',
        '      button "Join" button[name="join"]',
    ], text
    scoped = await client.ok("page_outline", selector="form")  # the page has none: the iframe's
    assert scoped.splitlines()[:3] == [
        f'Outline of "form" in iframe#away (http://localhost:{port}/outline/form) (3 controls; '
        'role "name" = value [state] selector):',
        "Selectors inside cross-origin iframes work with the element tools, which search those frames too.",
        'form "Sign up" form[aria-label="Sign up"]',
    ], scoped
    assert scoped.splitlines()[3:] == [
        '  textbox "Email" [required] #email',
        '  checkbox "Newsletter" [checked] input[name="news"]',
        '  button "Join" button[name="join"]',
    ], scoped


async def test_the_element_tools_reach_the_cross_origin_iframe_elements_the_outline_lists(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/cross")
    text = await client.ok("page_outline")
    selectors = {m["role"]: m["sel"] for m in outline_lines(text) if len(m["indent"]) == 6}
    await client.ok("fill_element", selector=selectors["textbox"], text="ada@example.test")
    assert await client.js("window.message('filled').then(m => m.value)") == "ada@example.test"
    await client.ok("click_element", selector=selectors["checkbox"])
    assert await client.js("window.message('checked').then(m => m.value)") is False
    await client.ok("click_element", selector=selectors["button"])
    assert await client.js("window.message('clicked').then(m => m.kind)") == "clicked"
    assert await client.js("window.messages.filter(m => m.kind === 'clicked').length") == 1
    page_button = next(m["sel"] for m in outline_lines(text) if m["name"] == "Here")
    await client.ok("click_element", selector=page_button)
    assert await client.js("window.hereClicks") == 1  # the page's own button, not the iframe's


async def test_nested_cross_origin_iframes_are_outlined_each_from_its_own_target(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/nested")
    text = await client.ok("page_outline")
    port = site_url.rsplit(":", 1)[1]
    assert text.splitlines()[2:] == [
        f'iframe "Middle" #outer (cross-origin: http://localhost:{port}/outline/middle)',
        '  button "Middle" #middle',
        '  link "Same"',  # every selector of each "Same" link matches the other one too: none is listed
        f'  iframe "Inner" #inner (cross-origin: http://127.0.0.1:{port}/outline/inner)',
        '    button "Go" button[name="go"]',
        '    link "Same"',
    ], text
    await client.ok("click_element", selector='button[name="go"]')
    assert await client.js("window.clicked.then(event => event.data)") == "inner clicked"


async def test_a_cross_origin_iframe_that_does_not_answer_keeps_its_line_with_the_reason(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/stuck")
    assert await client.js("window.busy.then(event => event.data)") == "busy"
    text = await client.ok("page_outline")
    assert text.splitlines()[1:] == [
        "1 cross-origin iframe not outlined (reasons on their lines).",
        'button "Here" #here',
        "iframe #busy (cross-origin, not outlined: it did not answer)",
    ], text


async def test_an_unknown_selector_is_the_usual_not_found_state_error(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/shop")
    kind, text = await client.error("page_outline", selector="#no-such-part")
    assert kind == "STATE" and text.startswith("No element matches the selector."), (kind, text)
