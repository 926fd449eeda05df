"""JavaScript dialogs (alert/confirm/prompt/beforeunload): an open one never hangs a call.

While a dialog is open the page's event loop is blocked inside ``alert()``, so every CDP
command that needs the page (Runtime.evaluate, the reply to the mouse release that opened
the dialog) goes unanswered until someone closes it. `DialogWatcher` follows
``Page.javascriptDialogOpening``/``Closed`` on the current page; `PageFeatures.unless_blocked`
races operations against a dialog opening.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from cdpilot.browser.page.page_facts import DialogInfo
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError, CdpTimeoutError, DialogOpenError, StateError

if TYPE_CHECKING:
    from cdpilot.browser.page.tab_facts import PendingClose


class DialogWatcher:
    """The dialog state of the current page session, kept current by its events."""

    def __init__(self) -> None:
        self._open: DialogInfo | None = None
        self._opened = asyncio.Event()  # replaced on every close, so set() means "open now"
        self._shut = asyncio.Event()  # replaced on every opening, so set() means "closed now"
        self._shut.set()
        self._subscriptions = Subscriptions()
        self.closing: PendingClose | None = None  # the open beforeunload dialog was raised by closing the page

    async def attach(self, session: CdpSession) -> None:
        """Start watching a page session (called for every page made current)."""
        self._closed()
        self._subscriptions.replace(
            session,
            {
                "Page.javascriptDialogOpening": self._on_opening,
                "Page.javascriptDialogClosed": lambda _: self._closed(),
            },
        )

    @property
    def open(self) -> DialogInfo | None:
        return self._open

    def raise_if_open(self) -> None:
        """DialogOpenError when a dialog is open: call before work that needs the page."""
        if self._open is not None:
            raise DialogOpenError(self._open)

    async def wait_open(self) -> None:
        """Return once a dialog is open (at once if one is)."""
        await self._opened.wait()

    async def wait_closed(self) -> None:
        """Return once no dialog is open (at once if none is)."""
        await self._shut.wait()

    async def handle(self, session: CdpSession, accept: bool, prompt_text: str | None) -> DialogInfo:
        """Accept or dismiss the open dialog; returns what it was once the page reports it closed."""
        dialog = self._open
        if dialog is None:
            raise StateError(
                "No dialog is open.",
                suggestion="Dialogs open when the page calls alert(), confirm() or prompt(), or asks to confirm "
                "leaving; trigger one with {tool:click_element}, then answer it.",
            )
        params: dict[str, object] = {"accept": accept}
        if prompt_text is not None:
            params["promptText"] = prompt_text
        with session.listen("Page.javascriptDialogClosed") as closed:
            try:
                await session.send("Page.handleJavaScriptDialog", params)
            except CdpCommandError as exc:  # closed meanwhile (navigation, the page itself)
                self._closed()
                raise StateError(
                    "The dialog had already closed.", suggestion="Carry on; {tool:browser_screenshot} shows the page."
                ) from exc
            try:
                async with asyncio.timeout(session.default_timeout_s):
                    await closed.next()
            except TimeoutError as exc:
                raise CdpTimeoutError(
                    "The page did not report the dialog closed.",
                    suggestion="Check the page with {tool:browser_screenshot}; it may be stuck.",
                ) from exc
        return dialog

    def _on_opening(self, event: CdpEvent) -> None:
        params = event.params
        self._open = DialogInfo(
            str(params.get("type", "alert")), str(params.get("message", "")), str(params.get("defaultPrompt", ""))
        )
        self._opened.set()
        if self._shut.is_set():
            self._shut = asyncio.Event()

    def _closed(self) -> None:
        self._open = None
        self.closing = None
        if self._opened.is_set():
            self._opened = asyncio.Event()
        self._shut.set()
