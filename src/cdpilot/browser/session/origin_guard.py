"""The origin lists, enforced inside the browser: every request to a refused origin fails.

Checking the URLs an agent asks for (`urls.check_origin`) is not enough: a page loads
images, scripts and iframes, calls fetch, follows redirects, sets ``location.href`` and opens
popups on its own. So the browser is asked to hold every request before it is sent
(``Fetch.enable`` at the request stage) and let us answer each one: continue it, or fail it
as ``BlockedByClient``, which the page sees as a network error it cannot tell from any other.

Interception is enabled on the browser target, not on each page: one switch covers every
page, frame (in-process or not), dedicated worker and popup of every browser context, from
its very first request. A popup is held before it has been attached to anything, so there
is no window in which a new tab could load before we are on it, and no per-target set-up to
race. The requests are held in the browser process and answered through the browser
session, so a page paused in the debugger (or stuck in an ``alert()``) holds up nothing: its
pending requests are still answered, and other pages go on loading.

Covered: every request that goes through the browser's network stack, which includes
service workers' own script and their ``fetch()`` calls to the network. Not covered:
WebSocket (``ws:``/``wss:``) and WebTransport connections and WebRTC traffic, which the
Fetch domain does not see; answers a service worker makes up itself (``respondWith`` with a
response it built or cached) reach no server, so there is nothing to refuse. Pages already
open in a browser cdpilot connects to keep what they loaded before it connected.

Only a policy with entries turns interception on: with none, no request takes the detour.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable

from cdpilot.browser.page.origin_policy import OriginPolicy, Refusal
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

INTERCEPT_EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
REMEMBERED_REFUSALS = 1000  # as many as the network log holds requests
GONE = (CdpCommandError, CdpTimeoutError, BrowserConnectionError)  # the request or the browser went away

_log = logging.getLogger(__name__)


class OriginGuard:
    """Holds every request of one browser and lets through only what the policy allows."""

    def __init__(self, policy: OriginPolicy) -> None:
        self.policy = policy
        self._refused: OrderedDict[str, Refusal] = OrderedDict()  # network request id -> why, newest last
        self._answering: set[asyncio.Task[None]] = set()
        self._subscriptions = Subscriptions()

    async def start(self, browser: CdpSession) -> None:
        """Intercept on the browser session, before any page is attached or navigated."""
        if not self.policy.enforced:
            return
        self._subscriptions.add(browser, {"Fetch.requestPaused": lambda event: self._on_paused(browser, event)})
        await browser.send("Fetch.enable", INTERCEPT_EVERY_REQUEST)

    def stop(self) -> None:
        self._subscriptions.clear()

    def refusal_of(self, request_id: str) -> Refusal | None:
        """Why the request with this Network request id was failed, if this guard failed it:
        how the network log tells a refused request from one that failed of itself."""
        return self._refused.get(request_id)

    def _on_paused(self, browser: CdpSession, event: CdpEvent) -> None:
        params = event.params
        refusal = self.policy.refusal(str(params["request"]["url"]))
        if refusal is None:
            answer = browser.send("Fetch.continueRequest", {"requestId": params["requestId"]})
        else:
            _log.debug("Refused %s: %s", params["request"]["url"], refusal.statement)
            if params.get("networkId"):  # absent for targets no Network domain watches
                self._remember(str(params["networkId"]), refusal)
            failure = {"requestId": params["requestId"], "errorReason": "BlockedByClient"}
            answer = browser.send("Fetch.failRequest", failure)
        task = asyncio.ensure_future(_quietly(answer))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    def _remember(self, request_id: str, refusal: Refusal) -> None:
        self._refused[request_id] = refusal
        if len(self._refused) > REMEMBERED_REFUSALS:
            self._refused.popitem(last=False)


async def _quietly(answer: Awaitable[object]) -> None:
    """Send an answer; a request that went away meanwhile (its page closed or navigated) has
    nobody left to answer, and that is no error."""
    with contextlib.suppress(*GONE):
        await answer
