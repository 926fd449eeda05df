"""NetworkLog on a real Chromium (redirect hops, real headers, bodies, page scope, pages of the list)
and its filters."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cdpilot.browser.observe import network
from cdpilot.browser.observe.network import NetworkLog
from cdpilot.browser.observe.network_facts import (
    MissingBody,
    NetworkEntry,
    RequestFilter,
    ResponseBody,
    url_matcher,
)
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import StateError
from tests.browser_layer.helpers import run
from tests.support.pages import serve_pages
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BINARY = bytes(range(256))
MIB = 1024 * 1024
LARGE = {
    name: random.Random(name).randbytes(size) for name, size in (("two", 2 * MIB), ("a", MIB), ("b", MIB), ("c", MIB))
}
PAGES = {
    **SITE,
    "/moved": (302, "text/html", b"", {"Location": "/welcome"}),
    "/blob.bin": (200, "application/octet-stream", BINARY),
    **{f"/{name}.bin": (200, "application/octet-stream", data) for name, data in LARGE.items()},
    "/text.txt": (200, "text/plain", b"x" * MIB),
}
SMALL_BODY_LIMIT, SMALL_BUFFER = MIB + MIB // 2, 2 * MIB + MIB // 2  # "two" over the first, a + b + c the second


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


def by_path(log: NetworkLog, pages: str, path: str) -> list[NetworkEntry]:
    return [r for r in log.requests() if r.url == pages + path]


async def test_each_redirect_hop_is_a_request_of_its_own(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/moved")
    log = browser.features.network
    [moved] = by_path(log, pages, "/moved")
    [landed] = by_path(log, pages, "/welcome")
    assert (moved.status, moved.resource_type, landed.status, landed.resource_type) == (
        302,
        "document",
        200,
        "document",
    )
    assert moved.cdp_id == landed.cdp_id and int(landed.id) == int(moved.id) + 1
    assert moved.duration_ms is not None and moved.response_headers["Location"] == "/welcome"
    assert log.get(landed.cdp_id) == landed  # a CDP id names its latest hop


async def test_real_headers_and_bodies(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/api/data', {headers: {Authorization: 'Bearer t'}}).then(r => r.text())")
    log = browser.features.network
    [sent] = by_path(log, pages, "/api/data")
    data = await log.settled(sent.id, 5)
    assert data.request_headers["Authorization"] == "Bearer t"
    assert data.response_headers["Set-Cookie"] == "session=abc123; HttpOnly"  # only the ExtraInfo twin has it
    assert (data.status, data.mime_type, data.resource_type) == (200, "application/json", "fetch")
    body = await log.body(data.id)
    assert body == ResponseBody(b'{"message": "data loaded", "items": [1, 2, 3]}', binary=False)


async def test_a_binary_body_comes_back_as_bytes(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/blob.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    log = browser.features.network
    [blob] = by_path(log, pages, "/blob.bin")
    assert await log.body(blob.id, wait_s=5) == ResponseBody(BINARY, binary=True)


async def test_a_failed_request_has_status_zero_and_no_body(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('http://127.0.0.1:1/nothing').catch(e => 'failed')")
    log = browser.features.network
    [failed] = by_path(log, "http://127.0.0.1:1", "/nothing")
    assert failed.status == 0 and failed.error_text is not None and "ERR_" in failed.error_text
    body = await log.body(failed.id)
    assert isinstance(body, MissingBody) and (body.why, body.detail) == ("failed", failed.error_text)


async def test_a_navigation_keeps_only_the_new_page(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/page/1').then(r => r.text())")
    log = browser.features.network
    old = by_path(log, pages, "/page/1")[0]
    await navigate(browser, f"{pages}/welcome")
    assert [r.url for r in log.requests() if r.resource_type == "document"] == [f"{pages}/welcome"]
    with pytest.raises(StateError, match=f"Request {old.id} is no longer recorded: the log keeps the requests of the "):
        log.get(old.id)
    with pytest.raises(StateError, match="No request with id '99999' on this page"):
        log.get("99999")


async def test_a_body_from_an_ended_session_is_explained(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/page/2').then(r => r.text())")
    kept = NetworkLog()
    await kept.attach(browser.page)
    await run(browser, "fetch('/page/3').then(r => r.text())")
    [request] = by_path(kept, pages, "/page/3")
    await browser.use_target(browser.page.target_id or "")  # a new session; the old one is detached
    assert await kept.body(request.id) == MissingBody(request.id, "session ended")


async def test_the_log_keeps_the_newest_requests(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    small = NetworkLog(max_requests=3)
    await small.attach(browser.page)
    await run(browser, "Promise.all([1, 2, 3, 4, 5].map(i => fetch('/page/' + i).then(r => r.text())))")
    assert len(small.requests()) == 3 and small.dropped == 2
    page = small.page(RequestFilter(url_pattern="/page/"), offset=1, limit=5)
    assert (page.offset, page.matching, page.recorded, page.dropped) == (1, 3, 3, 2)
    assert [r.id for r in page.requests] == [r.id for r in small.requests()[1:]]
    await browser.use_target(browser.page.target_id or "")


async def test_a_redirect_hop_has_no_body_of_its_own(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/moved")
    log = browser.features.network
    [moved], [landed] = by_path(log, pages, "/moved"), by_path(log, pages, "/welcome")
    assert await log.body(moved.id) == MissingBody(moved.id, "redirect", "302")  # not the next hop's
    body = await log.body(landed.id)
    assert isinstance(body, ResponseBody) and b"Signed in" in body.data


async def test_bodies_chrome_let_go_name_the_limit_that_applied(browser: BrowserConnection, pages: str) -> None:
    """A body over the per-body limit is never kept; one under it is pushed out when later ones
    fill the page's buffer, oldest first. Every body's size is counted as it arrives."""
    await navigate(browser, f"{pages}/fetch")
    small = NetworkLog(body_limit=SMALL_BODY_LIMIT, buffer_limit=SMALL_BUFFER)
    await small.attach(browser.page)
    for name in LARGE:
        await run(browser, f"fetch('/{name}.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    ids = {name: by_path(small, pages, f"/{name}.bin")[0].id for name in LARGE}
    over = await small.body(ids["two"])
    assert isinstance(over, MissingBody) and (over.why, over.size, over.limit) == (
        "over limit",
        2 * MIB,
        SMALL_BODY_LIMIT,
    )
    evicted = await small.body(ids["a"])
    assert isinstance(evicted, MissingBody) and (evicted.why, evicted.size, evicted.limit) == (
        "evicted",
        MIB,
        SMALL_BUFFER,
    )
    assert "evicted" in evicted.detail  # Chrome's own words
    assert await small.body(ids["c"]) == ResponseBody(LARGE["c"], binary=True)
    await browser.use_target(browser.page.target_id or "")  # a new session, with the usual buffers


async def test_a_body_too_large_for_a_message_is_not_asked_for(
    browser: BrowserConnection, pages: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text may come back six times its size (escaped): what would not fit in a message is
    refused beforehand, as its reply would end the connection. Binary comes as base64."""
    monkeypatch.setattr(network, "MAX_MESSAGE_BYTES", 4 * MIB)
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "Promise.all(['/text.txt', '/b.bin'].map(u => fetch(u).then(r => r.arrayBuffer())))")
    log = browser.features.network
    [text], [binary] = by_path(log, pages, "/text.txt"), by_path(log, pages, "/b.bin")
    readable = (4 * MIB - network.MESSAGE_ROOM) // 6
    assert await log.body(text.id) == MissingBody(text.id, "unreadable", "text", MIB, readable)
    assert await log.body(binary.id) == ResponseBody(LARGE["b"], binary=True)


