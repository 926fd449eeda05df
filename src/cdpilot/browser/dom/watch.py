"""What an action caused: a dialog it opened, a navigation that followed, a download,
console output, and (through `outside_effects`) a tab, popup or file chooser it opened.

`perform` runs the input events of one action while callbacks follow the main frame. A
navigation often starts just AFTER the input command answers (a form submission is a task
the page posts), so once the events are sent one round trip into the page waits for its
next animation frame and the task after it: a navigation the action scheduled has been
requested by then. If one was, the wait goes on until its ``load`` lifecycle event (or
until it turns out same-document, or stops loading), bounded by the action's timeout.
Nothing here sleeps; every wait ends on an event or a deadline.

A navigation that stops loading without committing a document may have turned into a
download (an attachment, a ``download`` link); then the download replaces the navigation in
the report (`Downloads.collect` waits for it to begin and, briefly, to finish).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from cdpilot.browser.debugger.debugger_facts import pause_of
from cdpilot.browser.dom.element_facts import Effects, Navigation, PageContext
from cdpilot.browser.dom.outside_effects import OutsideWatch
from cdpilot.browser.dom.query import ElementHandle
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.browser.own_scripts import own_expression, own_function, page_script
from cdpilot.browser.page.page_facts import dialog_of
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpEvent
from cdpilot.errors import CdpCommandError, CdpTimeoutError, DialogOpenError, ExecutionPausedError

CONTEXT_TIMEOUT_S = 2.0  # the state bundle is a courtesy: never worth a long wait
# A hidden tab (a background tab of a browser we connected to) gets no animation frames.
NEXT_TASK = "new Promise(r => document.hidden ? setTimeout(r) : requestAnimationFrame(() => setTimeout(r)))"
NAVIGATION_EVENTS = (
    "Page.frameRequestedNavigation",
    "Page.frameStartedNavigating",
    "Page.frameStartedLoading",
    "Page.frameNavigated",
    "Page.navigatedWithinDocument",
    "Page.lifecycleEvent",
    "Page.frameStoppedLoading",
)


async def perform(
    conn: BrowserConnection,
    action: Callable[[], Awaitable[None]],
    *,
    timeout_ms: int,
    answers_dialog: bool = False,
    leaves: bool = False,
    downloads: bool = False,
) -> Effects:
    """Run `action` (input events sent through ``features.unless_blocked``) and report its effects.

    A dialog the action opens, or a debugger pause its event handlers run into, is an
    effect, not an error: the events were delivered. A dialog that was already open, or a
    pause already in place, is a StateError before anything is sent, unless the action is
    what answers the dialog (`answers_dialog`). A dialog opened by an evaluation in a paused
    frame is answered too; the page stays paused, so there is nothing more to watch.
    `downloads`: the action follows a download link, so a download is waited for even though
    nothing in the page shows that it began. `leaves`: the action lets a navigation go (a
    beforeunload dialog accepted), which the browser starts a moment after the action answers,
    so its start is waited for (bounded by the timeout) before the page is asked anything."""
    features = conn.features
    if answers_dialog and features.debugger.paused is not None:
        await action()
        return Effects(timeout_ms=timeout_ms, pause=features.debugger.paused)
    if not answers_dialog:
        features.raise_if_blocked()
    page = conn.page
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_ms / 1000
    mark = conn.features.console.mark()
    downloads_before = conn.downloads.mark()
    pauses_before = features.debugger.pause_count
    watch = _MainFrameWatch(page.target_id)
    unsubscribe = [page.on(method, watch.on_event) for method in NAVIGATION_EVENTS]
    effects = Effects(timeout_ms=timeout_ms)
    with OutsideWatch(conn) as outside:
        try:
            await action()
            if leaves:
                try:
                    async with asyncio.timeout_at(deadline):
                        await watch.began.wait()
                except TimeoutError:
                    pass  # it did not go: the answer says where the page is
            await _next_task(conn, deadline - loop.time())
            if watch.started and not watch.done.is_set():
                try:
                    async with asyncio.timeout_at(deadline):
                        await features.unless_blocked(watch.done.wait())
                except TimeoutError:
                    pass  # reported as a navigation that had not loaded yet
        except DialogOpenError as exc:
            effects.dialog = dialog_of(exc)
        except ExecutionPausedError as exc:
            effects.pause = pause_of(exc)
        finally:
            for stop in unsubscribe:
                stop()
        effects.navigation = await watch.navigation(conn)
        uncommitted = watch.started and watch.done.is_set() and not (watch.committed_url or watch.same_document_url)
        expected = downloads or uncommitted
        effects.downloads = await conn.downloads.collect(downloads_before, deadline - loop.time(), expected=expected)
        if effects.downloads and effects.navigation is not None and not watch.committed_url:
            effects.navigation = None  # it was the download, which never loads
        effects.opened_pages = await outside.opened_pages()
        effects.file_chooser = await outside.file_chooser()
    effects.console = [e for e in conn.features.console.since(mark) if not _is_favicon_noise(e)]
    late = features.debugger.pause_blocking(pauses_before)
    if effects.pause is None and late is not None:  # paused in work the action started (a timer, a fetch)
        effects.pause = pause_of(late)
    return effects


async def _next_task(conn: BrowserConnection, budget_s: float) -> None:
    """Let the page reach its next frame and the task after it (see the module docstring)."""
    if budget_s <= 0:
        return
    params = {"expression": own_expression(NEXT_TASK), "awaitPromise": True, "returnByValue": True, "silent": True}
    try:
        async with asyncio.timeout(budget_s):
            await conn.features.unless_blocked(conn.page.send("Runtime.evaluate", params, timeout_s=budget_s))
    except (TimeoutError, CdpTimeoutError, CdpCommandError):
        pass  # a busy page, or a navigation that destroyed the context: the watch knows which


class _MainFrameWatch:
    """Follows the main frame through the CDP events of one action (callbacks: quick, sync)."""

    def __init__(self, main_frame_id: str | None) -> None:
        self.main_frame_id = main_frame_id  # a page target's id is its main frame's id
        self.started = False
        self.loading = False
        self.requested_url = ""
        self.committed_url = ""
        self.same_document_url = ""
        self.done = asyncio.Event()
        self.began = asyncio.Event()  # set once `started`

    def on_event(self, event: CdpEvent) -> None:
        self._follow(event)
        if self.started:
            self.began.set()

    def _follow(self, event: CdpEvent) -> None:
        params = event.params
        method = event.method
        if method == "Page.frameNavigated":
            frame = params["frame"]
            if frame.get("parentId") is None:
                self.committed_url = str(frame["url"]) + str(frame.get("urlFragment", ""))
                self.started = True
            return
        if params.get("frameId") != self.main_frame_id:
            return
        if method == "Page.frameRequestedNavigation":
            if params.get("disposition", "currentTab") == "currentTab" and not str(params["url"]).startswith(
                "javascript:"
            ):
                self.started, self.requested_url = True, str(params["url"])
        elif method in ("Page.frameStartedNavigating", "Page.frameStartedLoading"):
            self.started = True
            self.loading = self.loading or method == "Page.frameStartedLoading"
            self.requested_url = str(params.get("url", self.requested_url))
        elif method == "Page.navigatedWithinDocument":
            self.started, self.same_document_url = True, str(params["url"])
            if not self.loading:
                self.done.set()
        elif (method == "Page.lifecycleEvent" and params["name"] == "load" and self.committed_url) or (
            method == "Page.frameStoppedLoading" and self.started
        ):
            self.done.set()

    async def navigation(self, conn: BrowserConnection) -> Navigation | None:
        if self.committed_url:
            title = (await _current_entry(conn))[1] if self.done.is_set() else ""
            if self.done.is_set():
                conn.remember_location(self.committed_url, title)
            return Navigation(self.committed_url, title, same_document=False, finished=self.done.is_set())
        if self.same_document_url:
            return Navigation(self.same_document_url, "", same_document=True, finished=True)
        if self.started and self.requested_url:
            return Navigation(self.requested_url, "", same_document=False, finished=False)
        return None


async def _current_entry(conn: BrowserConnection) -> tuple[str, str]:
    """The current entry's URL and title: asked of the browser, so it answers even while a
    dialog is open. While the page swaps documents (a reload a beforeunload dialog let go) the
    browser may refuse for a moment; then what the target last reported stands in."""
    try:
        history = await conn.page.send("Page.getNavigationHistory")
    except CdpCommandError:
        return conn.target_url or "", conn.target_title or ""
    entry = history["entries"][history["currentIndex"]]
    return str(entry["url"]), str(entry["title"])


def _is_favicon_noise(entry: ConsoleEntry) -> bool:
    """The browser fetches /favicon.ico on its own after a load; its 404 is nothing the action did."""
    return entry.url is not None and urlsplit(entry.url).path == "/favicon.ico"


async def page_context(conn: BrowserConnection, element: ElementHandle | None, effects: Effects) -> PageContext:
    """Where the page is after an action, and the element's state in a few words.

    The element is skipped when the page cannot answer: a dialog is open, or a navigation
    is still loading (Chrome holds page commands until the new document commits)."""
    state = ""
    navigating = effects.navigation is not None and not effects.navigation.finished
    blocked = conn.features.dialogs.open is not None or conn.features.debugger.paused is not None
    if element is not None and not navigating and not blocked:
        params = {
            "functionDeclaration": own_function(page_script("element_state")),
            "objectId": element.object_id,
            "returnByValue": True,
            "silent": True,
        }
        try:
            send = element.session.send("Runtime.callFunctionOn", params, timeout_s=CONTEXT_TIMEOUT_S)
            state = str((await conn.features.unless_blocked(send)).get("result", {}).get("value") or "")
        except (DialogOpenError, ExecutionPausedError, CdpCommandError, CdpTimeoutError):
            state = ""  # gone with a navigation, blocked by a dialog or a pause that just began, or a page too busy
    url, title = await _current_entry(conn)
    return PageContext(title=title, url=url, element_state=state)
