"""The element tools in frames of every origin, above and below the fold, through the real server in both modes.

The page (127.0.0.1, one port) holds a same-origin iframe, one from another origin of the
same site (127.0.0.1 on a second server's port: Chromium keeps it in the page's process, with
no target of its own) and one from another site (localhost: a target of its own), each above
and below a tall spacer. Every frame holds the same `#card` field, so only a frame-scoped
selector (`iframe#pay >> #card`) names one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import anyio
import pytest

from tests.e2e.frame_sites import nested_frame_pages, open_with_frames
from tests.e2e.harness import ModeClient
from tests.support.pages import serve_pages
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

TOP = html(
    "Checkout",
    """<input id="card" placeholder="Top card">
<iframe id="same" width="300" height="150"></iframe>
<iframe id="pay" width="300" height="150"></iframe>
<iframe id="xsite" width="300" height="150"></iframe>
<div style="height: 3000px">spacer</div>
<iframe id="low-pay" width="300" height="150"></iframe>
<iframe id="low-xsite" width="300" height="150"></iframe>
<script>
const here = location.port, other = new URLSearchParams(location.search).get("other");
const sources = {
  same: "/card.html",
  pay: "http://127.0.0.1:" + other + "/card.html",
  xsite: "http://localhost:" + here + "/card.html",
  "low-pay": "http://127.0.0.1:" + other + "/card.html",
  "low-xsite": "http://localhost:" + here + "/card.html",
};
for (const [id, src] of Object.entries(sources)) document.getElementById(id).src = src + "?in=" + id;
</script>""",
)
CARD = html(
    "Card",
    """<input id="card" placeholder="Card number">
