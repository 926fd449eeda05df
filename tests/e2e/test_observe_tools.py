"""Console and network tools in both modes, through the real server on a real Chromium.

Page actions are triggered with evaluate_js. Console calls made by an evaluation are
recorded before its answer; an uncaught error thrown from a timer is flushed by awaiting a
later timer; network requests are complete once an awaited fetch has read them.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

FLUSH_TIMERS = "new Promise(resolve => setTimeout(resolve))"
BINARY = bytes(range(256))
TRAVERSALS = ["../escaped.json", "a/../../escaped.json", "..", "bodies/../../escaped.json", "x\0y"]


# A cross-site iframe (localhost, where the page is on 127.0.0.1: another site, so Chrome runs
# it in a renderer and a target of its own) and a dedicated worker, each logging and fetching.
# Each tells the page when it is done: `window.childDone` resolves then.
CHILD_WORK = """console.log("hello from the {who}");
fetch("/child-data.json").then(r => r.text()).then(t => {{ console.warn("the {who} fetched " + t); {done} }});"""
CHILD_PAGES = {
    "/cross-site": (
        200,
        "text/html",
        html(
            "Cross-site frame",
            """<script>window.childDone = new Promise(r => addEventListener("message", e => r(e.data)));
const frame = document.createElement("iframe");
frame.src = "http://localhost:" + location.port + "/child-frame";
document.body.append(frame);</script>""",
        ),
    ),
    "/child-frame": (
        200,
        "text/html",
        html("Child", f"<script>{CHILD_WORK.format(who='child frame', done='parent.postMessage(1, `*`);')}</script>"),
    ),
    "/worker-page": (
        200,
        "text/html",
        html(
            "Worker",
            """<script>const worker = new Worker("/worker.js");
