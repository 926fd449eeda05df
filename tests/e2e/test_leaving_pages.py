"""Leaving a page, in both modes: one that asks to confirm it (beforeunload) answers at once and
is decided with handle_dialog; one whose load never finishes says how far it got.

Chromium shows a beforeunload dialog only to a page that had a user gesture, so each guarded
page gets a real click first. The old behaviour waited out the whole navigation timeout (30 s)
with the dialog open; the bound below is far under that and generous for a slow machine.
"""

from __future__ import annotations

import time

import pytest

from tests.e2e.harness import ModeClient
from tests.support.pages import HANG_PATH, PageSpec

pytestmark = pytest.mark.anyio

ASKS_AT_ONCE_S = 5.0
GUARDED = (
    b"<title>Draft</title><button id=touch onclick='window.touched = (window.touched || 0) + 1'>Touch</button>"
    b"<a id=away href='/other'>Away</a>"
    b"<script>addEventListener('beforeunload', e => {"
    b" if (!window.released) { e.preventDefault(); e.returnValue = ''; } })</script>"
)
PAGES: dict[str, PageSpec] = {
    "/draft": (200, "text/html", GUARDED),
    "/other": (200, "text/html", b"<title>Other</title><p>elsewhere</p>"),
    "/slow": (
        200,
        "text/html",
        b"<title>Slow</title><p id=ready>parsed</p><script async src='" + HANG_PATH.encode() + b"'></script>",
    ),
}


@pytest.fixture(autouse=True)
async def released(client: ModeClient) -> None:
    """Whatever page the test before left current lets go without asking."""
    await client.js("window.released = true")


def dialog_call(client: ModeClient) -> str:
    return 'interact(action="handle_dialog")' if client.mode == "smart" else "handle_dialog()"


async def guarded_page(client: ModeClient, site_url: str) -> None:
    """The guarded page, with the user gesture Chromium wants before it asks."""
    await client.ok("navigate", url=f"{site_url}/draft")
    await client.ok("click_element", selector="#touch")
    assert await client.js("window.touched") == 1


async def timed(client: ModeClient, tool: str, **arguments: object) -> str:
    started = time.monotonic()
    text = await client.ok(tool, **arguments)
    assert time.monotonic() - started < ASKS_AT_ONCE_S, text
    return text


async def test_navigating_away_asks_at_once_then_stays_or_leaves(client: ModeClient, site_url: str) -> None:
    await guarded_page(client, site_url)
    text = await timed(client, "navigate", url=f"{site_url}/other")
    assert text == (
        "The page asks to confirm leaving (its beforeunload dialog is open), so the navigation to "
        f'{site_url}/other waits: the page is still at {site_url}/draft ("Draft").\n'
        f"Answer with {dialog_call(client)}: accept=true leaves, false stays."
    )
    kind, text = await client.error("navigate", url=f"{site_url}/other")  # it still asks: answer first
    assert kind == "STATE" and text.startswith("The page asks to confirm leaving (its beforeunload dialog is open)."), (
        text
    )
    text = await client.ok("handle_dialog", accept=False)
    assert text == f'Dismissed the beforeunload dialog: the page stays.\nPage: "Draft" {site_url}/draft', text
    assert await client.js("[location.href, window.touched || 0]") == [f"{site_url}/draft", 1]  # its state intact

    assert "so the navigation to" in await timed(client, "navigate", url=f"{site_url}/other")
    text = await client.ok("handle_dialog", accept=True)
    assert text.startswith("Accepted leaving the page (its beforeunload dialog).\n"), text
    assert f'Page: "Other" {site_url}/other' in text, text
    assert await client.js("location.href") == f"{site_url}/other"


async def test_reload_and_history_steps_ask_too(client: ModeClient, site_url: str) -> None:
    await guarded_page(client, site_url)
    text = await timed(client, "reload")
    assert text.startswith("The page asks to confirm leaving (its beforeunload dialog is open), so the reload waits"), (
        text
    )
    assert "Accepted leaving" in await client.ok("handle_dialog", accept=True)
    assert await client.js("[location.href, window.touched || 0]") == [f"{site_url}/draft", 0]  # a new document

    await client.ok("click_element", selector="#touch")
    text = await timed(client, "go_back")
    assert "so going back waits" in text, text
    assert "the page stays" in await client.ok("handle_dialog", accept=False)
    assert await client.js("[location.href, window.touched || 0]") == [f"{site_url}/draft", 1]


async def test_a_link_that_leaves_asks_and_accepting_follows_it(client: ModeClient, site_url: str) -> None:
    await guarded_page(client, site_url)
    text = await timed(client, "click_element", selector="#away")
    assert text.startswith(
        'Clicked a#away "Away".\n'
        "The page asks to confirm leaving (its beforeunload dialog is open), so the navigation to "
        f"{site_url}/other waits.\n"
        f"Answer with {dialog_call(client)}: accept=true leaves, false stays."
    ), text
    text = await client.ok("handle_dialog", accept=True)
    assert f'Navigated to {site_url}/other (title "Other").' in text, text
    assert await client.js("location.href") == f"{site_url}/other"


async def test_closing_a_page_that_asks_keeps_it_or_closes_it(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/other")
    opened = await client.ok("new_target", url=f"{site_url}/draft")
    index = int(opened.split("[", 1)[1].split("]", 1)[0])
    await client.ok("click_element", selector="#touch")
    text = await timed(client, "close_target")
    assert text == (
        f"The page asks to confirm leaving (its beforeunload dialog is open), so [{index}] Draft is not closed "
        "yet; it stays the current page.\n"
        f"Answer with {dialog_call(client)}: accept=true closes it, false keeps it open."
    )
    text = await client.ok("handle_dialog", accept=False)
    assert text == f"Dismissed the beforeunload dialog: [{index}] Draft stays open, the current page.", text
    assert await client.js("[location.href, window.touched || 0]") == [f"{site_url}/draft", 1]

    assert "is not closed yet" in await timed(client, "close_target")
    text = await client.ok("handle_dialog", accept=True)
    assert text.startswith(f"Accepted leaving the page (its beforeunload dialog).\nClosed [{index}] Draft.\n"), text
    assert "/draft" not in await client.ok("list_targets")
    assert await client.js("location.href") == f"{site_url}/other"


async def test_a_page_without_a_user_gesture_leaves_without_asking(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/draft")
    text = await timed(client, "navigate", url=f"{site_url}/other")
    assert text.startswith(f"Navigated to {site_url}/other (HTTP 200, load after "), text
    assert await client.js("location.href") == f"{site_url}/other"


async def test_a_load_that_never_finishes_says_how_far_it_got(client: ModeClient, site_url: str) -> None:
    text = await client.ok("navigate", url=f"{site_url}/slow", timeout_ms=1500)
    lines = text.splitlines()
    assert lines[0].startswith(f"Navigated to {site_url}/slow (HTTP 200, after "), text
    assert lines[1:] == [
        "Title: Slow",
        "'load' was not reached within 1500 ms.",
        "The document is parsed (DOMContentLoaded fired): the page can be used, queries and actions work.",
        "1 request still pending:",
        f"  {site_url}{HANG_PATH}",
    ]
    assert '[0] p#ready "parsed"' in await client.ok("query_elements", selector="#ready")
    assert await client.js("document.readyState") == "interactive"
