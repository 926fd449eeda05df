"""What an action causes outside its own page: a tab or popup it opens, a file chooser.

Neither shows in the page the action went to, so without a word from us the agent would
not know: a new tab appears only in ``list_targets``, and a file chooser would sit where
nobody can see it. `OutsideWatch` listens while the action's effects are gathered:

- ``Target.targetCreated`` on the browser session, for pages whose opener is the current
  page. A popup is often created at ``about:blank`` and told its URL a moment later, so
  its URL is awaited briefly (``Target.targetInfoChanged``) before it is listed.
- ``Page.fileChooserOpened`` on the page session: every page session intercepts choosers
  (`PageFeatures.attach`), which cancels them, so none is left open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import TracebackType
from typing import Any

from cdpilot.browser.dom.element_facts import FileChooser, OpenedPage
from cdpilot.browser.page.tabs import list_targets
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpEvent, EventStream
from cdpilot.errors import CdpCommandError, CdpTimeoutError

NEW_PAGE_URL_WAIT_S = 2.0  # a popup names its URL within a task or two; a deliberate about:blank waits this long
BLANK_URLS = ("", "about:blank")


class OutsideWatch:
    """Collects, inside its ``with`` block, the pages the current page opens and its file choosers."""

    def __init__(self, conn: BrowserConnection) -> None:
        self._conn = conn
        self._opener = conn.page.target_id
        self._created: list[str] = []
        self._chooser: dict[str, Any] | None = None
        # Listened to from the start, so no URL reported before we look at a new page is missed.
        self._info_changes = conn.cdp.browser.listen("Target.targetInfoChanged")
        self._unsubscribe: list[Callable[[], None]] = []

    def __enter__(self) -> OutsideWatch:
        self._info_changes.__enter__()
        self._unsubscribe = [
            self._conn.cdp.browser.on("Target.targetCreated", self._on_target_created),
            self._conn.page.on("Page.fileChooserOpened", self._on_file_chooser),
        ]
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for stop in self._unsubscribe:
            stop()
        self._info_changes.__exit__(exc_type, exc, tb)

    def _on_target_created(self, event: CdpEvent) -> None:
        info = event.params["targetInfo"]
        if info["type"] == "page" and info.get("openerId") == self._opener:
            self._created.append(str(info["targetId"]))

    def _on_file_chooser(self, event: CdpEvent) -> None:
        self._chooser = event.params

    async def opened_pages(self) -> list[OpenedPage]:
        """The pages opened so far, numbered as `list_targets` numbers them."""
        if not self._created:
            return []
        urls = await _known_urls(self._conn, self._created)
        blank = {t for t, url in urls.items() if url in BLANK_URLS}
        if blank:
            try:
                async with asyncio.timeout(NEW_PAGE_URL_WAIT_S):
                    await _await_urls(self._info_changes, blank, urls)
            except TimeoutError:
                pass  # still blank: it was opened so (window.open() with no URL) or is slow to say
        entries = {e.target_id: e for e in await list_targets(self._conn)}
        opened = []
        for target_id in self._created:
            entry = entries.get(target_id)
            if entry is None:
                opened.append(OpenedPage(None, "", urls.get(target_id, "")))
            else:  # the listing is older than a URL the events told us about
                url = entry.url if entry.url not in BLANK_URLS else urls.get(target_id, entry.url)
                opened.append(OpenedPage(entry.index, entry.title, url))
        return opened

    async def file_chooser(self) -> FileChooser | None:
        """The file chooser the page opened, if it did, with the input it is for."""
        if self._chooser is None:
            return None
        multiple = self._chooser.get("mode") == "selectMultiple"
        node_id = self._chooser.get("backendNodeId")
        element = await _describe(self._conn, int(node_id)) if node_id is not None else ""
        return FileChooser(element, multiple)


async def _known_urls(conn: BrowserConnection, target_ids: list[str]) -> dict[str, str]:
    urls = {}
    for target_id in target_ids:
        try:
            info = await conn.cdp.browser.send("Target.getTargetInfo", {"targetId": target_id})
        except CdpCommandError:  # closed already
            continue
        urls[target_id] = str(info["targetInfo"]["url"])
    return urls


async def _await_urls(changes: EventStream, waiting: set[str], urls: dict[str, str]) -> None:
    """Update `urls` from info changes until none of `waiting` is blank any more."""
    while waiting:
        info = (await changes.next()).params["targetInfo"]
        target_id, url = str(info["targetId"]), str(info["url"])
        if target_id in waiting and url not in BLANK_URLS:
            urls[target_id] = url
            waiting.discard(target_id)


async def _describe(conn: BrowserConnection, backend_node_id: int) -> str:
    """``input#avatar``, ``input[name="photo"]`` or ``input[type=file]``: how the answer names the input.

    Asked of the main page's session: an input in an out-of-process frame is not found
    there, and the answer then names no element."""
    try:
        reply = await conn.page.send("DOM.describeNode", {"backendNodeId": backend_node_id}, timeout_s=2.0)
    except (CdpCommandError, CdpTimeoutError):
        return ""
    node = reply["node"]
    raw = node.get("attributes", [])
    attributes = dict(zip(raw[0::2], raw[1::2], strict=True))
    tag = str(node.get("localName") or "input")
    if attributes.get("id"):
        return f"{tag}#{attributes['id']}"
    if attributes.get("name"):
        return f'{tag}[name="{attributes["name"]}"]'
    return f"{tag}[type=file]"
