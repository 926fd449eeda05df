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
PAGES = {"/host": (200, "text/html", HOST), "/frame.html": (200, "text/html", FRAME)}


async def on_host(client: ModeClient, site_url: str) -> str:
    """Load the page and wait until its iframe runs; the iframe's URL."""
    await client.ok("navigate", url=f"{site_url}/host")
    await message(client, "ready")
    return f"{site_url.replace('127.0.0.1', 'localhost')}/frame.html"


async def message(client: ModeClient, kind: str) -> Any:
    text = await client.ok("evaluate_js", expression=f"window.message({json.dumps(kind)})", await_promise=True)
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
        f'[1] button#pay-btn "Pay" visible, in iframe#pay ({frame_url})',
        '[2] button#after "After" visible',
    ], text


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