window.childDone = new Promise(r => worker.onmessage = e => r(e.data));</script>""",
        ),
    ),
    "/worker.js": (200, "text/javascript", CHILD_WORK.format(who="worker", done="postMessage(1);").encode()),
    "/child-data.json": (200, "application/json", b'{"from": "child"}'),
}


BIG = random.Random("big").randbytes(20 * 1024 * 1024)  # over Chrome's default 20 MB a body
PAGES = {
    **SITE,
    **CHILD_PAGES,
    "/blob.bin": (200, "application/octet-stream", BINARY),
    "/big.bin": (200, "application/octet-stream", BIG),
}


async def click(client: ModeClient, *ids: str, then: str = "0") -> None:
    clicks = "".join(f"document.getElementById({json.dumps(i)}).click();" for i in ids)
    await client.ok("evaluate_js", expression=f"{clicks} {then}")


async def on_page(client: ModeClient, site_url: str, path: str) -> None:
    await client.ok("navigate", url=f"{site_url}{path}")


async def test_console_levels_sources_and_filter(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await click(client, "log-btn", "warn-btn", "error-btn")
    header, *lines = (await client.ok("get_console_logs")).splitlines()
    assert header == f"Console on the current page ({site_url}/console): 4 entries"
    assert lines == [
        "[info] console page loaded  @ /console:7",
        "[log] button clicked 42  @ /console:2",
        "[warning] careful now  @ /console:3",
        "[error] something failed  @ /console:4",
    ]
    errors = await client.ok("get_console_logs", filter_level="error")
    assert errors.splitlines()[1:] == ["[error] something failed  @ /console:4"]
    assert "No console messages at level debug" in await client.ok("get_console_logs", filter_level="debug")


async def test_console_limit_keeps_the_newest(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await click(client, "log-btn", "warn-btn", "error-btn")
    lines = (await client.ok("get_console_logs", limit=2)).splitlines()
    assert lines[0].endswith("4 entries, last 2 shown; 2 older omitted (raise limit, max 100)")
    assert [line.split("  @")[0] for line in lines[1:]] == ["[warning] careful now", "[error] something failed"]


async def test_console_folds_repeats_and_expands_errors(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await click(client, "repeat-btn", "throw-btn", then=FLUSH_TIMERS)
    answer = await client.ok("get_console_logs")
    assert answer.count("same again") == 1 and "[log] same again (×5)  @ /console:5" in answer
    assert "[error] Uncaught TypeError: boom from page  @ /console:6" in answer
    assert "    at " not in answer
    expanded = (await client.ok("get_console_logs", filter_level="error", expand_errors=True)).splitlines()
    assert expanded[1] == "[error] Uncaught TypeError: boom from page  @ /console:6"
    assert re.fullmatch(r"    at \(anonymous\) \(http://127\.0\.0\.1:\d+/console:6:\d+\)", expanded[2])


async def test_console_is_scoped_to_the_current_page(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await click(client, "warn-btn")
    await on_page(client, site_url, "/welcome")
    answer = await client.ok("get_console_logs")
    assert answer.startswith(f"No console messages on the current page ({site_url}/welcome). Earlier pages logged")
    await client.ok("evaluate_js", expression="console.log('on welcome')")
    both = (await client.ok("get_console_logs", include_previous_pages=True)).splitlines()
    assert both[0].startswith("Console on all recorded pages: ")
    console_at = len(both) - 1 - both[::-1].index(f"--- page {site_url}/console ---")  # the latest visit
    assert both[console_at + 1 : console_at + 3] == [
        "[info] console page loaded  @ /console:7",
        "[warning] careful now  @ /console:3",
    ]
    assert both[-2:] == [f"--- current page {site_url}/welcome ---", "[log] on welcome"]


async def test_a_long_console_answer_is_cut_to_fit(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await client.ok("evaluate_js", expression="for (let i = 0; i < 60; i++) console.log(i + ' ' + 'x'.repeat(400))")
    answer = await client.ok("get_console_logs", limit=100)
    assert len(answer) <= 5000
    header, *lines = answer.splitlines()
    assert "more would not fit" in header and lines[-1].startswith("[log] 59 xxx")


async def test_the_console_keeps_the_newest_thousand_entries(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/console")
    await client.ok("evaluate_js", expression="for (let i = 0; i < 1100; i++) console.log('n' + i)")
    header, *lines = (await client.ok("get_console_logs", limit=3)).splitlines()
    assert re.search(
        r": 1,000 entries, last 3 shown; 997 older omitted \(raise limit, max 100\); "
        r"\d+ older log/info/debug entries were dropped \(the log keeps the newest 1,000\)$",
        header,
    )
    assert lines == ["[log] n1097", "[log] n1098", "[log] n1099"]


async def fetch_page(client: ModeClient, site_url: str) -> None:
    """/fetch with its two buttons clicked; answers once the data fetch has shown its result
    and a fetch of our own has completed, so every request has been recorded."""
    await on_page(client, site_url, "/fetch")
    shown = "new Promise(r => new MutationObserver(r).observe(document.getElementById('result'), {childList: true}))"
    await click(client, "fetch-btn", "fail-btn", then=f"Promise.all([{shown}, fetch('/page/1').then(r => r.text())])")


def request_id(listing: str, pattern: str) -> str:
    [line] = [line for line in listing.splitlines() if re.search(pattern, line)]
    return line.split()[0]


async def test_requests_are_listed_and_filtered(client: ModeClient, site_url: str) -> None:
    await fetch_page(client, site_url)
    listing = await client.ok("list_network_requests")
    assert listing.splitlines()[0].startswith(f"showing 1–4 of 4 requests on {site_url}/fetch")
    assert re.search(r"^\d+ GET 200 document /fetch \(\d+ B, \d+ ms\)$", listing, re.M)
    assert re.search(r"^\d+ GET 200 fetch /api/data \(\d+ B, \d+ ms\)$", listing, re.M)

    failed = (await client.ok("list_network_requests", status=500)).splitlines()
    assert failed[0].startswith("showing 1–1 of 1 matching requests") and "(status=500; 4 recorded)" in failed[0]
    assert re.fullmatch(r"\d+ POST 500 fetch /api/fail \(.*\)", failed[1])

    fetches = await client.ok("list_network_requests", resource_type="fetch")
    assert "3 matching requests" in fetches and "document" not in fetches
    api = await client.ok("list_network_requests", url_pattern="*/api/*")
    assert [line.split()[4] for line in api.splitlines()[1:]] == ["/api/data", "/api/fail"]
    assert len((await client.ok("list_network_requests", url_pattern="page/")).splitlines()) == 2
    none = await client.ok("list_network_requests", url_pattern="*.css")
    assert none == f"No requests match url=*.css (4 recorded on {site_url}/fetch)."


async def test_requests_are_paged(client: ModeClient, site_url: str) -> None:
    await on_page(client, site_url, "/fetch")
    many = "Promise.all(Array.from({length: 25}, (_, i) => fetch('/page/' + (i + 1)).then(r => r.text())))"
    await client.ok("evaluate_js", expression=many)
    page = (await client.ok("list_network_requests", url_pattern="/page/", limit=10, offset=10)).splitlines()
    assert page[0].startswith("showing 11–20 of 25 matching requests") and page[0].endswith("next: offset=20")
    assert len(page) == 11
    last = (await client.ok("list_network_requests", url_pattern="/page/", limit=10, offset=20)).splitlines()
    assert last[0].startswith("showing 21–25 of 25 matching requests") and "next:" not in last[0]
    past = await client.ok("list_network_requests", url_pattern="/page/", offset=30)
    assert past.startswith("offset=30 is past the end: 25 matching requests")


async def test_request_detail_redacts_secrets_and_cuts_the_body(client: ModeClient, site_url: str) -> None:
    await fetch_page(client, site_url)
    data_id = request_id(await client.ok("list_network_requests"), "/api/data")
    detail = await client.ok("get_network_request", request_id=data_id)
    assert detail.splitlines()[:2] == [
        f"Request {data_id}: GET {site_url}/api/data",
        re.sub(r".*?(, \d+ B, \d+ ms)$", r"fetch, 200 OK, application/json\1", detail.splitlines()[1]),
    ]
    assert "  Authorization: [redacted, 23 chars]" in detail
    assert "  Set-Cookie: [redacted, 24 chars]" in detail
    assert "secret-token-123" not in detail and "abc123" not in detail
    body = json.dumps({"message": "data loaded", "items": [1, 2, 3]})
    assert detail.endswith(f"Body ({len(body)} chars):\n{body}")

    if client.mode == "legacy":  # smart mode omits max_body_chars (x-cdpilot.omit)
        cut = await client.ok("get_network_request", request_id=data_id, max_body_chars=10)
        assert cut.endswith(
            f"Body ({len(body)} chars, first 10 shown because of the body limit; save_body_to writes all of it):\n"
            + body[:10]
        )
    headers_only = await client.ok("get_network_request", request_id=data_id, include_body=False)
    assert "Body" not in headers_only


async def test_a_body_is_saved_under_the_output_dir(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await fetch_page(client, site_url)
    data_id = request_id(await client.ok("list_network_requests"), "/api/data")
    answer = await client.ok("get_network_request", request_id=data_id, save_body_to="bodies/data.json")
    saved = output_dir / client.mode / "bodies" / "data.json"
    assert answer.endswith(f"Body saved to {saved} (46 B)")
    assert json.loads(saved.read_text()) == {"message": "data loaded", "items": [1, 2, 3]}


async def test_a_binary_body_is_described_inline_and_saved_whole(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await on_page(client, site_url, "/fetch")
    await client.ok("evaluate_js", expression="fetch('/blob.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    blob_id = request_id(await client.ok("list_network_requests"), "/blob.bin")
    detail = await client.ok("get_network_request", request_id=blob_id)
    assert detail.endswith("Body: binary, 256 bytes (application/octet-stream); save_body_to writes it to a file.")
    await client.ok("get_network_request", request_id=blob_id, save_body_to="blob.bin")
    assert (output_dir / client.mode / "blob.bin").read_bytes() == BINARY


async def test_a_twenty_mebibyte_body_is_saved_byte_exact(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await on_page(client, site_url, "/fetch")
    await client.ok("evaluate_js", expression="fetch('/big.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    big_id = request_id(await client.ok("list_network_requests"), "/big.bin")
    answer = await client.ok("get_network_request", request_id=big_id, save_body_to="big.bin")
    saved = output_dir / client.mode / "big.bin"
    assert answer.endswith(f"Body saved to {saved} ({len(BIG):,} bytes (20.0 MB))")
    assert hashlib.sha256(saved.read_bytes()).hexdigest() == hashlib.sha256(BIG).hexdigest()


async def test_a_request_of_an_earlier_page_is_explained(client: ModeClient, site_url: str) -> None:
    await fetch_page(client, site_url)
    data_id = request_id(await client.ok("list_network_requests"), "/api/data")
    await on_page(client, site_url, "/welcome")
    kind, text = await client.error("get_network_request", request_id=data_id, save_body_to="gone.json")
    assert kind == "STATE" and text.startswith(
        f"Request {data_id} is no longer recorded: the log keeps the requests of the current page only, the "
        "newest 1000 of them."
    )
    spelled = 'network(action="list")' if client.mode == "smart" else "list_network_requests()"
    assert f"Suggestion: Make the request again, then find its new id with {spelled}." in text


async def test_a_body_path_outside_the_output_dir_is_refused(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await fetch_page(client, site_url)
    data_id = request_id(await client.ok("list_network_requests"), "/api/data")
    before = sorted(output_dir.parent.rglob("*"))
    for path in [*TRAVERSALS, str(output_dir.parent / "absolute.json")]:
        kind, text = await client.error("get_network_request", request_id=data_id, save_body_to=path)
        assert kind == "VALIDATION" and "- save_body_to: expected a relative path inside the output dir" in text
    assert sorted(output_dir.parent.rglob("*")) == before
    assert "data loaded" in await client.ok("get_network_request", request_id=data_id)


async def test_an_unknown_request_id_is_a_state_error(client: ModeClient, site_url: str) -> None:
    await fetch_page(client, site_url)
    kind, text = await client.error("get_network_request", request_id="999999")
    assert kind == "STATE" and "No request with id '999999' on this page" in text
    spelled = 'network(action="list")' if client.mode == "smart" else "list_network_requests()"
    assert f"Suggestion: See the recorded requests and their ids with {spelled}" in text
    assert "GET 200 fetch /api/data" in await client.ok("list_network_requests")


async def test_a_post_shows_its_body_and_a_pending_response_is_explained(client: ModeClient, site_url: str) -> None:
    await fetch_page(client, site_url)
    fail_id = request_id(await client.ok("list_network_requests"), "/api/fail")
    detail = await client.ok("get_network_request", request_id=fail_id)
    assert "Request body: x=1" in detail
    # The page never reads this response, so Chrome usually has not finished loading it.
    pending = "has not finished loading: its body is not there yet."
    assert detail.endswith((pending, 'Body (28 chars):\n{"error": "server exploded"}'))


async def test_a_cross_site_frame_and_a_worker_are_observed_like_the_page(client: ModeClient, site_url: str) -> None:
    """Both run in targets of their own: their console lines and requests reach other sessions."""
    child_origin = site_url.replace("127.0.0.1", "localhost")
    for path, who, origin in (("/cross-site", "child frame", child_origin), ("/worker-page", "worker", site_url)):
        await on_page(client, site_url, path)
        await client.ok("evaluate_js", expression="window.childDone")
        console = await client.ok("get_console_logs")
        assert f"[log] hello from the {who}  @ " in console, console
        assert f'[warning] the {who} fetched {{"from": "child"}}  @ ' in console, console
        listing = await client.ok("list_network_requests")
        [line] = [line for line in listing.splitlines() if "child-data.json" in line]
        shown = f"{origin}/child-data.json" if origin != site_url else "/child-data.json"
        assert re.fullmatch(rf"\d+ GET 200 fetch {re.escape(shown)} \(\d+ B, \d+ ms\)", line), listing
        detail = await client.ok("get_network_request", request_id=line.split()[0])  # asks the child's session
        assert detail.endswith('Body (17 chars):\n{"from": "child"}'), detail
    frame_document = f"GET 200 document {child_origin}/child-frame ("
    await on_page(client, site_url, "/cross-site")
    await client.ok("evaluate_js", expression="window.childDone")
    assert frame_document in await client.ok("list_network_requests")  # finished, not "in flight"