def test_url_patterns_glob_or_match_a_substring() -> None:
    assert url_matcher("api/da")("http://h/api/data?x=1")
    assert url_matcher("*/api/*")("http://h/api/data")
    assert not url_matcher("*/api/")("http://h/api/data")
    assert url_matcher("http://h/p?ge")("http://h/page")
    assert not url_matcher("*.css")("http://h/a.css.map")
    assert url_matcher("*[x]*")("http://h/[x]")  # only * and ? are special


def request(request_id: str, url: str, resource_type: str, status: int | None) -> NetworkEntry:
    return NetworkEntry(
        request_id, request_id, "GET", url, resource_type, {}, None, status, "", "", {}, None, None, None
    )


def test_filters_combine_and_other_means_any_unnamed_type() -> None:
    requests = [
        request("1", "http://h/", "document", 200),
        request("2", "http://h/api/a", "fetch", 200),
        request("3", "http://h/api/b", "fetch", 500),
        request("4", "http://h/ping", "ping", 0),
        request("5", "http://h/x", "other", None),
    ]

    def ids(**filters: Any) -> list[str]:
        return [r.id for r in RequestFilter(**filters).select(requests)]

    assert ids() == ["1", "2", "3", "4", "5"]
    assert ids(resource_type="fetch") == ["2", "3"]
    assert ids(resource_type="fetch", status=500) == ["3"]
    assert ids(resource_type="other") == ["4", "5"]
    assert ids(status=0) == ["4"]
    assert ids(url_pattern="/api/", status=200) == ["2"]
