"""Navigation of the current page, finished by lifecycle events rather than sleeps.

Every navigation (goto, back, forward, reload) ends on the ``Page.lifecycleEvent`` (``load``,
``DOMContentLoaded`` or ``networkIdle``) of the loader the main frame committed. Events are
collected from before the command is sent, so one that arrives before its answer is not
missed. A same-document navigation (``#hash``) has no new loader: it is finished by the
frame's ``Page.navigatedWithinDocument``. A URL the browser downloads instead of showing
(``isDownload`` in the reply) loads nothing: the page stays, and the result is the download.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal

from cdpilot import progress
from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.page.page_facts import LoadProgress, NavigationKind, NavigationResult, dialog_of
from cdpilot.browser.page.urls import normalize_url
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpSession, EventStream
from cdpilot.errors import (
    ArgumentError,
    CdpCommandError,
    CdpTimeoutError,
    DialogOpenError,
    ExecutionError,
    ExecutionPausedError,
    FieldProblem,
    StateError,
)

if TYPE_CHECKING:
    from cdpilot.browser.debugger.debugger_facts import Pause

WaitUntil = Literal["load", "domcontentloaded", "networkidle"]

LIFECYCLE_EVENT_FOR: dict[str, str] = {
    "load": "load",
    "domcontentloaded": "DOMContentLoaded",
    "networkidle": "networkIdle",
}
STATUS_SCHEMES = ("http:", "https:")  # other schemes have no HTTP status (data:, about:, file:)
MAX_PENDING_LISTED = 5  # requests still open, named in a load that ran out of time
TITLE_TIMEOUT_S = 1.0  # asking the document for its title, when the browser does not know it yet


async def navigate(
    conn: BrowserConnection,
    url: str,
    *,
    wait_until: WaitUntil = "load",
    timeout_ms: int = 30000,
    allow_file_urls: bool = False,
) -> NavigationResult:
    """Go to `url` on the connection's current page and wait for `wait_until`.

    Raises `ArgumentError` for a refused URL, `ExecutionError` when the browser reports a
    failed navigation (e.g. net::ERR_CONNECTION_REFUSED), `CdpTimeoutError` when
    `wait_until` is not reached within `timeout_ms`.
    """
    target = normalize_url(url, allow_file_urls=allow_file_urls)
    if wait_until not in LIFECYCLE_EVENT_FOR:
        raise ArgumentError(
            "Unknown wait condition.",
            problems=[FieldProblem("wait_until", "one of load, domcontentloaded, networkidle", "another value")],
        )
    if timeout_ms <= 0:
        raise ArgumentError(
            "Invalid timeout.", problems=[FieldProblem("timeout_ms", "a positive integer", "zero or less")]
        )

    async def go() -> None:
        reply = await conn.page.send("Page.navigate", {"url": target}, timeout_s=timeout_ms / 1000)
        if reply.get("isDownload"):
            raise _Downloaded
        if reply.get("errorText"):
            raise ExecutionError(
                f"Navigation failed: {reply['errorText']}.",
                suggestion="Check that the address is right and that its server is up.",
            )

    loop = asyncio.get_running_loop()
    started, downloads_before = loop.time(), conn.downloads.mark()
    try:
        return await _run(conn, "goto", go, wait_until, timeout_ms, to=target)
    except _Downloaded:
        budget_s = timeout_ms / 1000 - (loop.time() - started)
        download = next(iter(await conn.downloads.collect(downloads_before, budget_s, expected=True)), None)
    if download is None:
        raise ExecutionError(
            f"{target} started a download, and the browser reported nothing more about it.",
            suggestion="Check the browser's downloads folder; the page stayed where it was.",
        )
    elapsed_ms = round((loop.time() - started) * 1000)
    where, title = conn.target_url or "", conn.target_title or ""
    return NavigationResult("goto", where, title, None, wait_until, elapsed_ms, download=download)


class _Downloaded(Exception):
    """The browser downloads the URL instead of showing it."""


async def go_in_history(
    conn: BrowserConnection, delta: int, *, wait_until: WaitUntil = "load", timeout_ms: int = 30000
) -> NavigationResult:
    """Back (-1) or forward (+1) one history entry, waiting as `navigate` does."""
    history = await conn.page.send("Page.getNavigationHistory")
    position = history["currentIndex"] + delta
    direction: NavigationKind = "back" if delta < 0 else "forward"
    if not 0 <= position < len(history["entries"]):
        raise StateError(
            f"There is no page to go {direction} to: the history has {len(history['entries'])} entries "
            f"and this is entry {history['currentIndex'] + 1}.",
            suggestion="Load a page with {tool:navigate} first.",
        )
    entry_id = history["entries"][position]["id"]
    return await _run(
        conn,
        direction,
        lambda: conn.page.send("Page.navigateToHistoryEntry", {"entryId": entry_id}),
        wait_until,
        timeout_ms,
    )


async def reload(
    conn: BrowserConnection, *, ignore_cache: bool = False, wait_until: WaitUntil = "load", timeout_ms: int = 30000
) -> NavigationResult:
    """Reload the current page, waiting as `navigate` does."""
    return await _run(
        conn, "reload", lambda: conn.page.send("Page.reload", {"ignoreCache": ignore_cache}), wait_until, timeout_ms
    )


async def _run(
    conn: BrowserConnection,
    kind: NavigationKind,
    trigger: Callable[[], Awaitable[object]],
    wait_until: WaitUntil,
    timeout_ms: int,
    to: str = "",
) -> NavigationResult:
    """Trigger a navigation, then wait for its lifecycle event in the main frame.

    The loader is learnt from the main frame's ``Page.frameNavigated`` (history steps and
    reloads do not announce it); a page restored from the back/forward cache or a
    same-document step fires no new lifecycle, so those end there. Events are collected
    from before the trigger, so none can slip past. A dialog left open on the old page does
    not stop it: Chrome closes it unanswered as the navigation starts, and the result says so.

    The trigger races the dialogs: a page that asks to confirm leaving (beforeunload) holds
    the navigation until it is answered, so that is the result at once (`asked`), the page
    unmoved. A committed document that does not reach `wait_until` in time is a result too
    (`unfinished`: how far it got), since it can be used; one that never committed times out."""
    page = conn.page
    started = asyncio.get_running_loop().time()
    lifecycle = LIFECYCLE_EVENT_FOR[wait_until]
    pause: Pause | None = None
    status: int | None = None
    unfinished: LoadProgress | None = None
    dismissed = conn.features.dialogs.open
    if dismissed is not None and dismissed.type == "beforeunload":
        raise DialogOpenError(dismissed)  # the page still asks: a new navigation would wait on it too
    # Chrome names a page's main frame after its target; asking (Page.getFrameTree)
    # would wait behind a navigation that is still loading.
    assert page.target_id is not None, "a page session always belongs to a target"
    watch = _LoadWatch(page.target_id, lifecycle)
    try:
        async with asyncio.timeout(timeout_ms / 1000):
            with page.listen(
                "Page.frameNavigated", "Page.navigatedWithinDocument", "Page.lifecycleEvent", "Network.responseReceived"
            ) as events:
                if dismissed is not None:  # Chrome closes it as the navigation starts; then the page runs
                    await trigger()
                    await conn.features.dialogs.wait_closed()
                else:
                    await conn.features.unless_blocked(trigger())
                await progress.report(f"Waiting for {wait_until} ({kind})")
                try:  # bounded by the timeout around it
                    status = await conn.features.unless_blocked(watch.status_once_reached(events))
                except ExecutionPausedError as exc:  # a breakpoint in the new page's scripts: report it now
                    from cdpilot.browser.debugger.debugger_facts import pause_of  # in with the debugger that paused

                    pause = pause_of(exc)
    except DialogOpenError as exc:
        if exc.dialog.type != "beforeunload":
            raise
        url, title = conn.target_url or "", conn.target_title or ""
        return NavigationResult(kind, url, title, None, wait_until, _ms_since(started), asked=dialog_of(exc), to=to)
    except TimeoutError as exc:
        if watch.loader_id is None:
            raise CdpTimeoutError(
                f"The page did not reach {wait_until!r} within {timeout_ms} ms "
                f"(waited for the main frame's {lifecycle} lifecycle event); no new document came in, "
                "the page is where it was."
            ) from exc
        status = watch.statuses.get(watch.loader_id)
        unfinished = _progress(conn, watch, timeout_ms)
    final_url, title = await _where_we_are(page)
    if not title and conn.features.debugger.paused is None and conn.features.dialogs.open is None:
        title = await _document_title(page)
    conn.remember_location(final_url, title)
    return NavigationResult(
        kind, final_url, title, status, wait_until, _ms_since(started), pause, dismissed, unfinished=unfinished
    )


def _ms_since(started: float) -> int:
    return round((asyncio.get_running_loop().time() - started) * 1000)


def _progress(conn: BrowserConnection, watch: _LoadWatch, timeout_ms: int) -> LoadProgress:
    """How far the committed document got: parsed or not, and the requests still open."""
    pending = [entry.url for entry in conn.features.network.requests() if entry.duration_ms is None]
    return LoadProgress(timeout_ms, watch.dom_ready, tuple(pending[:MAX_PENDING_LISTED]), len(pending))


class _LoadWatch:
    """The main frame through one navigation, kept as its events arrive, so that a wait that
    runs out can still say how far the load got (committed, parsed)."""

    def __init__(self, main_frame: str, lifecycle: str) -> None:
        self.main_frame = main_frame
        self.lifecycle = lifecycle
        self.loader_id: str | None = None  # the committed document's loader
        self.statuses: dict[str, int] = {}
        self.dom_ready = False

    async def status_once_reached(self, events: EventStream) -> int | None:
        """The document's HTTP status once `lifecycle` fired for the loader the main frame committed.

        The document response arrives before the commit names its loader, so statuses are kept
        per loader until then."""
        while True:
            event = await events.next()
            params = event.params
            if event.method == "Page.frameNavigated":
                frame = params["frame"]
                if frame["id"] == self.main_frame:
                    if params.get("type") == "BackForwardCacheRestore":
                        return None
                    self.loader_id = frame["loaderId"]
            elif event.method == "Page.navigatedWithinDocument":
                if params.get("frameId") == self.main_frame and self.loader_id is None:
                    return None
            elif event.method == "Network.responseReceived":
                response = params["response"]
                if params.get("type") == "Document" and str(response["url"]).startswith(STATUS_SCHEMES):
                    self.statuses[params["loaderId"]] = int(response["status"])
            elif self.loader_id is not None and params.get("loaderId") == self.loader_id:
                self.dom_ready = self.dom_ready or params["name"] == "DOMContentLoaded"
                if params["name"] == self.lifecycle:
                    return self.statuses.get(self.loader_id)


async def _document_title(page: CdpSession) -> str:
    """The title as the document has it. The browser learns a new document's title from its
    renderer a moment after the load event, so the history entry may not have it yet (seen
    under load); "" when the page does not answer at once."""
    params = {"expression": own_expression("document.title"), "returnByValue": True, "silent": True}
    try:
        reply = await page.send("Runtime.evaluate", params, timeout_s=TITLE_TIMEOUT_S)
    except (CdpCommandError, CdpTimeoutError):
        return ""
    value = reply.get("result", {}).get("value")
    return value if isinstance(value, str) else ""


async def _where_we_are(page: CdpSession) -> tuple[str, str]:
    """The page's URL (after redirects, with its #fragment) and its document title."""
    history = await page.send("Page.getNavigationHistory")
    entry = history["entries"][history["currentIndex"]]
    return str(entry["url"]), str(entry["title"])
