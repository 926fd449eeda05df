"""The network tools' answers, on hand-built requests: the list (counts, filters, paging, URLs
shortened to fit) and one request in detail (outcome, redacted headers, post data, body)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cdpilot.answers.network_answers import (
    missing_body_reason,
    redact_headers,
    request_detail_answer,
    request_list_answer,
)
from cdpilot.browser.observe.network_facts import (
    MissingBody,
    NetworkEntry,
    RequestFilter,
    RequestPage,
    ResponseBody,
    SavedBody,
)
from cdpilot.browser.page.origin_policy import Refusal
from cdpilot.browser.session.route_facts import RouteMark

SITE = "http://127.0.0.1:8000"
PAGE = f"{SITE}/fetch"
DOCUMENT = NetworkEntry(
    id="1",
    cdp_id="D0C",
    method="GET",
    url=PAGE,
    resource_type="document",
    request_headers={"Accept": "text/html"},
    post_data=None,
    status=200,
    status_text="OK",
    mime_type="text/html",
    response_headers={"Content-Type": "text/html"},
    encoded_size=1530,
    duration_ms=12,
    error_text=None,
)
DATA = replace(
    DOCUMENT,
    id="2",
    cdp_id="7.2",
    url=f"{SITE}/api/data",
    resource_type="fetch",
    request_headers={"Authorization": "Bearer secret-token-123", "Accept": "*/*"},
    mime_type="application/json",
    response_headers={"Set-Cookie": "session=abc123; HttpOnly", "Content-Type": "application/json"},
    encoded_size=46,
    duration_ms=3,
)
FAILED = replace(
    DATA,
    id="3",
    url="http://127.0.0.1:1/nothing",
    request_headers={},
    status=0,
    status_text="",
    mime_type="",
    response_headers={},
    encoded_size=None,
    duration_ms=5,
    error_text="net::ERR_CONNECTION_REFUSED",
)
PENDING = replace(
    DATA,
    id="4",
    url=f"{SITE}/slow",
    request_headers={},
    status=None,
    status_text="",
    mime_type="",
    response_headers={},
    encoded_size=None,
    duration_ms=None,
)
BLOCKED = replace(
    FAILED,
    id="5",
    url="http://localhost:4000/pixel.gif",
    resource_type="image",
    duration_ms=1,
    error_text="net::ERR_BLOCKED_BY_CLIENT.Inspector",
    refused=Refusal("http://localhost:4000", "--blocked-origins", "blocked by --blocked-origins localhost:*"),
)
NOT_ALLOWED = replace(
    BLOCKED,
    id="6",
    url="https://cdn.test/app.js",
    resource_type="script",
    refused=Refusal("https://cdn.test", "--allowed-origins", "not in --allowed-origins"),
)
BODY = b'{"message": "data loaded", "items": [1, 2, 3]}'


def listing(*requests: NetworkEntry, offset: int = 0, matching: int | None = None, **changes: Any) -> RequestPage:
    count = len(requests) if matching is None else matching
    made = RequestPage(requests, offset, count, recorded=count, dropped=0, filter=RequestFilter())
    return replace(made, **changes)


def test_no_requests_recorded_or_none_matching() -> None:
    assert (
        request_list_answer(listing(), page_url=PAGE, max_chars=5000) == f"No requests recorded (0 recorded on {PAGE})."
    )
    nothing = listing(recorded=4, dropped=2, filter=RequestFilter(url_pattern="*.css"))
    assert request_list_answer(nothing, page_url=PAGE, max_chars=5000) == (
        f"No requests match url=*.css (4 recorded on {PAGE}, 2 oldest dropped)."
    )


def test_a_page_lists_one_line_a_request() -> None:
    assert request_list_answer(listing(DOCUMENT, DATA, FAILED, PENDING), page_url=PAGE, max_chars=5000) == (
        f"showing 1–4 of 4 requests on {PAGE}\n"
        "1 GET 200 document /fetch (1 KB, 12 ms)\n"
        "2 GET 200 fetch /api/data (46 B, 3 ms)\n"
        "3 GET 0 fetch http://127.0.0.1:1/nothing (failed: net::ERR_CONNECTION_REFUSED, 5 ms)\n"
        "4 GET pending fetch /slow (…, in flight)"
    )


def test_a_filtered_page_names_its_filters_and_the_next_offset() -> None:
    wanted = RequestFilter("fetch", 200, "/api/")
    page = listing(DATA, offset=10, matching=25, recorded=40, dropped=3, filter=wanted)
    assert request_list_answer(page, page_url=PAGE, max_chars=5000) == (
        f"showing 11–11 of 25 matching requests on {PAGE}, 3 oldest dropped "
        "(type=fetch, status=200, url=/api/; 40 recorded); next: {param:list_network_requests.offset}=11\n"
        "2 GET 200 fetch /api/data (46 B, 3 ms)"
    )


def test_an_offset_past_the_end_says_how_many_there_are() -> None:
    assert request_list_answer(listing(offset=30, matching=25), page_url=PAGE, max_chars=5000) == (
        f"{{param:list_network_requests.offset}}=30 is past the end: 25 requests on {PAGE}."
    )
    filtered = listing(offset=30, matching=25, recorded=26, filter=RequestFilter(status=200))
    assert request_list_answer(filtered, page_url=PAGE, max_chars=5000) == (
        f"{{param:list_network_requests.offset}}=30 is past the end: 25 matching requests on {PAGE}."
    )


def test_long_urls_are_cut_in_the_middle_to_fit_the_budget() -> None:
    """A URL gets its share of the budget, 40 to 120 characters; same-origin ones as their path."""
    long_url = f"{SITE}/assets/" + "a" * 300 + "/app.js"
    wide = replace(DATA, url=long_url, resource_type="script")
    other_origin = replace(wide, id="5", url=long_url.replace("127.0.0.1", "cdn.test"))
    roomy = request_list_answer(listing(wide, other_origin), page_url=PAGE, max_chars=5000)
    assert roomy == (
        f"showing 1–2 of 2 requests on {PAGE}\n"
        f"2 GET 200 script /assets/{'a' * 46}…[+208 chars]{'a' * 46}/app.js (46 B, 3 ms)\n"
        f"5 GET 200 script http://cdn.test:8000/assets/{'a' * 26}…[+228 chars]{'a' * 46}/app.js (46 B, 3 ms)"
    )
    tight = request_list_answer(listing(wide, other_origin), page_url=PAGE, max_chars=300)
    assert tight == (
        f"showing 1–2 of 2 requests on {PAGE}\n"
        f"2 GET 200 script /assets/{'a' * 6}…[+288 chars]{'a' * 6}/app.js (46 B, 3 ms)\n"
        f"5 GET 200 script http://cdn.tes…[+308 chars]{'a' * 6}/app.js (46 B, 3 ms)"
    )


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


DATA_HEAD = (
    f"Request 2: GET {SITE}/api/data\n"
    "fetch, 200 OK, application/json, 46 B, 3 ms\n"
    "Request headers (2):\n"
    "  Accept: */*\n"
    "  Authorization: [redacted, 23 chars]\n"
    "Response headers (2):\n"
    "  Content-Type: application/json\n"
    "  Set-Cookie: [redacted, 24 chars]"
)


def detail(entry: NetworkEntry, body: ResponseBody | MissingBody | SavedBody | None, **limits: int) -> str:
    given = {"max_body_chars": 2000, "max_chars": 5000, **limits}
    return request_detail_answer(entry, body, **given)


def test_the_detail_redacts_credentials_and_shows_the_body() -> None:
    assert detail(DATA, None) == DATA_HEAD
    assert detail(DATA, ResponseBody(BODY, binary=False)) == f"{DATA_HEAD}\nBody (46 chars):\n{BODY.decode()}"


def test_a_body_is_cut_by_max_body_chars_or_by_the_answer_budget() -> None:
    assert detail(DATA, ResponseBody(BODY, binary=False), max_body_chars=10) == (
        f"{DATA_HEAD}\n"
        "Body (46 chars, first 10 shown because of the body limit; "
        "{param:get_network_request.save_body_to} writes all of it):\n"
        '{"message"'
    )
    big = ResponseBody(b"x" * 6000, binary=False)
    assert detail(DATA, big, max_body_chars=4000, max_chars=1000) == (  # 1000 - 252 before it - a margin of 200
        f"{DATA_HEAD}\n"
        "Body (6000 chars, first 548 shown because of the answer size limit; "
        "{param:get_network_request.save_body_to} writes all of it):\n" + "x" * 548
    )


def test_a_body_that_is_binary_empty_missing_or_saved() -> None:
    binary = replace(DATA, mime_type="application/octet-stream")
    assert detail(binary, ResponseBody(bytes(range(256)), binary=True)) == (
        DATA_HEAD.replace("application/json, 46 B", "application/octet-stream, 46 B")
        + "\nBody: binary, 256 bytes (application/octet-stream); {param:get_network_request.save_body_to} "
        "writes it to a file."
    )
    assert detail(DATA, ResponseBody(b"", binary=False)) == f"{DATA_HEAD}\nBody: empty (as Chrome holds it)."
    gone = MissingBody("2", "session ended")
    assert (
        detail(DATA, gone)
        == f"{DATA_HEAD}\nBody: not available. The body of request 2 is gone: its page session has ended."
    )
    saved = SavedBody("/tmp/out/bodies/data.json", 46)
    assert detail(DATA, saved) == f"{DATA_HEAD}\nBody saved to /tmp/out/bodies/data.json (46 B)"


def test_a_failed_request_has_no_response_headers() -> None:
    missing = MissingBody("3", "failed", "net::ERR_CONNECTION_REFUSED")
    assert detail(FAILED, missing) == (
        "Request 3: GET http://127.0.0.1:1/nothing\n"
        "fetch, failed: net::ERR_CONNECTION_REFUSED, 5 ms\n"
        "Request headers (0):\n"
        "Body: not available. Request 3 failed (net::ERR_CONNECTION_REFUSED): it has no body."
    )


def test_a_pending_request_says_it_has_no_response_yet() -> None:
    missing = MissingBody("4", "loading")
    assert detail(PENDING, missing) == (
        f"Request 4: GET {SITE}/slow\n"
        "fetch, pending, no response yet\n"
        "Request headers (0):\n"
        "Body: not available. Request 4 has not finished loading: its body is not there yet."
    )


def test_post_data_and_header_values_are_cut_in_the_middle() -> None:
    """30 headers share 3000 characters: 3000 / 30 - 30 = 70 a value."""
    form = "x=" + "1" * 400
    headers = {f"X-Header-{i:02}": "v" * 300 for i in range(30)}
    posted = replace(PENDING, method="POST", post_data=form, request_headers=headers)
    assert detail(posted, None) == "\n".join(
        [
            f"Request 4: POST {SITE}/slow",
            "fetch, pending, no response yet",
            "Request headers (30):",
            *(f"  {name}: {'v' * 29}…[+243 chars]{'v' * 28}" for name in headers),
            f"Request body: x={'1' * 142}…[+115 chars]{'1' * 143}",
        ]
    )


def test_requests_refused_by_the_origin_lists_read_blocked_not_failed() -> None:
    assert request_list_answer(listing(DATA, FAILED, BLOCKED, NOT_ALLOWED), page_url=PAGE, max_chars=5000) == (
        f"showing 1–4 of 4 requests on {PAGE}\n"
        "2 GET 200 fetch /api/data (46 B, 3 ms)\n"
        "3 GET 0 fetch http://127.0.0.1:1/nothing (failed: net::ERR_CONNECTION_REFUSED, 5 ms)\n"
        "5 GET BLOCKED (--blocked-origins) image http://localhost:4000/pixel.gif (1 ms)\n"
        "6 GET BLOCKED (--allowed-origins) script https://cdn.test/app.js (1 ms)"
    )


def test_a_refused_request_in_detail_says_which_rule_refused_its_origin() -> None:
    missing = MissingBody("5", "blocked", "http://localhost:4000 is blocked by --blocked-origins localhost:*")
    assert detail(BLOCKED, missing) == (
        "Request 5: GET http://localhost:4000/pixel.gif\n"
        "image, BLOCKED: http://localhost:4000 is blocked by --blocked-origins localhost:*, 1 ms\n"
        "Request headers (0):\n"
        "Body: not available. Request 5 was blocked (http://localhost:4000 is blocked by --blocked-origins "
        "localhost:*): it has no body."
    )
    assert detail(NOT_ALLOWED, None) == (
        "Request 6: GET https://cdn.test/app.js\n"
        "script, BLOCKED: https://cdn.test is not in --allowed-origins, 1 ms\n"
        "Request headers (0):"
    )


MOCKED = replace(DATA, id="7", status=201, status_text="Created", routed=RouteMark("r1", "mocked"))
MODIFIED = replace(DATA, id="8", routed=RouteMark("r2", "modified"))
ABORTED = replace(FAILED, id="9", url=f"{SITE}/api/x", error_text="net::ERR_FAILED", routed=RouteMark("r3", "aborted"))


def test_requests_a_route_answered_name_the_route() -> None:
    assert request_list_answer(listing(MOCKED, MODIFIED, ABORTED), page_url=PAGE, max_chars=5000) == (
        f"showing 1–3 of 3 requests on {PAGE}\n"
        "7 GET MOCKED 201 (route r1) fetch /api/data (46 B, 3 ms)\n"
        "8 GET MODIFIED 200 (route r2) fetch /api/data (46 B, 3 ms)\n"
        "9 GET ABORTED (route r3) fetch /api/x (5 ms)"
    )


def test_a_routed_request_in_detail_says_what_the_route_did() -> None:
    assert detail(MOCKED, None).split("\n")[1] == (
        "fetch, MOCKED by route r1, never sent: 201 Created, application/json, 46 B, 3 ms"
    )
    assert detail(MODIFIED, None).split("\n")[1] == (
        "fetch, 200 OK, application/json (request headers set by route r2), 46 B, 3 ms"
    )
    assert detail(ABORTED, None).split("\n")[1] == ("fetch, ABORTED by route r3, never sent: net::ERR_FAILED, 5 ms")


MIB = 1024 * 1024
EVICTED = "Request content was evicted from inspector cache"


def test_a_body_chrome_did_not_keep_names_the_limit_and_what_to_do() -> None:
    over = MissingBody("7", "over limit", EVICTED, size=150 * MIB, limit=128 * MIB)
    assert missing_body_reason(over) == (
        "Chrome did not keep the body of request 7: at 150.0 MB it is over the 128.0 MB per body Chrome is asked to "
        f"keep (Chrome: {EVICTED}).",
        "Bodies over 128.0 MB cannot be had through the browser: download its URL outside it.",
    )
    evicted = MissingBody("8", "evicted", EVICTED, size=30 * MIB, limit=256 * MIB)
    assert missing_body_reason(evicted) == (
        f"Chrome no longer holds the body of request 8 ({EVICTED}): it keeps 256.0 MB of the page's bodies in all "
        "(a binary one counts a third more, as base64) and pushes out the oldest for new ones.",
        "Make the request again, then save its body right away with "
        "{param:get_network_request.save_body_to}=…, before later downloads push it "
        "out.",
    )


def test_a_body_too_large_for_a_message_is_not_asked_for_and_says_why() -> None:
    text = MissingBody("9", "unreadable", "text", size=50 * MIB, limit=42 * MIB)
    assert missing_body_reason(text) == (
        "The body of request 9 is too large to read: 50.0 MB of text, over the 42.0 MB of text that one CDP message "
        "can carry once encoded.",
        "Download its URL outside the browser.",
    )


def test_a_redirect_has_no_body_and_points_to_where_it_led() -> None:
    moved = MissingBody("10", "redirect", "302")
    assert missing_body_reason(moved) == (
        "Request 10 is a redirect (HTTP 302): it has no body.",
        "The request it led to follows it in {tool:list_network_requests}.",
    )


def test_the_detail_carries_the_suggestion_after_the_reason() -> None:
    evicted = MissingBody("2", "evicted", EVICTED, size=46, limit=256 * MIB)
    assert detail(DATA, evicted).endswith(
        f"\nBody: not available. Chrome no longer holds the body of request 2 ({EVICTED}): it keeps 256.0 MB of the "
        "page's bodies in all (a binary one counts a third more, as base64) and pushes out the oldest for new ones. "
        "Make the request again, then save its body right away with "
        "{param:get_network_request.save_body_to}=…, before later downloads push it "
        "out."
    )
