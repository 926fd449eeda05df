"""Request routes through the real server in both modes: what the page's own fetch receives
(a mocked response, a failure), what the server receives (a header a route set), that routes
outlive navigation until removed, how the request list marks what a route answered, and that
the origin lists still refuse first. Bad arguments are refused before any browser starts.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import ModeClient, mcp_client
from tests.support.pages import ECHO_HEADERS_PATH
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    "/app": (200, "text/html", html("App", "<p>app</p>")),
    "/other": (200, "text/html", html("Other", "<p>other</p>")),
    "/api/items": (200, "application/json", b'{"real": true}'),
    "/pixel": (200, "text/plain", b"pixel", {"Access-Control-Allow-Origin": "*"}),
}
# What the page's fetch of a URL sees: status, a header and the body, or "failed".
FETCH = """fetch({url}).then(async r => [r.status, r.headers.get("x-mock"), await r.text()], () => "failed")"""
ITEMS = "**/api/items*"


async def page_fetch(client: ModeClient, url: str) -> object:
    return await client.js(FETCH.format(url=json.dumps(url)))


def route_id(answer: str) -> str:
    found = re.match(r"Route (r\d+):", answer)
    assert found, answer
    return found[1]


@pytest.fixture
async def app(client: ModeClient, site_url: str) -> AsyncIterator[ModeClient]:
    """The app page; every route removed afterwards, so each test starts without any."""
    await client.ok("navigate", url=f"{site_url}/app")
    yield client
    await client.ok("remove_route")


async def test_the_page_receives_the_mocked_response_until_the_route_is_removed(app: ModeClient) -> None:
    added = await app.ok(
        "route_requests",
        url_pattern=ITEMS,
        status=201,
        headers={"X-Mock": "yes", "Content-Type": "application/json"},
        body='{"mock": 1}',
    )
    rid = route_id(added)
    assert f"{ITEMS} -> mock 201 (11 B body; headers: X-Mock, Content-Type)" in added, added
    assert await page_fetch(app, "/api/items?page=2") == [201, "yes", '{"mock": 1}']
    listed = await app.ok("list_routes")
    assert f"{rid}: {ITEMS} -> mock 201" in listed and "1 match" in listed, listed
    requests = await app.ok("list_network_requests", url_pattern="*/api/items*")
    assert f"MOCKED 201 (route {rid}) fetch" in requests, requests
    assert (
        await app.ok("remove_route", route_id=rid)
        == f"Removed route {rid}; no routes left: every request goes to the network."
    )
    assert await page_fetch(app, "/api/items") == [200, None, '{"real": true}']
    assert "No routes" in await app.ok("list_routes")


async def test_a_regex_route_matches_only_what_it_says(app: ModeClient) -> None:
    await app.ok("route_requests", url_regex=r"/api/items\?id=\d+$", body="by regex")
    assert await page_fetch(app, "/api/items?id=42") == [200, None, "by regex"]
    assert await page_fetch(app, "/api/items?id=x") == [200, None, '{"real": true}']


async def test_a_route_sets_a_request_header_the_server_receives(app: ModeClient) -> None:
    headers = {"X-Route": "added"}
    if await app.refused_in_smart("route_requests", url_pattern=f"*{ECHO_HEADERS_PATH}", request_headers=headers):
        return
    await app.ok("route_requests", url_pattern=f"*{ECHO_HEADERS_PATH}", request_headers=headers)
    fetched = await page_fetch(app, ECHO_HEADERS_PATH)
    assert isinstance(fetched, list) and fetched[0] == 200, fetched
    assert json.loads(fetched[2])["x-route"] == "added", fetched
    requests = await app.ok("list_network_requests", url_pattern="echo")
    assert "MODIFIED 200 (route" in requests, requests


async def test_an_aborted_request_fails_in_the_page_and_is_marked(app: ModeClient) -> None:
    rid = route_id(await app.ok("route_requests", url_pattern=ITEMS, abort=True))
    assert await page_fetch(app, "/api/items") == "failed"
    requests = await app.ok("list_network_requests", url_pattern="*/api/items*")
    assert f"ABORTED (route {rid}) fetch" in requests, requests
    [number] = re.findall(r"^(\d+) GET ABORTED", requests, re.MULTILINE)
    detail = await app.ok("get_network_request", request_id=number)
    assert f"ABORTED by route {rid}, never sent: net::ERR_FAILED" in detail, detail


async def test_routes_outlive_a_navigation(app: ModeClient, site_url: str) -> None:
    await app.ok("route_requests", url_pattern=ITEMS, body="still mocked")
    await app.ok("navigate", url=f"{site_url}/other")
    assert await page_fetch(app, "/api/items") == [200, None, "still mocked"]


async def test_a_body_from_a_file_of_the_upload_directory(app: ModeClient, output_dir: Path) -> None:
    folder = output_dir / app.mode
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items.json").write_text('[{"from": "file"}]')
    if app.mode == "smart":  # smart mode keeps body files for legacy mode (its budget)
        error, text = await app.error("route_requests", url_pattern=ITEMS, body_file="items.json")
        assert error == "VALIDATION" and "--mode legacy" in text, text
        return
    added = await app.ok("route_requests", url_pattern=ITEMS, body_file="items.json", times=1)
    assert "from items.json" in added and "for its next 1 match" in added, added
    assert await app.js("fetch('/api/items').then(r => r.headers.get('content-type'))") == "application/json"
    assert await page_fetch(app, "/api/items") == [200, None, '{"real": true}']  # used up after one
    assert "No routes" in await app.ok("list_routes")
    (folder / "docs").mkdir(exist_ok=True)
    for path, why in (("../outside.json", "outside it"), ("missing.json", "no such file"), ("docs", "a directory")):
        error, text = await app.error("route_requests", url_pattern=ITEMS, body_file=path)
        assert error == "VALIDATION" and why in text and "body_file" in text, text


async def test_an_unknown_route_id_is_a_state_error(app: ModeClient) -> None:
    error, text = await app.error("remove_route", route_id="r999")
    assert error == "STATE" and "No route with id 'r999'" in text, text


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_bad_routes_are_refused_before_any_browser_starts(mode: str) -> None:
    bad: list[tuple[dict[str, Any], str]] = [
        ({"url_regex": "(unclosed", "body": "x"}, "does not compile"),
        ({"url_pattern": "*", "url_regex": "x", "body": "x"}, "got both"),
        ({"body": "x"}, "got neither"),
        ({"url_pattern": "*"}, "got none"),
        ({"url_pattern": "*", "body": "x", "abort": True}, "got a response and abort"),
        ({"url_pattern": "*", "status": 0}, "from 100 to 599"),
        ({"url_pattern": "*", "headers": {"Bad Name": "x"}}, "A header name is not valid"),
    ]
    if mode == "legacy":  # smart mode leaves request headers and a body file to legacy
        bad.append(({"url_pattern": "*", "request_headers": {"X-A": "one\ntwo"}}, "A header value is not valid"))
        bad.append(({"url_pattern": "*", "body": "x", "body_file": "a.json"}, "A response has one body"))
    async with mcp_client(mode) as raw:
        client = ModeClient(raw, mode)
        for arguments, why in bad:
            error, text = await client.error("route_requests", **arguments)
            assert error == "VALIDATION" and why in text, text
        assert "No connections" in await client.ok("chrome_list_connections")


async def test_a_blocked_origin_stays_refused_with_routes(site_url: str) -> None:
    other = site_url.replace("127.0.0.1", "localhost")
    async with mcp_client("smart", "--blocked-origins", "localhost:*") as raw:
        client = ModeClient(raw, "smart")
        await client.ok("navigate", url=f"{site_url}/app")
        await client.ok("route_requests", url_pattern="**/pixel*", body="mocked pixel")
        assert await page_fetch(client, f"{other}/pixel") == "failed"  # the policy answers first
        assert await page_fetch(client, "/pixel") == [200, None, "mocked pixel"]
        await client.ok("remove_route")  # the policy still needs interception: it still refuses
        assert await page_fetch(client, f"{other}/pixel") == "failed"
        assert await page_fetch(client, "/pixel") == [200, None, "pixel"]
        listed = await client.ok("list_network_requests", url_pattern="*pixel*")
        assert "BLOCKED (--blocked-origins)" in listed and "MOCKED 200 (route r1)" in listed, listed
