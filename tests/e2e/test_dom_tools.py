"""query_elements, inspect_element and wait_for through the real server, in both modes.

Every answer is checked against the page itself (through evaluate_js): the elements it
names exist, the selectors it suggests are unique, the things it waited for happened.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def card(i: int) -> str:
    links = "".join(f'<a href="/a/long/path/to/article/{i}/{n}">Read part {n} of the long story</a>' for n in range(8))
    return f'<div class="card" data-summary="{i} {"lorem ipsum dolor sit amet " * 6}">{links}</div>'


PAGES = {
    **SITE,
    # Visible at 300 ms through a CSS animation alone: no DOM mutation announces it.
    "/reveal": (
        200,
        "text/html",
        html(
            "Reveal",
            '<div id="box">Now you see me</div>',
            "<style>#box { visibility: hidden; animation: appear 0s 300ms forwards }"
            " @keyframes appear { to { visibility: visible } }</style>",
        ),
    ),
    # 20 cards whose full descriptions together are far over the 5,000-character answer limit.
    "/cards": (
        200,
        "text/html",
        html("Cards", "".join(card(i) for i in range(20))),
    ),
    "/moving": (200, "text/html", html("Moving", "<script>setTimeout(() => location.href = '/welcome', 100)</script>")),
}


async def test_the_login_submit_button_in_600_characters(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    for selector in ("button[type=submit]", "form button"):
        text = await client.ok("query_elements", selector=selector)
        print(f"{client.mode}: query_elements({selector!r}) answered {len(text)} characters")
        assert len(text) <= 600
        assert '"Sign in" visible' in text and 'data-testid="login-submit"' in text
    assert await client.js("document.querySelector('button[type=submit]').textContent") == "Sign in"


async def test_a_form_shows_structure_and_interactive_children(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    text = await client.ok("query_elements", selector="form")
    assert "form > label*3+input*2+select+textarea+button*2 > input+option*4 (9 children, 14 descendants)" in text
    assert "interactive (7): #email (email), #password (password), #remember (checkbox)" in text
    assert "+1 more" in text
    assert (
        await client.js(
            "document.querySelectorAll('#login-form input, #login-form select, #login-form textarea').length"
        )
        == 5
    )


async def test_the_table_is_paged_by_limit(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/table")
    text = await client.ok("query_elements", selector="tbody tr", limit=20)
    assert text.startswith('200 match "tbody tr"; showing 20 of 200.')
    assert "[19] tr" in text and "[20]" not in text
    assert 'interactive (1): a[href="/user/20"] "edit"' in text
    assert await client.js("document.querySelectorAll('tbody tr').length") == 200


async def test_a_large_answer_is_shortened_not_refused(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/cards")
    text = await client.ok("query_elements", selector=".card", limit=20)
    print(f"{client.mode}: 20 cards answered in {len(text)} characters")
    assert len(text) <= 5000 and "[0] div.card" in text
    assert "to stay under the answer limit" in text
    assert await client.js("document.querySelectorAll('.card a').length") == 160


async def test_a_list_summarises_as_emmet(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    text = await client.ok("query_elements", selector="#main-nav ul")
    assert "ul > li*30 > a (30 children, 60 descendants)" in text
    assert 'interactive (30): a[href="/page/1"] "Section 1"' in text and "+24 more" in text


async def test_hidden_elements_are_filtered_unless_asked(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/hidden")
    text = await client.ok("query_elements", selector=".action")
    assert text.startswith('6 match ".action" (4 hidden removed); showing 2 of 2.')
    assert "[0] button#visible-btn.action" in text and "[5] button#disabled-btn.action" in text
    assert "visible, disabled" in text and "none-btn" not in text
    everything = await client.ok("query_elements", selector=".action", include_hidden=True, limit=20)
    assert "showing 6 of 6" in everything and '[1] button#none-btn.action "Display none" hidden' in everything
    assert await client.js("getComputedStyle(document.getElementById('none-btn')).display") == "none"


async def test_text_filter_is_case_insensitive(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    text = await client.ok("query_elements", selector="button", text_contains="SIGN")
    assert text.startswith('2 match "button" (1 without text "SIGN" removed); showing 1 of 1.')
    assert '[1] button.btn.primary "Sign in"' in text


async def test_shadow_roots_and_iframes_are_searched(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/shadow")
    text = await client.ok("query_elements", selector="button")
    assert '[0] button#shadow-btn.inner "Shadow button" visible, in shadow root of div#host' in text
    assert await client.js("document.querySelector('button')") is None  # not reachable without piercing
    await client.ok("navigate", url=f"{site_url}/frames")
    text = await client.ok("query_elements", selector="#frame-btn")
    assert '[0] button#frame-btn "In frame" visible, in iframe#inner-frame' in text
    assert (
        await client.js(
            "document.getElementById('inner-frame').contentDocument.getElementById('frame-btn').textContent"
        )
        == "In frame"
    )


async def test_no_match_suggests_what_exists(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    text = await client.ok("query_elements", selector="#emial")
    assert text.startswith('No element matches "#emial"') and "Similar ids: #email" in text
    text = await client.ok("query_elements", selector=".primary-btn")
    assert re.search(r"Similar classes: .*\.primary\b", text), text
    text = await client.ok("query_elements", selector="buton")
    assert "Similar tags: button" in text


async def test_an_invalid_selector_is_a_validation_error(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    kind, text = await client.error("query_elements", selector="button[")
    assert kind == "VALIDATION"
    assert "- selector: expected a valid CSS selector" in text and "not a valid selector" in text
    assert "Suggestion:" in text and "inspect_element" in text
    assert "1 match" in await client.ok("query_elements", selector="button[type=submit]")  # the next call works


async def test_schema_limits_are_validation_errors(client: ModeClient) -> None:
    kind, text = await client.error("query_elements", selector="a", limit=21)
    assert kind == "VALIDATION" and "limit" in text
    kind, text = await client.error("wait_for", selector="#x", timeout_ms=0)
    assert kind == "VALIDATION" and "timeout_ms" in text


async def test_inspect_suggests_unique_stable_selectors(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/login")
    text = await client.ok("inspect_element", description="login submit button")
    first = text.split("\n2. ")[0]
    assert '1. button.btn.primary "Sign in" (visible) match 100%' in first
    assert '90 [data-testid="login-submit"]  (data-testid)' in first
    selectors = re.findall(r"^ +\d+ (.+?)  \(", text, flags=re.MULTILINE)
    assert len(selectors) >= 6
    for selector in selectors:  # every suggestion is unique in the page
        assert await client.js(f"document.querySelectorAll({selector!r}).length") == 1, selector
    by_text = await client.ok("inspect_element", text="Sign in", attributes={"type": "submit"})
    assert by_text.startswith("1 candidate") and "text equals, type" in by_text


async def test_inspect_reaches_shadow_roots_and_says_when_nothing_fits(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/shadow")
    text = await client.ok("inspect_element", description="shadow button")
    assert '1. button#shadow-btn "Shadow button" (visible, in shadow root of div#host)' in text
    assert "95 #shadow-btn  (unique id)" in text
    nothing = await client.ok("inspect_element", description="zebra giraffe")
    assert nothing.startswith('No element resembles "zebra giraffe"') and "query_elements" in nothing
    kind, text = await client.error("inspect_element", limit=3)
    assert kind == "VALIDATION" and "description | text | attributes" in text and "Suggestion:" in text


async def test_wait_for_an_element_and_for_a_spinner_to_go(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/slow")
    text = await client.ok("wait_for", selector="#late")
    assert re.fullmatch(r'"#late" is visible after \d+ ms: p#late "Arrived late"\.', text), text
    assert await client.js("document.getElementById('late').textContent") == "Arrived late"
    await client.ok("navigate", url=f"{site_url}/slow")
    text = await client.ok("wait_for", selector="#spinner", state="hidden")
    assert "is hidden after" in text and "no element matches any more" in text
    assert await client.js("document.getElementById('spinner')") is None


async def test_wait_for_texts_and_attached_state(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/slow")
    text = await client.ok("wait_for", texts=["never there", "arrived LATE"])
    assert re.fullmatch(r'Text "arrived LATE" appeared after \d+ ms\.', text), text
    assert await client.js("document.body.innerText.includes('Arrived late')") is True
    await client.ok("navigate", url=f"{site_url}/frames")
    text = await client.ok("wait_for", selector="#frame-btn", state="attached")
    assert "is attached after" in text and "(in iframe#inner-frame)" in text


async def test_wait_for_a_css_only_change_and_across_a_navigation(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/reveal")
    assert "is visible after" in await client.ok("wait_for", selector="#box")
    assert await client.js("getComputedStyle(document.getElementById('box')).visibility") == "visible"
    await client.ok("navigate", url=f"{site_url}/moving")
    assert 'h1#welcome "Signed in"' in await client.ok("wait_for", selector="#welcome")
    assert await client.js("location.pathname") == "/welcome"


async def test_wait_for_errors(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/hidden")
    kind, text = await client.error("wait_for", selector="#none-btn", timeout_ms=300)
    assert kind == "EXECUTION"
    assert 'Timed out after 300 ms waiting for a selector to be visible.\nWaited for "#none-btn" to be visible' in text
    assert "1 element matches, none visible" in text and "Suggestion:" in text
    kind, text = await client.error("wait_for", selector="#visible-btn", texts=["x"])
    assert kind == "VALIDATION" and "selector | texts" in text
    kind, text = await client.error("wait_for")
    assert kind == "VALIDATION" and "neither" in text
    kind, text = await client.error("wait_for", selector="div[")
    assert kind == "VALIDATION" and "selector" in text
    assert "is visible after" in await client.ok("wait_for", selector="#visible-btn", timeout_ms=1000)
