"""Network requests of the current page, recorded from the Network domain's events.

A request is seen through up to six events: ``requestWillBeSent`` and ``responseReceived``
(from the renderer, with the headers the page sees), their ``ExtraInfo`` twins (from the
network stack, with the headers really sent and received: Cookie, Set-Cookie), and
``loadingFinished`` / ``loadingFailed``. The twins may come before or after their
partner, so an early one waits in `_early` until its request turns up.

Requests get short ids of our own (``1``, ``2``, …): CDP's ids are long for documents and
reused along a redirect chain, where each hop is a request of its own here. The log holds
the current page only: a main-frame navigation keeps just the requests of the new
document's loader, and a new page session starts afresh. Callers get `NetworkEntry`
snapshots; the records the events update stay in here.

A request the origin lists refused fails like any blocked one (``net::ERR_BLOCKED_BY_CLIENT``),
and one a route answered looks like any other to the page; the interceptor that answered it
(`RequestInterceptor.outcome_of`) says which it was, by its request id and URL.

Bodies stay in Chrome, which keeps them for ``getResponseBody`` within buffers that
``Network.enable`` sizes: cdpilot asks for room for a binary body of `BODY_LIMIT_BYTES` and for
`BODY_BUFFER_BYTES` in all, and counts each body's bytes as they arrive (``dataReceived``) so
that a body Chrome let go, or one too large to come back in a CDP message, is explained with
the limit that applied.
"""

from __future__ import annotations

import asyncio
import base64
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cdpilot.browser.observe.network_facts import MissingBody, NetworkEntry, RequestFilter, RequestPage, ResponseBody
from cdpilot.browser.page.origin_policy import Refusal
from cdpilot.browser.session.route_facts import RouteMark
from cdpilot.cdp import MAX_MESSAGE_BYTES, CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError, StateError

MAX_REQUESTS = 1000
MIB = 1024 * 1024
BODY_LIMIT_BYTES = 128 * MIB
"""The largest binary body Chrome is asked to keep (it keeps and counts one as base64). Chrome's
own default, 20 MB, loses the downloads one most often wants to inspect; this one still comes
back in one CDP message."""
BODY_BUFFER_BYTES = 256 * MIB
"""All the bodies Chrome keeps for one page session (``maxTotalBufferSize``; its default is 200 MB),
the oldest pushed out first: memory of the page's renderer, spent only as the page downloads."""
CHARS_PER_BYTE = {"binary": 4 / 3, "text": 6.0}  # text at worst: every byte a \uXXXX escape
MESSAGE_ROOM = 64 * 1024  # the JSON around a body in its message
TEXT_TYPE_PARTS = ("text/", "json", "xml", "javascript", "ecmascript")  # types Chrome decodes to text

# (CDP request id, URL) -> why the origin lists failed it, or what a route did to it
InterceptionLookup = Callable[[str, str], Refusal | RouteMark | None]
LIST_SUGGESTION = "See the recorded requests and their ids with {tool:list_network_requests}."


@dataclass(eq=False)
class _Request:
    """A request as the events fill it in; read out as a `NetworkEntry`."""

    id: str
    cdp_id: str
    loader_id: str
    session: CdpSession
    method: str
    url: str
    resource_type: str  # CDP's type, lowercased: document, fetch, xhr, image, …
    started: float  # CDP monotonic seconds
    request_headers: dict[str, str]
    post_data: str | None = None
    status: int | None = None  # None until a response arrives; 0 when the request failed
    status_text: str = ""
    mime_type: str = ""
    response_headers: dict[str, str] = field(default_factory=dict)
    encoded_size: int | None = None
    charset: str = ""  # as Chrome determined it: with one, Chrome sends the body as text
    received: int = 0  # bytes of the body so far (decoded: after any content encoding)
    redirected: bool = False  # a later hop took over its CDP id: a redirect has no body
    ended: float | None = None
    error_text: str | None = None
    refused: Refusal | None = None
    routed: RouteMark | None = None
    expects_extra: bool = False  # the response said its ExtraInfo twin is coming
    has_response_extra: bool = False
    has_request_extra: bool = False
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    loaded: asyncio.Event = field(default_factory=asyncio.Event)  # finished or failed

    def entry(self) -> NetworkEntry:
        return NetworkEntry(
            id=self.id,
            cdp_id=self.cdp_id,
            method=self.method,
            url=self.url,
            resource_type=self.resource_type,
            request_headers=dict(self.request_headers),
            post_data=self.post_data,
            status=self.status,
            status_text=self.status_text,
            mime_type=self.mime_type,
            response_headers=dict(self.response_headers),
            encoded_size=self.encoded_size,
            duration_ms=None if self.ended is None else max(0, round((self.ended - self.started) * 1000)),
            error_text=self.error_text,
            refused=self.refused,
            routed=self.routed,
        )

    @property
    def body_size(self) -> int:
        """Bytes of the body as counted on arrival; without data events (a body Chrome served
        from its cache) the bytes that came over the wire, the best estimate left."""
        return self.received or self.encoded_size or 0

    def check_settled(self) -> None:
        """Settled: it failed, or it has its response and the real response headers."""
        if self.status == 0 or (self.status is not None and (self.has_response_extra or not self.expects_extra)):
            self.settled.set()


