"""Navigation of the current page, finished by lifecycle events rather than sleeps.

``Page.navigate`` answers with the new document's ``loaderId``; the wait then ends on the
``Page.lifecycleEvent`` of that loader in the main frame (``load``, ``DOMContentLoaded`` or
``networkIdle``). Events are collected from before the command is sent, so one that
arrives before the answer is not missed. A same-document navigation (``#hash``) has no
loader: it is finished by the frame's ``Page.navigatedWithinDocument``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from cdpilot.browser.connection import BrowserConnection
from cdpilot.browser.urls import normalize_url
from cdpilot.cdp import CdpSession, EventStream
from cdpilot.errors import ArgumentError, CdpTimeoutError, ExecutionError, FieldProblem, StateError

WaitUntil = Literal["load", "domcontentloaded", "networkidle"]

LIFECYCLE_EVENT_FOR: dict[str, str] = {
    "load": "load",
    "domcontentloaded": "DOMContentLoaded",
    "networkidle": "networkIdle",
}
STATUS_SCHEMES = ("http:", "https:")  # other schemes have no HTTP status (data:, about:, file:)


@dataclass(frozen=True)
class NavigationResult:
    url: str
    title: str
    status: int | None
    wait_until: str
    elapsed_ms: int


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
    page = conn.page
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        async with asyncio.timeout(timeout_ms / 1000):
            status = await _go_and_wait(page, target, LIFECYCLE_EVENT_FOR[wait_until], timeout_ms / 1000)
            final_url, title = await _where_we_are(page)
    except TimeoutError as exc:
        raise CdpTimeoutError(
            f"The navigation did not reach {wait_until!r} within {timeout_ms} ms "
            f"(waited for the main frame's {LIFECYCLE_EVENT_FOR[wait_until]} lifecycle event)."
        ) from exc
    elapsed_ms = round((loop.time() - started) * 1000)
    conn.remember_location(final_url, title)
    return NavigationResult(final_url, title, status, wait_until, elapsed_ms)


async def _go_and_wait(page: CdpSession, url: str, lifecycle_event: str, timeout_s: float) -> int | None:
    """Navigate; return the HTTP status of the new main document once `lifecycle_event` fired.

    `Page.navigate` answers only when the server does, so it gets the caller's whole
    budget rather than the default command deadline."""
    with page.listen("Page.lifecycleEvent", "Network.responseReceived", "Page.navigatedWithinDocument") as events:
        reply = await page.send("Page.navigate", {"url": url}, timeout_s=timeout_s)
        if reply.get("errorText"):
            raise ExecutionError(
                f"Navigation failed: {reply['errorText']}.",
                suggestion="Check that the address is right and that its server is up.",
            )
        frame_id, loader_id = reply["frameId"], reply.get("loaderId")
        status: int | None = None
        while True:
            event = await events.next()
            params = event.params
            if params.get("frameId") != frame_id:
                continue
            if loader_id is None:  # same-document (#hash): done when the frame reports it
                if event.method == "Page.navigatedWithinDocument":
                    return None
            elif params.get("loaderId") != loader_id:
                continue
            elif event.method == "Network.responseReceived":
                response = params["response"]
                if params.get("type") == "Document" and str(response["url"]).startswith(STATUS_SCHEMES):
                    status = int(response["status"])
            elif event.method == "Page.lifecycleEvent" and params["name"] == lifecycle_event:
                return status


async def go_in_history(
    conn: BrowserConnection, delta: int, *, wait_until: WaitUntil = "load", timeout_ms: int = 30000
) -> NavigationResult:
    """Back (-1) or forward (+1) one history entry, waiting as `navigate` does."""
    history = await conn.page.send("Page.getNavigationHistory")
    position = history["currentIndex"] + delta
    if not 0 <= position < len(history["entries"]):
        direction = "back" if delta < 0 else "forward"
        raise StateError(
            f"There is no page to go {direction} to: the history has {len(history['entries'])} entries "
            f"and this is entry {history['currentIndex'] + 1}.",
            suggestion="Load a page with {tool:navigate} first.",
        )
    entry_id = history["entries"][position]["id"]
    return await _run(
        conn, lambda: conn.page.send("Page.navigateToHistoryEntry", {"entryId": entry_id}), wait_until, timeout_ms
    )


async def reload(
    conn: BrowserConnection, *, ignore_cache: bool = False, wait_until: WaitUntil = "load", timeout_ms: int = 30000
) -> NavigationResult:
    """Reload the current page, waiting as `navigate` does."""
    return await _run(
        conn, lambda: conn.page.send("Page.reload", {"ignoreCache": ignore_cache}), wait_until, timeout_ms
    )


async def _run(
    conn: BrowserConnection,
    trigger: Callable[[], Awaitable[dict[str, Any]]],
    wait_until: WaitUntil,
    timeout_ms: int,
) -> NavigationResult:
    """Trigger a navigation that does not announce its loader, then wait for its lifecycle event.

    The loader is learnt from the main frame's ``Page.frameNavigated``; a page restored from
    the back/forward cache or a same-document step fires no new lifecycle, so those end there."""
    page = conn.page
    loop = asyncio.get_running_loop()
    started = loop.time()
    lifecycle = LIFECYCLE_EVENT_FOR[wait_until]
    try:
        async with asyncio.timeout(timeout_ms / 1000):
            main_frame = (await page.send("Page.getFrameTree"))["frameTree"]["frame"]["id"]
            with page.listen(
                "Page.frameNavigated", "Page.navigatedWithinDocument", "Page.lifecycleEvent", "Network.responseReceived"
            ) as events:
                await trigger()
                status = await _until_loaded(events, main_frame, lifecycle)
            final_url, title = await _where_we_are(page)
    except TimeoutError as exc:
        raise CdpTimeoutError(
            f"The page did not reach {wait_until!r} within {timeout_ms} ms "
            f"(waited for the main frame's {lifecycle} lifecycle event)."
        ) from exc
    conn.remember_location(final_url, title)
    return NavigationResult(final_url, title, status, wait_until, round((loop.time() - started) * 1000))


async def _until_loaded(events: EventStream, main_frame: str, lifecycle: str) -> int | None:
    """The document's HTTP status once `lifecycle` fired for the loader the main frame committed.

    The document response arrives before the commit names its loader, so statuses are kept
    per loader until then."""
    loader_id: str | None = None
    statuses: dict[str, int] = {}
    while True:
        event = await events.next()
        params = event.params
        if event.method == "Page.frameNavigated":
            frame = params["frame"]
            if frame["id"] == main_frame:
                if params.get("type") == "BackForwardCacheRestore":
                    return None
                loader_id = frame["loaderId"]
        elif event.method == "Page.navigatedWithinDocument":
            if params.get("frameId") == main_frame and loader_id is None:
                return None
        elif event.method == "Network.responseReceived":
            response = params["response"]
            if params.get("type") == "Document" and str(response["url"]).startswith(STATUS_SCHEMES):
                statuses[params["loaderId"]] = int(response["status"])
        elif loader_id is not None and params.get("loaderId") == loader_id and params["name"] == lifecycle:
            return statuses.get(loader_id)


async def _where_we_are(page: CdpSession) -> tuple[str, str]:
    """The page's URL (after redirects, with its #fragment) and its document title."""
    history = await page.send("Page.getNavigationHistory")
    entry = history["entries"][history["currentIndex"]]
    return str(entry["url"]), str(entry["title"])
