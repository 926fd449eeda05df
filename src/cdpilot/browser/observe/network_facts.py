"""What the network log holds, as plain data: requests as they stand, which of them a filter
picks, one page of them, and a response body (or why there is none).

`NetworkLog` learns these from CDP events; these facts do not speak CDP, so the answer
renderers can import them without loading the protocol client. Headers are kept as the
browser sent and received them: the renderers redact credentials (`redact_headers`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from cdpilot.browser.page.origin_policy import Refusal
from cdpilot.browser.session.route_facts import RouteMark

NAMED_TYPES = {"document", "stylesheet", "image", "media", "font", "script", "xhr", "fetch", "websocket"}


@dataclass(frozen=True)
class NetworkEntry:
    """One request (one hop of a redirect chain) as it stands when read."""

    id: str  # ours: 1, 2, …
    cdp_id: str  # Chrome's: shared by the hops of a redirect chain; names the latest
    method: str
    url: str
    resource_type: str  # CDP's type, lowercased: document, fetch, xhr, image, …
    request_headers: Mapping[str, str]
    post_data: str | None
    status: int | None  # None until a response arrives; 0 when the request failed
    status_text: str
    mime_type: str
    response_headers: Mapping[str, str]
    encoded_size: int | None  # bytes on the wire, once loaded
    duration_ms: int | None  # None while in flight
    error_text: str | None  # why it failed
    refused: Refusal | None = None  # it failed because the origin lists refused it
    routed: RouteMark | None = None  # a route answered it: mocked, modified or aborted it


@dataclass(frozen=True)
class RequestFilter:
    """The list's filters; a request passes when it passes every one given."""

    resource_type: str | None = None  # ``other``: any type not named in the tool's enum
    status: int | None = None
    url_pattern: str | None = None

    def select(self, requests: Iterable[NetworkEntry]) -> list[NetworkEntry]:
        matches_url = url_matcher(self.url_pattern) if self.url_pattern else None
        return [
            r
            for r in requests
            if (
                self.resource_type is None
                or r.resource_type == self.resource_type
                or (self.resource_type == "other" and r.resource_type not in NAMED_TYPES)
            )
            and (self.status is None or r.status == self.status)
            and (matches_url is None or matches_url(r.url))
        ]


def url_matcher(pattern: str) -> Callable[[str], bool]:
    """A glob with ``*`` and ``?`` matches the whole URL; a plain pattern matches anywhere in it."""
    if "*" not in pattern and "?" not in pattern:
        return lambda url: pattern in url
    regex = re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), re.DOTALL)
    return lambda url: regex.fullmatch(url) is not None


@dataclass(frozen=True)
class RequestPage:
    """One page of the requests a filter picks, oldest first, with the counts around it."""

    requests: tuple[NetworkEntry, ...]  # empty when the offset is past the end
    offset: int  # how many matching requests come before this page
    matching: int  # requests the filter picks
    recorded: int  # requests the log holds for the current page
    dropped: int  # oldest requests pushed out by the bound
    filter: RequestFilter


@dataclass(frozen=True)
class ResponseBody:
    data: bytes
    binary: bool  # Chrome sent it base64-encoded: not text


BodyGap = Literal["blocked", "failed", "loading", "redirect", "session ended", "over limit", "evicted", "unreadable"]


@dataclass(frozen=True)
class MissingBody:
    """Why a request has no body to give: it failed, is still loading, or Chrome did not keep it
    (then with the limit that applied, so the answer can name it and say what to do)."""

    request_id: str
    why: BodyGap
    detail: str = ""  # the failure, the refusal's statement, the redirect's status or Chrome's words
    size: int | None = None  # bytes of the body as received, when they matter
    limit: int | None = None  # bytes: the limit that applied (over limit, evicted, unreadable)


@dataclass(frozen=True)
class SavedBody:
    """A body written to a file under the output directory."""

    path: str
    size: int  # bytes
