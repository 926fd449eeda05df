"""NetworkLog on a real Chromium (redirect hops, real headers, bodies, page scope) and its helpers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

from cdpilot.browser.observe.network import (
    NetworkLog,
    NetworkRequest,
    matching,
    redact_headers,
    url_matcher,
)
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpSession
from cdpilot.errors import StateError
from tests.browser.helpers import run
from tests.support.pages import serve_pages
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BINARY = bytes(range(256))
PAGES = {
    **SITE,
    "/moved": (302, "text/html", b"", {"Location": "/welcome"}),
    "/blob.bin": (200, "application/octet-stream", BINARY),
}


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_pages(PAGES) as base_url:
        yield base_url


def by_path(log: NetworkLog, pages: str, path: str) -> list[Any]:
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
    assert log.get(landed.cdp_id) is landed  # a CDP id names its latest hop


async def test_real_headers_and_bodies(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/api/data', {headers: {Authorization: 'Bearer t'}}).then(r => r.text())")
    log = browser.features.network
    [data] = by_path(log, pages, "/api/data")
    await log.settle(data, 5)
    assert data.request_headers["Authorization"] == "Bearer t"
    assert data.response_headers["Set-Cookie"] == "session=abc123; HttpOnly"  # only the ExtraInfo twin has it
    assert (data.status, data.mime_type, data.resource_type) == (200, "application/json", "fetch")
    body = await log.body(data)
    assert (body.binary, body.data) == (False, b'{"message": "data loaded", "items": [1, 2, 3]}')


async def test_a_binary_body_comes_back_as_bytes(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/blob.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    log = browser.features.network
    [blob] = by_path(log, pages, "/blob.bin")
    body = await log.body(blob, wait_s=5)
    assert (body.binary, body.data) == (True, BINARY)


async def test_a_failed_request_has_status_zero_and_no_body(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('http://127.0.0.1:1/nothing').catch(e => 'failed')")
    log = browser.features.network
    [failed] = by_path(log, "http://127.0.0.1:1", "/nothing")
    assert failed.status == 0 and failed.error_text is not None and "ERR_" in failed.error_text
    with pytest.raises(StateError, match=r"failed .*: it has no body"):
        await log.body(failed)


async def test_a_navigation_keeps_only_the_new_page(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/page/1').then(r => r.text())")
    log = browser.features.network
    old = by_path(log, pages, "/page/1")[0]
    await navigate(browser, f"{pages}/welcome")
    assert [r.url for r in log.requests() if r.resource_type == "document"] == [f"{pages}/welcome"]
    with pytest.raises(StateError, match=f"No request with id '{old.id}' on this page"):
        log.get(old.id)


async def test_a_body_from_an_ended_session_is_explained(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/page/2').then(r => r.text())")
    kept = NetworkLog()
    await kept.attach(browser.page)
    await run(browser, "fetch('/page/3').then(r => r.text())")
    [request] = by_path(kept, pages, "/page/3")
    await browser.use_target(browser.page.target_id or "")  # a new session; the old one is detached
    with pytest.raises(StateError, match="its page session has ended"):
        await kept.body(request)


async def test_the_log_keeps_the_newest_requests(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    small = NetworkLog(max_requests=3)
    await small.attach(browser.page)
    await run(browser, "Promise.all([1, 2, 3, 4, 5].map(i => fetch('/page/' + i).then(r => r.text())))")
    assert len(small.requests()) == 3 and small.dropped == 2
    await browser.use_target(browser.page.target_id or "")


def test_url_patterns_glob_or_match_a_substring() -> None:
    assert url_matcher("api/da")("http://h/api/data?x=1")
    assert url_matcher("*/api/*")("http://h/api/data")
    assert not url_matcher("*/api/")("http://h/api/data")
    assert url_matcher("http://h/p?ge")("http://h/page")
    assert not url_matcher("*.css")("http://h/a.css.map")
    assert url_matcher("*[x]*")("http://h/[x]")  # only * and ? are special


def request(request_id: str, url: str, resource_type: str, status: int | None) -> NetworkRequest:
    session = cast(CdpSession, None)  # the filters never touch it
    return NetworkRequest(request_id, request_id, "L", session, "GET", url, resource_type, 0.0, {}, status=status)


def test_filters_combine_and_other_means_any_unnamed_type() -> None:
    requests = [
        request("1", "http://h/", "document", 200),
        request("2", "http://h/api/a", "fetch", 200),
        request("3", "http://h/api/b", "fetch", 500),
        request("4", "http://h/ping", "ping", 0),
        request("5", "http://h/x", "other", None),
    ]

    def ids(**filters: Any) -> list[str]:
        given = {"resource_type": None, "status": None, "url_pattern": None, **filters}
        return [r.id for r in matching(requests, **given)]

    assert ids() == ["1", "2", "3", "4", "5"]
    assert ids(resource_type="fetch") == ["2", "3"]
    assert ids(resource_type="fetch", status=500) == ["3"]
    assert ids(resource_type="other") == ["4", "5"]
    assert ids(status=0) == ["4"]
    assert ids(url_pattern="/api/", status=200) == ["2"]


def test_secret_headers_are_redacted_by_name() -> None:
    headers = {
        "Cookie": "a=1",
        "X-CSRF-Token": "abc",
        "X-My-Session-Id": "s1",
        "api-key": "k",
        "X-Password-Hint": "pw",
        "Accept": "*/*",
        "authorization": "Bearer secret",
    }
    assert redact_headers(headers) == [
        ("Accept", "*/*"),
        ("api-key", "[redacted, 1 chars]"),
        ("authorization", "[redacted, 13 chars]"),
        ("Cookie", "[redacted, 3 chars]"),
        ("X-CSRF-Token", "[redacted, 3 chars]"),
        ("X-My-Session-Id", "[redacted, 2 chars]"),
        ("X-Password-Hint", "[redacted, 2 chars]"),
    ]
