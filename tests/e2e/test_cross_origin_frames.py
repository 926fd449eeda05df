"""The element tools in a cross-origin iframe, through the real server, in both modes.

The page is served on 127.0.0.1 and its iframe from localhost (the same server): another
site, so Chromium runs the iframe in a renderer and a target of its own, which the page's
scripts cannot enter. The iframe tells the page what happened in it (a click, a value) by
``postMessage``; the page keeps each message, and `message` awaits one by its kind.
"""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

HOST = html(
    "Shop",
    """<button id="top">Top</button>
<iframe id="pay" width="400" height="300" style="margin: 30px; border: 7px solid; padding: 5px"></iframe>
<button id="after" onclick="window.afterClicks = (window.afterClicks || 0) + 1">After</button>
<script>
window.messages = [];
const waiting = [];
addEventListener("message", event => {
  window.messages.push(event.data);
  waiting.splice(0).forEach(check => check());
});
window.message = kind => new Promise(resolve => {
  const check = () => {
    const found = window.messages.find(m => m.kind === kind);
    found ? resolve(found) : waiting.push(check);
  };
  check();
});
document.getElementById("pay").src = "http://localhost:" + location.port + "/frame.html";
window.addFrame = () => {
  const frame = document.createElement("iframe");
  frame.id = "added";
  frame.src = "http://localhost:" + location.port + "/added.html";
  document.body.append(frame);
};
</script>""",
)
FRAME = html(
    "Payment",
    """<div style="height: 40px"></div>
<button id="pay-btn">Pay</button>
<input id="card" placeholder="Card number">
<script>
const tell = data => parent.postMessage(data, "*");
document.getElementById("pay-btn").addEventListener("click", () => tell({kind: "clicked"}));
document.getElementById("card").addEventListener("change", e => tell({kind: "filled", value: e.target.value}));
document.getElementById("card").addEventListener("keyup", e => tell({kind: "key", key: e.key, value: e.target.value}));
addEventListener("message", event => {
  if (event.data !== "show late") return;
  const late = document.createElement("p");
  late.id = "late";
  late.textContent = "Arrived late";
  document.body.append(late);
});
tell({kind: "ready"});
</script>""",
)
# The page (127.0.0.1) holds an iframe from localhost, which holds one from 127.0.0.1 again:
# a target of its own too, attached from its parent's session. A banner covers a third iframe.
NESTED = html(
    "Nested",
    """<iframe id="outer" width="500" height="400"></iframe>
<div style="position: relative">
  <iframe id="under" width="400" height="200"></iframe>
  <div id="banner" style="position: absolute; inset: 0; background: white">Cookies?</div>
</div>
<iframe id="opaque" src="data:text/html,<button>Hidden away</button>"></iframe>
<script>
window.messages = [];
addEventListener("message", event => window.messages.push(event.data));
const other = "http://localhost:" + location.port;
document.getElementById("outer").src = other + "/middle.html";
document.getElementById("under").src = other + "/frame.html";
</script>""",
)
MIDDLE = html(
    "Middle",
    """<p>middle</p><iframe id="deep" width="300" height="200" style="margin-left: 50px"></iframe>
<script>document.getElementById("deep").src = "http://127.0.0.1:" + location.port + "/deep.html";</script>""",
)
DEEP = html(
    "Deep",
    """<div style="height: 60px"></div>
<button id="deep-btn" onclick="top.postMessage({kind: 'deep'}, '*')">Deep</button>""",
)
PAGES = {
    "/host": (200, "text/html", HOST),
    "/frame.html": (200, "text/html", FRAME),
    "/nested": (200, "text/html", NESTED),
    "/middle.html": (200, "text/html", MIDDLE),
    "/deep.html": (200, "text/html", DEEP),
    "/added.html": (200, "text/html", html("Added", '<p id="in-added">Inside the added frame</p>')),
}


async def on_host(client: ModeClient, site_url: str) -> str:
    """Load the page and wait until its iframe runs; the iframe's URL."""
    await client.ok("navigate", url=f"{site_url}/host")
    await message(client, "ready")
    return f"{site_url.replace('127.0.0.1', 'localhost')}/frame.html"


async def message(client: ModeClient, kind: str) -> Any:
    text = await client.ok("evaluate_js", expression=f"window.message({json.dumps(kind)})")
    return json.loads(text)


