"""What the network tools answer: a page of the request list, and one request in detail.

Both must fit the answer budget: the list shortens URLs so a whole page fits (same-origin
ones as their path), the detail shares a fixed room among header values and gives the body
what is left. Credentials in headers are never shown (`redact_headers`). A request the
origin lists refused reads BLOCKED with the list that refused it, not as a failure: the
page did nothing wrong, and retrying cannot help. One a route answered says so with the
route's id (MOCKED, MODIFIED, ABORTED), so a made-up response is never taken for the server's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from cdpilot.answers.console_answers import compact_url, origin_of
from cdpilot.browser.observe.network_facts import (
    MissingBody,
    NetworkEntry,
    RequestFilter,
    RequestPage,
    ResponseBody,
    SavedBody,
)
from cdpilot.text import clip, exact_size, human_size

SECRET_HEADERS = {
    "cookie",
    "set-cookie",
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "x-auth-token",
    "x-csrf-token",
    "dpop",
}
# Any header whose name contains one of these is redacted: over-redacting a harmless header
# costs little, leaking a credential a lot.
SECRET_NAME_PARTS = ("token", "secret", "session", "password", "auth", "key", "jwt", "credential", "signature")
LIST_URL_CHARS = (40, 120)  # a URL in the list gets its share of the budget, within these bounds
LIST_LINE_CHARS = 45  # a list line without its URL, about
DETAIL_URL_CHARS = 300
HEADERS_ROOM = 3000  # characters shared by the header values of one request
HEADER_VALUE_CHARS = (40, 200)  # one header value gets its share of that room, within these bounds
MAX_POST_DATA = 300
BODY_MARGIN = 200  # room kept free below the answer budget when the body is sized
SAVE_BODY = "{param:get_network_request.save_body_to}"


def redact_headers(headers: Mapping[str, str]) -> list[tuple[str, str]]:
    """Headers sorted by name, with the values of credentials replaced by their length.

    Redacting is a rule of what an agent may read, not a fact about the request, so it is
    applied here, where headers become text: the network log keeps them as sent and
    received (which is how its tests see the real headers arrive), and every answer that
    shows a header shows it through this function, so no credential reaches an answer."""
    shown = []
    for name, value in sorted(headers.items(), key=lambda item: item[0].lower()):
        lowered = name.lower()
        if lowered in SECRET_HEADERS or any(part in lowered for part in SECRET_NAME_PARTS):
            value = f"[redacted, {len(value)} chars]"
        shown.append((name, value))
    return shown


def _filter_terms(wanted: RequestFilter) -> list[str]:
    given = (("type", wanted.resource_type), ("status", wanted.status), ("url", wanted.url_pattern))
    return [f"{name}={value}" for name, value in given if value is not None]


def request_line(entry: NetworkEntry, origin: str, url_chars: int) -> str:
    """``12 GET 200 fetch /api/data (46 B, 3 ms)``; a refused request has
    ``BLOCKED (--blocked-origins)`` in place of its status, and no size, as has one a route
    aborted (``ABORTED (route r1)``); one a route mocked or modified has ``MOCKED 200 (route r1)``."""
    duration = "in flight" if entry.duration_ms is None else f"{entry.duration_ms} ms"
    url = compact_url(entry.url, origin, url_chars)
    if entry.refused is not None:
        return f"{entry.id} {entry.method} BLOCKED ({entry.refused.flag}) {entry.resource_type} {url} ({duration})"
    routed = entry.routed
    if routed is not None and routed.outcome == "aborted":
        return f"{entry.id} {entry.method} ABORTED (route {routed.route_id}) {entry.resource_type} {url} ({duration})"
    status = "pending" if entry.status is None else str(entry.status)
    if routed is not None:
        status = f"{routed.outcome.upper()} {status} (route {routed.route_id})"
    if entry.status == 0:
        size = f"failed: {entry.error_text}"
    else:
        size = "…" if entry.encoded_size is None else human_size(entry.encoded_size)
    return f"{entry.id} {entry.method} {status} {entry.resource_type} {url} ({size}, {duration})"


def request_list_answer(page: RequestPage, *, page_url: str, max_chars: int) -> str:
    """A page of the list under a header with the counts, the filters and the next offset;
    URLs are cut so the page fits in `max_chars`."""
    filters = _filter_terms(page.filter)
    where = f"on {page_url}" + (f", {page.dropped} oldest dropped" if page.dropped else "")
    if not page.matching:
        what = f"No requests match {', '.join(filters)}" if filters else "No requests recorded"
        return f"{what} ({page.recorded} recorded {where})."
    matched = f"{page.matching} matching requests" if filters else f"{page.matching} requests"
    if not page.requests:
        return f"{{param:list_network_requests.offset}}={page.offset} is past the end: {matched} {where}."
    end = page.offset + len(page.requests)
    header = f"showing {page.offset + 1}–{end} of {matched} {where}"
    if filters:
        header += f" ({', '.join(filters)}; {page.recorded} recorded)"
    if end < page.matching:
        header += f"; next: {{param:list_network_requests.offset}}={end}"
    budget = max_chars - len(header) - 100
    low, high = LIST_URL_CHARS
    url_chars = max(low, min(high, budget // len(page.requests) - LIST_LINE_CHARS))
    origin = origin_of(page_url)
    return "\n".join([header, *(request_line(entry, origin, url_chars) for entry in page.requests)])


def _headers_block(title: str, headers: Mapping[str, str], value_chars: int) -> list[str]:
    lines = [f"{title} ({len(headers)}):"]
    lines += [f"  {name}: {clip(value, value_chars, keep='ends')}" for name, value in redact_headers(headers)]
    return lines


def _outcome(entry: NetworkEntry) -> str:
    if entry.refused is not None:
        return f"BLOCKED: {entry.refused.statement}"
    routed = entry.routed
    if routed is not None:
        plain = _outcome(replace(entry, routed=None))
        if routed.outcome == "modified":
            return f"{plain} (request headers set by route {routed.route_id})"
        how = entry.error_text if routed.outcome == "aborted" else plain
        return f"{routed.outcome.upper()} by route {routed.route_id}, never sent: {how}"
    if entry.status is None:
        return "pending, no response yet"
    if entry.status == 0:
        return f"failed: {entry.error_text}"
    return f"{entry.status} {entry.status_text}".rstrip() + f", {entry.mime_type or 'no type'}"


def request_detail_answer(
    entry: NetworkEntry,
    body: ResponseBody | MissingBody | SavedBody | None,
    *,
    max_body_chars: int,
    max_chars: int,
) -> str:
    """One request: what it was and how it ended, its headers (credentials redacted), what it
    posted, then its body as asked (None: not asked), cut to what is left of `max_chars`."""
    size = "" if entry.encoded_size is None else f", {human_size(entry.encoded_size)}"
    duration = "" if entry.duration_ms is None else f", {entry.duration_ms} ms"
    response_headers = entry.response_headers if entry.status else {}
    low, high = HEADER_VALUE_CHARS
    shares = max(1, len(entry.request_headers) + len(response_headers))
    value_chars = max(low, min(high, HEADERS_ROOM // shares - 30))
    lines = [
        f"Request {entry.id}: {entry.method} {clip(entry.url, DETAIL_URL_CHARS, keep='ends')}",
        f"{entry.resource_type}, {_outcome(entry)}{size}{duration}",
        *_headers_block("Request headers", entry.request_headers, value_chars),
    ]
    if entry.post_data:
        lines.append(f"Request body: {clip(entry.post_data, MAX_POST_DATA, keep='ends')}")
    if response_headers:
        lines += _headers_block("Response headers", response_headers, value_chars)
    room = max_chars - len("\n".join(lines)) - BODY_MARGIN
    if body is not None:
        lines += body_lines(body, mime_type=entry.mime_type, max_body_chars=max_body_chars, room=room)
    return "\n".join(lines)


def body_lines(
    body: ResponseBody | MissingBody | SavedBody, *, mime_type: str, max_body_chars: int, room: int
) -> list[str]:
    """The body inline (cut to the smaller of `max_body_chars` and `room`), only its size when
    it is binary, where it was saved, or why there is none."""
    if isinstance(body, SavedBody):
        return [f"Body saved to {body.path} ({exact_size(body.size)})"]
    if isinstance(body, MissingBody):
        reason, suggestion = missing_body_reason(body)
        return [f"Body: not available. {reason}" + (f" {suggestion}" if suggestion else "")]
    if not body.data:
        return ["Body: empty (as Chrome holds it)."]
    if body.binary:
        return [f"Body: binary, {len(body.data)} bytes ({mime_type}); {SAVE_BODY} writes it to a file."]
    text = body.data.decode("utf-8", errors="replace")
    limit = min(max_body_chars, max(0, room))
    if len(text) <= limit:
        return [f"Body ({len(text)} chars):", text]
    why = "the body limit" if limit == max_body_chars else "the answer size limit"
    return [
        f"Body ({len(text)} chars, first {limit} shown because of {why}; {SAVE_BODY} writes all of it):",
        text[:limit],
    ]


def missing_body_reason(body: MissingBody) -> tuple[str, str | None]:
    """Why there is no body, and what to do to have it next time (None when nothing helps);
    a limit that applied is named with its size."""
    number = body.request_id
    size = human_size(body.size or 0)
    limit = human_size(body.limit or 0)
    if body.why == "blocked":
        return f"Request {number} was blocked ({body.detail}): it has no body.", None
    if body.why == "failed":
        return f"Request {number} failed ({body.detail}): it has no body.", None
    if body.why == "loading":
        return f"Request {number} has not finished loading: its body is not there yet.", None
    if body.why == "redirect":
        return (
            f"Request {number} is a redirect (HTTP {body.detail}): it has no body.",
            "The request it led to follows it in {tool:list_network_requests}.",
        )
    if body.why == "session ended":
        return f"The body of request {number} is gone: its page session has ended.", None
    if body.why == "over limit":
        return (
            f"Chrome did not keep the body of request {number}: at {size} it is over the {limit} per body "
            f"Chrome is asked to keep (Chrome: {body.detail}).",
            f"Bodies over {limit} cannot be had through the browser: download its URL outside it.",
        )
    if body.why == "evicted":
        return (
            f"Chrome no longer holds the body of request {number} ({body.detail}): it keeps {limit} of the page's "
            "bodies in all (a binary one counts a third more, as base64) and pushes out the oldest for new ones.",
            f"Make the request again, then save its body right away with {SAVE_BODY}=…, "
            "before later downloads "
            "push it out.",
        )
    # unreadable: Chrome may hold it, but its reply would not fit in a message
    return (
        f"The body of request {number} is too large to read: {size} of {body.detail}, over the {limit} of "
        f"{body.detail} that one CDP message can carry once encoded.",
        "Download its URL outside the browser.",
    )
