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

# A big page: a header, a nav of 120 links, a main with headings, a table of 200 rows with a caption and
# column headers, and a Help section after the table.
BIG = html(
    "Big shop",
    '<header><a href="/" class="logo">Acme</a><button id="cart">Cart</button></header>'
    '<nav aria-label="Catalogue"><ul>'
    + "".join(f'<li><a href="/c/{i}">{"Home" if i == 0 else f"Category {i}"}</a></li>' for i in range(120))
    + '</ul></nav><main id="main"><h1>Your orders</h1><p>Every order of the year.</p><h2>Orders</h2>'
    '<table id="orders"><caption>Orders 2024</caption>'
    "<thead><tr><th>Order</th><th>Customer</th><th>Total</th></tr></thead><tbody>"
    + "".join(
        f'<tr><td><a href="/orders/{1001 + i}">A-{1001 + i}</a></td><td>Customer {i}</td><td>${i}.00</td></tr>'
        for i in range(200)
    )
    + '</tbody></table><section id="help" aria-labelledby="help-title"><h2 id="help-title">Help</h2>'
    '<p>Questions?</p><a href="/faq">FAQ</a> <button id="chat">Chat with us</button></section></main>'
    '<footer><a href="/legal">Legal</a></footer>',
)
PAGES = {
    **OUTLINE_PAGES,
    "/outline/big": (200, "text/html", BIG),
    # A flat list: 500 links and nothing around them, no landmark to outline alone.
    "/outline/flat": (
        200,
        "text/html",
        html("Flat", "".join(f'<a href="/flat/{i}">Link {i}</a> ' for i in range(500))),
    ),
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
    assert text.splitlines()[1:] == [
        "main body > main",
        '  h1 "Sitemap"',
        '    500 links: "Item 0", "Item 1", "Item 2", "Item 3", "Item 4" … (+495)',
        "contentinfo body > footer",
        '  link "About" a[href="/about"]',
        '…495 items (495 controls) not shown. Outline one part with selector: "body > main" (501 items).',
    ], text
    assert await client.js("document.querySelectorAll('body > main a').length") == 500
    main = await client.ok("page_outline", selector="body > main")
    shown = [m["sel"] for m in outline_lines(main) if m["role"] == "link"]
    assert shown == [f'a[href="/item/{i}"]' for i in range(len(shown))] and len(main) <= 4000, main
    assert main.splitlines()[-1].startswith(
        f"…{500 - len(shown)} items ({500 - len(shown)} controls) not shown: "
    ) and main.endswith(f'with selector="body > main" and offset={len(shown) + 2} continues.')  # main, h1, main[-300:]
    footer = await client.ok("page_outline", selector="body > footer")
    assert footer.splitlines()[1:] == ["contentinfo body > footer", '  link "About" a[href="/about"]']
    if client.mode == "legacy":  # smart mode leaves max_chars out
        small = await client.ok("page_outline", max_chars=500)
        assert len(small) <= 500 and re.search(r"\n…\d+ items", small), small


async def test_a_cross_origin_iframe_is_outlined_from_its_own_target(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/cross")
    text = await client.ok("page_outline")
    port = site_url.rsplit(":", 1)[1]
    assert text.splitlines()[1:] == [
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.",
        "main body > main",
        '  button "Here" body > main > button',  # #here is the iframe's button's id too
        f'  iframe "Sign up" #away (cross-origin: http://localhost:{port}/outline/form)',
        '    form "Sign up" iframe#away >> form[aria-label="Sign up"]',
        '      textbox "Email" [required] iframe#away >> #email',
        '      checkbox "Newsletter" [checked] iframe#away >> input[name="news"]',
        '      button "Join" iframe#away >> #here',
    ], text
    scoped = await client.ok("page_outline", selector="form")  # the page has none: the iframe's
    assert scoped.splitlines()[:3] == [
        f'Outline of "form" in iframe#away (http://localhost:{port}/outline/form) (3 controls; '
        'role "name" = value [state] selector):',
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.",
        'form "Sign up" iframe#away >> form[aria-label="Sign up"]',
    ], scoped
    assert scoped.splitlines()[3:] == [
        '  textbox "Email" [required] iframe#away >> #email',
        '  checkbox "Newsletter" [checked] iframe#away >> input[name="news"]',
        '  button "Join" iframe#away >> #here',
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
        '  button "Middle" iframe#outer >> #middle',
        '  link "Same"',  # every selector of this "Same" link matches the inner frame's too: none is listed
        f'  iframe "Inner" iframe#outer >> #inner (cross-origin: http://127.0.0.1:{port}/outline/inner)',
        '    button "Go" iframe#outer >> iframe#inner >> button[name="go"]',
        '    link "Same" iframe#outer >> iframe#inner >> a[href="/same"]',
    ], text
    await client.ok("click_element", selector='iframe#outer >> iframe#inner >> button[name="go"]')
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


def named_parts(text: str) -> list[str]:
    """The selectors of the parts the outline's last line says to outline next."""
    last = text.splitlines()[-1]
    return (
        re.findall(r'"(.+?)" \(\d+ (?:items?|rows?)\)', last.split("selector: ", 1)[1]) if "selector: " in last else []
    )


async def test_a_big_page_is_reached_whole_by_following_the_outlines_own_hints(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    seen = [await client.ok("page_outline")]
    queue = named_parts(seen[0])
    wanted = ('table "Orders 2024" #orders (200 rows)', 'columns: "Order" | "Customer" | "Total"',
              'row: "A-1001" | "Customer 0" | "$0.00"', 'link "A-1001" a[href="/orders/1001"]', 'h2 "Help"',
              'button "Chat with us" #chat')  # fmt: skip
    while not all(w in "\n".join(seen) for w in wanted) and queue and len(seen) < 3:
        seen.append(await client.ok("page_outline", selector=queue.pop(0)))
        queue += [part for part in named_parts(seen[-1]) if part not in queue]
    assert all(len(text) <= 4000 for text in seen), [len(text) for text in seen]
    assert [w for w in wanted if w not in "\n".join(seen)] == [], "\n---\n".join(seen)


async def test_a_long_run_of_links_is_one_line_with_its_count_and_its_part_shows_them_all(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    text = await client.ok("page_outline")
    assert (
        '\nnavigation "Catalogue" nav[aria-label="Catalogue"]\n'
        '  120 links: "Home", "Category 1", "Category 2", "Category 3", "Category 4" … (+115)\n'
    ) in text, text
    assert 'nav[aria-label="Catalogue"]' in named_parts(text), text
    nav = await client.ok("page_outline", selector='nav[aria-label="Catalogue"]')
    assert len(nav) <= 4000
    assert nav.splitlines()[1:4] == [
        'navigation "Catalogue" nav[aria-label="Catalogue"]',
        '  link "Home" a[href="/c/0"]',
        '  link "Category 1" a[href="/c/1"]',
    ], nav
    listed = [m["name"] for m in outline_lines(nav) if m["role"] == "link"]
    assert listed == ["Home", *(f"Category {i}" for i in range(1, len(listed)))], listed
    left = re.search(r"\n…(\d+) items \((\d+) controls\) not shown: ", nav)
    assert left is not None and len(listed) + int(left[1]) == 120, nav[-400:]
    assert 'nav[aria-label="Catalogue"]' not in named_parts(nav), nav[-400:]  # no way back to the same part
    assert "{tool" not in nav and nav.endswith(f"offset={len(listed) + 1} continues."), nav[-400:]


async def test_a_table_shows_its_caption_headers_first_rows_and_row_count(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    text = await client.ok("page_outline")
    table = text[text.index('\n      table "Orders 2024"') + 1 :].split("\n      region")[0]
    assert [line[6:] for line in table.splitlines()] == [
        'table "Orders 2024" #orders (200 rows)',
        '  columns: "Order" | "Customer" | "Total"',
        '  row: "A-1001" | "Customer 0" | "$0.00"',
        '    link "A-1001" a[href="/orders/1001"]',
        '  row: "A-1002" | "Customer 1" | "$1.00"',
        '    link "A-1002" a[href="/orders/1002"]',
        '  row: "A-1003" | "Customer 2" | "$2.00"',
        '    link "A-1003" a[href="/orders/1003"]',
        "  …197 more rows (197 controls) not shown",
    ], table
    assert text.splitlines()[-1].startswith("…509 items (197 rows, 312 controls) not shown."), text
    assert "#orders" in named_parts(text), text
    alone = await client.ok("page_outline", selector="#orders")
    assert alone.splitlines()[1:4] == [
        'table "Orders 2024" #orders (200 rows)',
        '  columns: "Order" | "Customer" | "Total"',
        '  row: "A-1001" | "Customer 0" | "$0.00"',
    ], alone
    rows = [line for line in alone.splitlines() if line.startswith("  row: ")]
    assert (
        len(rows) > 3
        and rows[-1] == f'  row: "A-{1000 + len(rows)}" | "Customer {len(rows) - 1}" | "${len(rows) - 1}.00"'
    )
    left = 200 - len(rows)
    assert f"\n…{2 * left} items ({left} rows, {left} controls) not shown: " in alone, alone[-400:]
    assert "#orders" not in named_parts(alone) and len(alone) <= 4000, alone[-400:]


async def test_the_outline_of_a_part_never_points_back_at_that_part(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    main = await client.ok("page_outline", selector="main")
    assert main.splitlines()[1] == "main #main", main
    parts = named_parts(main)
    assert parts and "#main" not in parts and "main" not in parts, main[-400:]
    for part in parts:
        inner = await client.ok("page_outline", selector=part)
        assert inner != main and inner.splitlines()[1] != "main #main", inner
        assert part not in named_parts(inner), inner[-400:]


CONTINUES = re.compile(r"offset=(\d+) continues\.$")


async def follow_offsets(client: ModeClient, **arguments: str) -> list[str]:
    """Every answer met by following the outline's own continuations from its start."""
    answers = [await client.ok("page_outline", **arguments)]
    while (found := CONTINUES.search(answers[-1])) is not None and len(answers) < 60:
        answers.append(await client.ok("page_outline", **arguments, offset=int(found[1])))
    return answers


async def test_following_the_offsets_through_a_table_shows_every_row_once_then_its_end(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    answers = await follow_offsets(client, selector="#orders")
    rows = [m[1] for text in answers for m in re.finditer(r'^ *row: "(A-\d+)" \|', text, re.MULTILINE)]
    assert rows == [f"A-{1001 + i}" for i in range(200)], rows
    links = [m[1] for text in answers for m in re.finditer(r'^ *link "(A-\d+)" a\[href', text, re.MULTILINE)]
    assert links == rows
    assert len(answers) > 2 and all(len(text) <= 4000 for text in answers), [len(text) for text in answers]
    assert answers[1].startswith('Outline of "#orders" from item '), answers[1][:200]
    assert answers[-1].endswith("\nEnd of the outline: item 401 was its last."), answers[-1][-300:]
    assert all("query_elements" not in text for text in answers)


async def test_an_offset_past_the_end_of_the_outline_says_so(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/outline/big")
    text = await client.ok("page_outline", selector="#orders", offset=1000)
    assert text == (
        'Outline of "#orders": nothing at offset=1000, past its end: it has 401 items, the last at offset=400.'
    ), text


async def test_a_flat_list_of_500_links_is_reached_to_its_end_through_offsets(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/outline/flat")
    answers = await follow_offsets(client)
    names = [m["name"] for text in answers for m in outline_lines(text) if m["role"] == "link"]
    assert names == [f"Link {i}" for i in range(500)], names
    selectors = [m["sel"] for text in answers for m in outline_lines(text) if m["role"] == "link"]
    assert selectors == [f'a[href="/flat/{i}"]' for i in range(500)], selectors[-5:]
    assert all(len(text) <= 4000 for text in answers) and len(answers) > 2
    assert answers[-1].endswith("\nEnd of the outline: item 500 was its last."), answers[-1][-300:]
