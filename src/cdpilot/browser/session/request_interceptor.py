"""The one place a browser's requests are held and answered: the origin lists first, then the
request routes, else the request goes on as the page made it.

Checking the URLs an agent asks for (`urls.check_origin`) is not enough: a page loads
images, scripts and iframes, calls fetch, follows redirects, sets ``location.href`` and opens
popups on its own. So the browser is asked to hold every request before it is sent
(``Fetch.enable`` at the request stage) and let us answer each one, once: fail it as
``BlockedByClient`` when the origin lists refuse it (a route never lets a refused request
through), else do what the first matching route says (fulfil it, send it on with headers
set, or fail it), else continue it.

Interception is enabled on the browser target, not on each page: one switch covers every
page, frame (in-process or not), dedicated worker and popup of every browser context, from
its very first request. A popup is held before it has been attached to anything, so there
is no window in which a new tab could load before we are on it, and no per-target set-up to
race; and routes, held here, outlive every navigation. The requests are held in the browser
process and answered through the browser session, so a page paused in the debugger (or
stuck in an ``alert()``) holds up nothing: its pending requests are still answered, and
other pages go on loading.

Covered: every request that goes through the browser's network stack, which includes
service workers' own script and their ``fetch()`` calls to the network. Not covered:
WebSocket (``ws:``/``wss:``) and WebTransport connections and WebRTC traffic, which the
Fetch domain does not see; answers a service worker makes up itself (``respondWith`` with a
response it built or cached) reach no server, so there is nothing to refuse. Pages already
open in a browser cdpilot connects to keep what they loaded before it connected.

One browser may serve several connections, each in a browser context of its own (the HTTP
transport's shared Chromium): each context has its own route table, and a held request meets
the routes of the context its frame belongs to (`owner_of`). Interception stays one switch
for the whole browser; the origin lists, the server's, apply to every context alike. A
request whose frame no context has claimed (a same-process iframe of a tab never made
current) meets the origin lists only.

Requests are held only while there is something to hold them for (a policy with entries, or
a route): with neither, none is paused. Holding starts with the first route and stops with
the last one removed (or used up), unless the policy still needs it. Interception itself is
enabled once, at the start, with a pattern no URL matches, and the pattern is widened and
narrowed: Chrome builds the browser's interceptor into a document's (or worker's) loaders
when it creates them, so an interception enabled only when the first route comes would reach
only documents loaded afterwards, and the page already open would bypass its routes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from cdpilot.browser.page.origin_policy import OriginPolicy, Refusal
from cdpilot.browser.session.route_facts import (
    Abort,
    ContinueWith,
    Fulfill,
    RouteAction,
    RouteInfo,
    RouteMark,
    RouteSpec,
    outcome_of,
)
from cdpilot.browser.session.route_table import RouteTable
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

INTERCEPT_EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
INTERCEPT_NOTHING = {
    "patterns": [{"urlPattern": "cdpilot-holds-nothing:", "requestStage": "Request"}]
}  # no URL is that
REMEMBERED_OUTCOMES = 1000  # as many as the network log holds requests
GONE = (CdpCommandError, CdpTimeoutError, BrowserConnectionError)  # the request or the browser went away

Interception = Refusal | RouteMark  # what was done to a request other than letting it go

_log = logging.getLogger(__name__)


ContextOwner = Callable[[str], str | None]  # a request's frame id -> its browser context id, None: unknown


class RequestInterceptor:
    """Holds the requests of one browser while the origin policy or a route needs it, and
    answers each one once."""

    def __init__(self, policy: OriginPolicy, owner_of: ContextOwner | None = None) -> None:
        """`owner_of`: for a browser shared by several contexts, the context a frame belongs
        to; without it, every request meets the one table of the whole browser (`routes(None)`)."""
        self.policy = policy
        self._owner_of = owner_of
        self._tables: dict[str | None, RouteTable] = {}
        self._browser: CdpSession | None = None
        self._holding: bool | None = None  # None: interception not enabled yet
        self._switching = asyncio.Lock()  # one Fetch.enable at a time, in order
        self._outcomes: OrderedDict[str, tuple[str, Interception]] = OrderedDict()  # network id -> (URL, what)
        self._answering: set[asyncio.Task[None]] = set()
        self._subscriptions = Subscriptions()

    async def start(self, browser: CdpSession) -> None:
        """Listen on the browser session and enable interception (holding requests if the
        policy asks), before any page is attached or navigated."""
        self._browser = browser
        self._subscriptions.add(browser, {"Fetch.requestPaused": lambda event: self._on_paused(browser, event)})
        await self._switch()

    def stop(self) -> None:
        self._subscriptions.clear()

    def routes(self, context_id: str | None) -> Routes:
        """The routes of one browser context (None: of the whole browser)."""
        return Routes(self, self._tables.setdefault(context_id, RouteTable()))

    async def drop_routes(self, context_id: str | None) -> None:
        """Forget a context's routes, as it closes (holding stops if nothing else needs it)."""
        if self._tables.pop(context_id, None) is not None:
            await self._switch()

    def outcome_of(self, request_id: str, url: str) -> Interception | None:
        """What was done to the request with this Network request id and URL, if anything:
        how the network log tells a refused, mocked or aborted request from the others. The
        URL tells apart the hops of a redirect chain, which share their id."""
        found = self._outcomes.get(request_id)
        return found[1] if found is not None and found[0] == url else None

    async def _switch(self) -> None:
        """Hold requests exactly while the policy has entries or a route is left."""
        async with self._switching:
            wanted = self.policy.enforced or any(len(table) for table in self._tables.values())
            if self._browser is None or wanted == self._holding:
                return
            first, self._holding = self._holding is None, wanted
            with contextlib.suppress(*(() if first else GONE)):  # later, a browser gone has nothing to hold
                await self._browser.send("Fetch.enable", INTERCEPT_EVERY_REQUEST if wanted else INTERCEPT_NOTHING)

    def _on_paused(self, browser: CdpSession, event: CdpEvent) -> None:
        params = event.params
        request = params["request"]
        url = str(request["url"])
        refusal = self.policy.refusal(url)
        if refusal is not None:
            _log.debug("Refused %s: %s", url, refusal.statement)
            self._remember(params, url, refusal)
            answer = browser.send(
                "Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"}
            )
        else:
            table = self._tables.get(self._owner_of(str(params.get("frameId", ""))) if self._owner_of else None)
            route, used_up = table.take(url) if table is not None else (None, False)
            if route is None:
                answer = browser.send("Fetch.continueRequest", {"requestId": params["requestId"]})
            else:
                self._remember(params, url, RouteMark(route.id, outcome_of(route.spec.action)))
                command, answer_params = _routed(route.spec.action, request)
                answer = browser.send(command, {"requestId": params["requestId"], **answer_params})
            if used_up:
                self._keep(self._switch())
        self._keep(_quietly(answer))

    def _keep(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    def _remember(self, params: dict[str, Any], url: str, what: Interception) -> None:
        if not params.get("networkId"):  # absent for targets no Network domain watches
            return
        self._outcomes[str(params["networkId"])] = (url, what)
        if len(self._outcomes) > REMEMBERED_OUTCOMES:
            self._outcomes.popitem(last=False)


class Routes:
    """One connection's routes: a table of its browser's interceptor, which holds requests
    while any table has a route."""

    def __init__(self, interceptor: RequestInterceptor, table: RouteTable) -> None:
        self._interceptor = interceptor
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    def infos(self) -> list[RouteInfo]:
        return self._table.infos()

    async def add(self, spec: RouteSpec) -> RouteInfo:
        """Route the matching requests of every page from now on (requests held if they were not)."""
        route = self._table.add(spec)
        await self._interceptor._switch()
        return route

    async def remove(self, route_id: str | None) -> list[RouteInfo]:
        """Remove one route (None: all of them); StateError for an unknown id."""
        removed = self._table.remove(route_id)
        await self._interceptor._switch()
        return removed


def _routed(action: RouteAction, request: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The Fetch command, and its parameters, that carry out a route's action."""
    if isinstance(action, Fulfill):
        headers = [{"name": name, "value": value} for name, value in action.headers]
        body = base64.b64encode(action.body).decode("ascii")
        return "Fetch.fulfillRequest", {"responseCode": action.status, "responseHeaders": headers, "body": body}
    if isinstance(action, ContinueWith):
        # Fetch replaces the whole header list: the page's own headers go on, those named are set.
        named = {name.lower() for name, _ in action.headers}
        kept = [
            (name, value) for name, value in dict(request.get("headers") or {}).items() if name.lower() not in named
        ]
        headers = [{"name": name, "value": str(value)} for name, value in [*kept, *action.headers]]
        return "Fetch.continueRequest", {"headers": headers}
    assert isinstance(action, Abort)
    return "Fetch.failRequest", {"errorReason": action.reason}


async def _quietly(answer: Awaitable[object]) -> None:
    """Send an answer; a request that went away meanwhile (its page closed or navigated) has
    nobody left to answer, and that is no error."""
    with contextlib.suppress(*GONE):
        await answer