class NetworkLog:
    """The requests of one connection's current page, oldest first (bounded)."""

    def __init__(
        self,
        max_requests: int = MAX_REQUESTS,
        *,
        intercepted: InterceptionLookup | None = None,
        body_limit: int = BODY_LIMIT_BYTES,
        buffer_limit: int = BODY_BUFFER_BYTES,
    ) -> None:
        self._requests: dict[str, _Request] = {}  # our id -> request, oldest first
        self._by_cdp_id: dict[str, _Request] = {}  # CDP id -> its latest hop
        self._early: dict[tuple[str, str], dict[str, Any]] = {}  # (kind, CDP id) -> ExtraInfo params
        self._max_requests = max_requests
        self._next_id = 1
        self.dropped = 0  # requests pushed out by the bound
        self._intercepted = intercepted
        self._body_limit, self._buffer_limit = body_limit, buffer_limit
        self._buffers = {
            "maxResourceBufferSize": 4 * math.ceil(body_limit / 3),  # its base64
            "maxTotalBufferSize": buffer_limit,
        }
        self._subscriptions = Subscriptions()

    async def attach(self, session: CdpSession) -> None:
        """Start collecting on a page session (called for every page made current).

        ``Network.enable`` is sent here, with the buffer sizes (how much of the bodies Chrome
        keeps for this session, this log's business); navigation's status codes need the
        domain too, and get it from here."""
        self._requests.clear()
        self._by_cdp_id.clear()
        self._early.clear()
        handlers = {**self._request_handlers(session), "Page.frameNavigated": self._on_frame_navigated}
        self._subscriptions.replace(session, handlers)
        await session.send("Network.enable", self._buffers)

    async def attach_child(self, child: CdpSession) -> None:
        """Also record the requests of an out-of-process frame or worker of the current page
        (`ChildTargets`): they are reported to its session only."""
        self._subscriptions.add(child, self._request_handlers(child))
        await child.send("Network.enable", self._buffers)

    def _request_handlers(self, session: CdpSession) -> dict[str, Callable[[CdpEvent], None]]:
        return {
            "Network.requestWillBeSent": lambda event: self._on_request(session, event.params),
            "Network.requestWillBeSentExtraInfo": lambda event: self._on_extra("request", event.params),
            "Network.responseReceived": lambda event: self._on_response(event.params),
            "Network.responseReceivedExtraInfo": lambda event: self._on_extra("response", event.params),
            "Network.dataReceived": self._on_data,
            "Network.loadingFinished": self._on_finished,
            "Network.loadingFailed": self._on_failed,
        }

    def requests(self) -> list[NetworkEntry]:
        return [request.entry() for request in self._requests.values()]

    def mark(self) -> int:
        """A position in the log: `awaiting_answers(mark)` asks about the requests made after it."""
        return self._next_id - 1

    def awaiting_answers(self, mark: int) -> bool:
        """Whether a request made after `mark` still has no response and has not failed."""
        return any(
            int(request.id) > mark and request.status is None and request.error_text is None
            for request in self._requests.values()
        )

    def page(self, wanted: RequestFilter, *, offset: int, limit: int) -> RequestPage:
        """The requests `wanted` picks, `limit` of them from `offset` on."""
        recorded = self.requests()
        found = wanted.select(recorded)
        return RequestPage(
            requests=tuple(found[offset : offset + limit]),
            offset=offset,
            matching=len(found),
            recorded=len(recorded),
            dropped=self.dropped,
            filter=wanted,
        )

    def get(self, request_id: str) -> NetworkEntry:
        """A request by our id (or by CDP's, for its latest hop); StateError when unknown."""
        return self._find(request_id).entry()

    async def settled(self, request_id: str, timeout_s: float) -> NetworkEntry:
        """A request once it has its response and real headers (waiting at most `timeout_s`);
        a request still in flight is given as it stands."""
        request = self._find(request_id)
        await _wait(request.settled, timeout_s)
        return request.entry()

    async def body(self, request_id: str, *, wait_s: float = 0.0) -> ResponseBody | MissingBody:
        """The response body, once loaded (waiting up to `wait_s` for the end of a download
        that is under way), or why there is none."""
        request = self._find(request_id)
        await _wait(request.loaded, wait_s)
        gap = self._gap(request)
        if gap is not None:
            return gap
        try:
            reply = await request.session.send("Network.getResponseBody", {"requestId": request.cdp_id})
        except CdpCommandError as exc:
            size = request.body_size
            if _kind(request) == "binary" and size > self._body_limit:
                return MissingBody(request.id, "over limit", exc.cdp_message, size, self._body_limit)
            return MissingBody(request.id, "evicted", exc.cdp_message, size, self._buffer_limit)
        if reply.get("base64Encoded"):
            return ResponseBody(base64.b64decode(reply["body"]), binary=True)
        return ResponseBody(str(reply["body"]).encode(), binary=False)

    def _gap(self, request: _Request) -> MissingBody | None:
        """Why there is no body to ask Chrome for, if there is a reason to know beforehand.

        A body too large for one CDP message once encoded is not asked for: that reply would
        end the whole connection, not only this call."""
        if request.refused is not None:
            return MissingBody(request.id, "blocked", request.refused.statement)
        if request.status == 0:
            return MissingBody(request.id, "failed", request.error_text or "")
        if request.ended is None:
            return MissingBody(request.id, "loading")
        if request.redirected:
            return MissingBody(request.id, "redirect", str(request.status))
        if request.session.ended is not None:
            return MissingBody(request.id, "session ended")
        kind = _kind(request)
        readable = int((MAX_MESSAGE_BYTES - MESSAGE_ROOM) / CHARS_PER_BYTE[kind])
        size = request.body_size
        if size > readable:
            return MissingBody(request.id, "unreadable", kind, size, readable)
        return None

    def _find(self, request_id: str) -> _Request:
        found = self._requests.get(request_id) or self._by_cdp_id.get(request_id)
        if found is not None:
            return found
        if request_id.isdigit() and 0 < int(request_id) < self._next_id:
            raise StateError(
                f"Request {request_id} is no longer recorded: the log keeps the requests of the current page "
                f"only, the newest {self._max_requests} of them.",
                suggestion="Make the request again, then find its new id with {tool:list_network_requests}.",
            )
        raise StateError(
            f"No request with id {request_id!r} on this page (ids are those of the request list).",
            suggestion=LIST_SUGGESTION,
        )

    def _on_request(self, session: CdpSession, params: dict[str, Any]) -> None:
        cdp_id = str(params["requestId"])
        previous = self._by_cdp_id.get(cdp_id)
        if previous is not None and "redirectResponse" in params:  # a redirect: that hop ends here
            self._apply_response(previous, params["redirectResponse"])
            previous.ended, previous.redirected = float(params["timestamp"]), True
            previous.loaded.set()
        request = params["request"]
        record = _Request(
            id=str(self._next_id),
            cdp_id=cdp_id,
            loader_id=str(params.get("loaderId", "")),
            session=session,
            method=str(request["method"]),
            url=str(request["url"]) + str(request.get("urlFragment", "")),
            resource_type=str(params.get("type", "Other")).lower(),
            started=float(params["timestamp"]),
            request_headers=dict(request.get("headers") or {}),
            post_data=request.get("postData"),
        )
        self._next_id += 1
        self._requests[record.id] = record
        self._by_cdp_id[cdp_id] = record
        if len(self._requests) > self._max_requests:
            oldest = self._requests.pop(next(iter(self._requests)))
            if self._by_cdp_id.get(oldest.cdp_id) is oldest:
                del self._by_cdp_id[oldest.cdp_id]
            self.dropped += 1
        if early := self._early.pop(("request", cdp_id), None):
            self._on_extra("request", early)

    def _on_extra(self, kind: str, params: dict[str, Any]) -> None:
        record = self._by_cdp_id.get(str(params["requestId"]))
        done = record is not None and (record.has_request_extra if kind == "request" else record.has_response_extra)
        if record is None or done or (kind == "response" and record.status is None):
            if len(self._early) >= self._max_requests:
                self._early.clear()  # twins of requests we never saw (from before attach)
            self._early[(kind, str(params["requestId"]))] = params
            return
        headers = dict(params.get("headers") or {})
        if kind == "request":
            record.request_headers, record.has_request_extra = headers, True
        else:
            record.response_headers, record.has_response_extra = headers, True
            record.check_settled()

    def _on_response(self, params: dict[str, Any]) -> None:
        record = self._by_cdp_id.get(str(params["requestId"]))
        if record is not None:
            record.expects_extra = bool(params.get("hasExtraInfo"))
            self._apply_response(record, params["response"])

    def _apply_response(self, record: _Request, response: dict[str, Any]) -> None:
        record.status = int(response["status"])
        record.status_text = str(response.get("statusText", ""))
        record.mime_type = str(response.get("mimeType", ""))
        record.charset = str(response.get("charset", ""))
        if not record.has_response_extra:
            record.response_headers = dict(response.get("headers") or {})
        self._learn_interception(record)
        if early := self._early.pop(("response", record.cdp_id), None):
            self._on_extra("response", early)
        record.check_settled()

    def _on_data(self, event: CdpEvent) -> None:
        record = self._by_cdp_id.get(str(event.params["requestId"]))
        if record is not None:
            record.received += int(event.params.get("dataLength", 0))

    def _on_finished(self, event: CdpEvent) -> None:
        record = self._by_cdp_id.get(str(event.params["requestId"]))
        if record is not None:
            record.ended = float(event.params["timestamp"])
            record.encoded_size = int(event.params.get("encodedDataLength", 0))
            record.loaded.set()

    def _on_failed(self, event: CdpEvent) -> None:
        record = self._by_cdp_id.get(str(event.params["requestId"]))
        if record is not None:
            record.ended = float(event.params["timestamp"])
            canceled = " (canceled)" if event.params.get("canceled") else ""
            record.status, record.error_text = 0, str(event.params.get("errorText", "failed")) + canceled
            self._learn_interception(record)
            record.check_settled()
            record.loaded.set()

    def _learn_interception(self, record: _Request) -> None:
        """Whether the origin lists refused the request or a route answered it: asked once it
        has ended or has a response, when the interceptor has long decided."""
        found = self._intercepted(record.cdp_id, record.url.split("#", 1)[0]) if self._intercepted else None
        record.refused = found if isinstance(found, Refusal) else None
        record.routed = found if isinstance(found, RouteMark) else None

    def _on_frame_navigated(self, event: CdpEvent) -> None:
        frame = event.params.get("frame") or {}
        if "parentId" in frame:
            return
        loader = str(frame.get("loaderId", ""))
        self._requests = {key: r for key, r in self._requests.items() if r.loader_id == loader}
        self._by_cdp_id = {key: r for key, r in self._by_cdp_id.items() if r.loader_id == loader}


def _kind(request: _Request) -> str:
    """How Chrome holds and sends the body: as text when it has a charset or a text type to
    decode it by, else as base64."""
    return "text" if request.charset or any(part in request.mime_type for part in TEXT_TYPE_PARTS) else "binary"


async def _wait(event: asyncio.Event, timeout_s: float) -> None:
    try:
        async with asyncio.timeout(timeout_s):
            await event.wait()
    except TimeoutError:
        return