async def test_the_iframe_is_a_target_of_its_own(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    assert f" (iframe) {frame_url}" in await client.ok("list_targets")
    assert await client.js("document.getElementById('pay').contentDocument") is None


async def test_query_finds_buttons_in_the_iframe_in_document_order(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("query_elements", selector="button")
    assert text.startswith('3 match "button"; showing 3 of 3.'), text
    heads = [line for line in text.splitlines() if line.startswith("[")]
    assert heads == [
        '[0] button#top "Top" visible',
        f'[1] button#pay-btn "Pay" visible, in iframe#pay ({frame_url}), select with: iframe#pay >> button',
        '[2] button#after "After" visible',
    ], text


async def test_inspect_suggests_a_selector_inside_the_iframe(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("inspect_element", text="Pay")
    assert f'1. button#pay-btn "Pay" (visible, in iframe#pay ({frame_url})) match ' in text, text
    assert "#pay-btn  (" in text, text


async def test_click_by_the_query_index_reaches_the_iframe_and_the_page(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("click_element", selector="button", index=1)
    assert text.startswith(f'Clicked button#pay-btn "Pay" (in iframe#pay ({frame_url})) (match 2 of 3).'), text
    assert await message(client, "clicked") == {"kind": "clicked"}
    text = await client.ok("click_element", selector="button", index=2)
    assert text.startswith('Clicked button#after "After" (match 3 of 3).'), text
    assert await client.js("window.afterClicks") == 1


async def test_fill_types_into_the_field_in_the_iframe(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("fill_element", selector="#card", text="4242 4242")
    assert text.startswith(f'Filled input#card (in iframe#pay ({frame_url})) with "4242 4242".'), text
    assert await message(client, "filled") == {"kind": "filled", "value": "4242 4242"}


async def test_a_form_fill_reaches_the_field_in_the_iframe(client: ModeClient, site_url: str) -> None:
    await on_host(client, site_url)
    text = await client.ok("fill_form", fields=[{"selector": "#card", "value": "5555"}])
    assert text.splitlines()[:2] == ["Filled 1 of 1 field:", '  #card (text): "5555"'], text
    assert await message(client, "filled") == {"kind": "filled", "value": "5555"}


async def test_a_key_pressed_in_the_field_in_the_iframe(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("press_key", key="7", selector="#card")
    assert text.startswith(f"Pressed 7 in input#card (in iframe#pay ({frame_url}))."), text
    assert await message(client, "key") == {"kind": "key", "key": "7", "value": "7"}


async def test_wait_for_an_element_that_appears_later_in_the_iframe(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    assert (await client.ok("query_elements", selector="#late")).startswith('No element matches "#late"')
    answers: list[str] = []

    async def wait() -> None:
        answers.append(await client.ok("wait_for", selector="#late", state="visible", timeout_ms=10000))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(wait)
        show_late = "document.getElementById('pay').contentWindow.postMessage('show late', '*')"
        await client.ok("evaluate_js", expression=show_late)
    assert re.fullmatch(
        rf'"#late" is visible after \d+ ms: p#late "Arrived late" \(in iframe#pay \({re.escape(frame_url)}\)\)\.',
        answers[0],
    ), answers


async def test_wait_for_an_element_in_an_iframe_added_later(client: ModeClient, site_url: str) -> None:
    frame_url = f"{site_url.replace('127.0.0.1', 'localhost')}/added.html"
    await on_host(client, site_url)
    answers: list[str] = []

    async def wait() -> None:
        answers.append(await client.ok("wait_for", selector="#in-added", state="attached", timeout_ms=10000))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(wait)
        await client.ok("evaluate_js", expression="addFrame()")
    assert re.fullmatch(
        rf'"#in-added" is attached after \d+ ms: p#in-added "Inside the added frame" '
        rf"\(in iframe#added \({re.escape(frame_url)}\)\)\.",
        answers[0],
    ), answers


async def test_a_query_that_matches_nothing_names_the_iframes_searched(client: ModeClient, site_url: str) -> None:
    frame_url = await on_host(client, site_url)
    text = await client.ok("query_elements", selector="#nowhere")
    first = text.splitlines()[0]
    assert re.fullmatch(
        rf'No element matches "#nowhere" \(searched \d+ elements, 1 cross-origin iframe: iframe#pay '
        rf"\({re.escape(frame_url)}\)\)\.",
        first,
    ), text
    error_type, error = await client.error("click_element", selector="#nowhere")
    assert error_type == "STATE" and "No element matches the selector." in error


async def test_an_iframe_in_an_iframe_is_searched_and_clicked(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/nested")
    other = site_url.replace("127.0.0.1", "localhost")
    deep = f"iframe#outer ({other}/middle.html) > iframe#deep ({site_url}/deep.html)"
    text = await client.ok("query_elements", selector="#deep-btn")
    assert f'[0] button#deep-btn "Deep" visible, in {deep}' in text, text
    text = await client.ok("click_element", selector="#deep-btn")
    assert text.startswith(f'Clicked button#deep-btn "Deep" (in {deep}).'), text
    assert {"kind": "deep"} in await client.js("window.messages")


async def test_a_banner_over_the_iframe_stops_the_click_and_says_so(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/nested")
    error_type, text = await client.error("click_element", selector="#pay-btn")
    assert error_type == "STATE" and 'button#pay-btn "Pay" is covered by div#banner "Cookies?"' in text, text


async def test_an_opaque_iframe_in_the_page_process_is_searched(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/nested")
    text = await client.ok("query_elements", selector="button")
    assert (
        '[2] button "Hidden away" visible, in iframe#opaque (data:text/html,<button>Hidden away</button>), '
        "select with: iframe#opaque >> button" in text
    ), text
    assert "not searched" not in text, text