<button id="go" onclick="this.textContent = 'Paid'">Pay now</button>
<select id="plan"><option value="m">Monthly</option><option value="y">Yearly</option></select>
<span id="tip" onmouseover="this.textContent = 'Hovered'">Hover me</span>
<script>
window.frameName = new URLSearchParams(location.search).get("in");
window.later = () => setTimeout(() => {
  const p = document.createElement("p");
  p.id = "late";
  p.textContent = "Arrived in " + frameName;
  document.body.append(p);
}, 50);
</script>""",
)
PAGES = {
    "/top": (200, "text/html", TOP),
    "/card.html": (200, "text/html", CARD),
    # Nested: a same-site frame of another origin (in the page's process) holding a cross-site one.
    **nested_frame_pages(
        before='<div style="height: 2000px">spacer</div>',
        outer='width="500" height="300"',
        middle="<p>middle</p>",
        inner='width="400" height="200"',
    ),
}
# The frames of another origin, and the URL each loads.
FRAMES = ["pay", "xsite", "low-pay", "low-xsite"]


@pytest.fixture(scope="module")
def other_url() -> Iterator[str]:
    """The same pages on a second port of 127.0.0.1: another origin of the same site."""
    with serve_pages(PAGES) as base_url:
        yield base_url


def frame_url(frame: str, site_url: str, other_url: str) -> str:
    base = other_url if frame.endswith("pay") else site_url.replace("127.0.0.1", "localhost")
    return f"{base}/card.html?in={frame}"


# Each frame of another origin, with the index of its #go among all matches (the same-origin frame's is 0).
PLAIN = [("pay", 1), ("xsite", 2), ("low-pay", 3), ("low-xsite", 4)]


@pytest.mark.parametrize(("frame", "index"), PLAIN)
async def test_a_plain_selector_and_its_index_reach_the_frame(
    client: ModeClient, site_url: str, other_url: str, frame: str, index: int
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    url = frame_url(frame, site_url, other_url)
    text = await client.ok("click_element", selector="#go", index=index)
    assert text.startswith(f'Clicked button#go "Pay now" (in iframe#{frame} ({url})) (match {index + 1} of 5).'), text
    text = await client.ok("fill_element", selector="#card", index=index + 1, text="4111")
    assert text.startswith(f'Filled input#card (in iframe#{frame} ({url})) (match {index + 2} of 6) with "4111".'), text
    text = await client.ok("query_elements", selector="#go, #card", limit=20)
    assert f'button#go "Paid" visible, in iframe#{frame} ({url})' in text, text
    assert f'input#card visible, value="4111", in iframe#{frame} ({url})' in text, text
    assert text.count('"Paid"') == 1 and text.count('value="4111"') == 1, text


async def test_a_query_finds_the_field_in_every_frame_with_its_scoped_selector(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    text = await client.ok("query_elements", selector="#card", include_hidden=True, limit=10)
    assert text.startswith('6 match "#card"'), text
    for frame in FRAMES:
        assert f"in iframe#{frame} ({frame_url(frame, site_url, other_url)}), select with: iframe#{frame} >> #card" in (
            text
        ), text
    assert "not searched" not in text, text


@pytest.mark.parametrize("frame", FRAMES)
async def test_click_fill_and_wait_reach_the_frame_by_its_scoped_selector(
    client: ModeClient, site_url: str, other_url: str, frame: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    url = frame_url(frame, site_url, other_url)
    text = await client.ok("click_element", selector=f"iframe#{frame} >> #go")
    assert text.startswith(f'Clicked button#go "Pay now" (in iframe#{frame} ({url})).'), text
    text = await client.ok("query_elements", selector=f"iframe#{frame} >> #go")
    assert f'[0] button#go "Paid" visible, in iframe#{frame} ({url})' in text, text
    text = await client.ok("fill_element", selector=f"iframe#{frame} >> #card", text="4242")
    assert text.startswith(f'Filled input#card (in iframe#{frame} ({url})) with "4242".'), text
    text = await client.ok("query_elements", selector=f"iframe#{frame} >> #card")
    assert 'value="4242"' in text, text
    top = await client.ok("query_elements", selector="#card", limit=1)
    assert 'value="4242"' not in top.splitlines()[1], top  # the page's own field is untouched
    answers: list[str] = []

    async def wait() -> None:
        answers.append(await client.ok("wait_for", selector=f"iframe#{frame} >> #late", timeout_ms=10000))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(wait)
        await client.ok("evaluate_js", expression=f"iframe#{frame} >> later()")
    found = rf'p#late "Arrived in {frame}" \(in iframe#{frame} \({re.escape(url)}\)\)'
    assert re.fullmatch(rf'"iframe#{frame} >> #late" is visible after \d+ ms: {found}\.', answers[0]), answers


@pytest.mark.parametrize("frame", FRAMES)
async def test_inspect_gives_a_scoped_selector_that_click_and_fill_take(
    client: ModeClient, site_url: str, other_url: str, frame: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    text = await client.ok("inspect_element", text="Pay now", limit=10)
    assert f"  95 iframe#{frame} >> #go  (unique id)" in text, text
    assert "95 #go  (unique id)" not in text, text  # #go is in every frame: unique in none of them alone
    assert "  95 iframe#same >> #go  (unique id)" in text, text
    text = await client.ok("click_element", selector=f"iframe#{frame} >> #go")
    assert text.startswith('Clicked button#go "Pay now"'), text
    assert await in_frame(client, frame, "document.getElementById('go').textContent") == "Paid"
    assert await in_frame(client, frame, "frameName") == frame  # the frame's own script globals
    text = await client.ok("fill_element", selector=f"iframe#{frame} >> #card", text="5555")
    assert await in_frame(client, frame, "document.getElementById('card').value") == "5555", text
    assert await client.js("document.getElementById('card').value") == ""  # the page's field is untouched


@pytest.mark.parametrize("frame", FRAMES)
async def test_select_and_hover_reach_the_frame_by_its_scoped_selector(
    client: ModeClient, site_url: str, other_url: str, frame: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    text = await client.ok("select_option", selector=f"iframe#{frame} >> #plan", label="Yearly")
    assert "Yearly" in text, text
    assert await in_frame(client, frame, "document.getElementById('plan').value") == "y"
    text = await client.ok("hover_element", selector=f"iframe#{frame} >> #tip")
    assert await in_frame(client, frame, "document.getElementById('tip').textContent") == "Hovered", text


async def in_frame(client: ModeClient, frame: str, expression: str) -> object:
    """The value of `expression` evaluated in the iframe `frame`, through its frame-scoped form."""
    return await client.js(f"iframe#{frame} >> {expression}")


async def test_evaluate_keeps_javascript_shifts_and_element_tools_refuse_an_unknown_frame(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    assert await client.js("64 >> 2 >> 1") == 8
    error_type, error = await client.error("click_element", selector="iframe#nowhere >> #go")
    assert error_type == "STATE" and error.startswith('The frame part "iframe#nowhere" matches no element in the page.')
    error_type, error = await client.error("fill_element", selector="iframe >> #card", text="1")
    assert error_type == "STATE" and error.startswith('The frame part "iframe" matches 5 elements in the page: ')


async def test_a_query_whose_matches_are_all_hidden_says_so(client: ModeClient, site_url: str, other_url: str) -> None:
    await open_with_frames(client, site_url, other_url, "/top")
    await client.ok("evaluate_js", expression="document.getElementById('card').hidden = true")
    text = await client.ok("query_elements", selector="input#card[placeholder='Top card']")
    assert text.splitlines()[0] == (
        "1 match \"input#card[placeholder='Top card']\", all hidden; include_hidden=true shows them."
    ), text


async def test_a_cross_site_frame_inside_a_same_site_one_is_reached_by_a_chained_selector(
    client: ModeClient, site_url: str, other_url: str
) -> None:
    await open_with_frames(client, site_url, other_url, "/nest")
    chained = "iframe#outer >> iframe#inner >> #go"
    await client.ok("wait_for", selector=chained, state="attached", timeout_ms=10000)
    text = await client.ok("inspect_element", text="Pay now")
    assert f"  95 {chained}  (unique id)" in text, text
    text = await client.ok("click_element", selector=chained)
    assert text.startswith('Clicked button#go "Pay now" (in iframe#outer ('), text
    assert await client.js("iframe#outer >> iframe#inner >> document.getElementById('go').textContent") == "Paid"
    await client.ok("fill_element", selector="iframe#outer >> iframe#inner >> #card", text="77")
    assert await client.js("iframe#outer >> iframe#inner >> document.getElementById('card').value") == "77"
