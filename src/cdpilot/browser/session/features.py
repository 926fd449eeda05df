"""Per-page collectors that must see events from the moment a page becomes current, and
the one race that keeps a blocked page from hanging a call.

Console messages, network requests, dialogs and debugger pauses cannot be fetched after
the fact, so `BrowserConnection` attaches every feature to each page session it makes
current; console and network also to the page's out-of-process frames and workers
(`ChildTargets`).

Two things stop a page from answering commands that need its main thread: an open
alert/confirm/prompt (the thread is inside ``alert()``) and a debugger pause (it runs only
the debugger's own loop). `PageFeatures.unless_blocked` races an operation against both:
the caller gets a prompt `DialogOpenError` or `ExecutionPausedError` while the stalled
command finishes in the background under its own deadline, its result ignored. A pause
that was already in place when the operation started does not count: reading the DOM,
evaluating and screenshots work while paused; what needs the page running checks
`raise_if_blocked` first (input is refused before its element is even looked for). A read
that finds nothing while paused is no news about the page, whose script stopped before it
may have made what was sought: `raise_if_paused` then answers with the pause instead
(`PausedPageError`: where it stopped, and to resume first).

Each page session also intercepts file choosers, so that one never stays open unseen.

A page's debugger is made on first use (`PageFeatures.debugger`), not with the page: its
modules (breakpoints, source maps, sources, stepping) are a fifth of what a first navigate
imports, and until something turns it on (``Debugger.enable``, sent by the debugger only) no
pause can reach this session, so a debugger never made has nothing to report.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from cdpilot.browser.observe.child_targets import ChildTargets
from cdpilot.browser.observe.console import ConsoleLog
from cdpilot.browser.observe.network import NetworkLog
from cdpilot.browser.page.dialogs import DialogWatcher
from cdpilot.cdp import CdpConnection, CdpSession
from cdpilot.errors import CdpCommandError, DialogOpenError, PausedPageError, StateError

if TYPE_CHECKING:
    from cdpilot.browser.debugger.debugger_facts import Pause
    from cdpilot.browser.debugger.page_debugger import PageDebugger

T = TypeVar("T")
F = TypeVar("F")


def page_debugger() -> PageDebugger:
    """A page's debugger, its modules imported the first time one is made."""
    from cdpilot.browser.debugger.page_debugger import PageDebugger

    return PageDebugger()


@dataclass
class PageFeatures:
    console: ConsoleLog = field(default_factory=ConsoleLog)
    network: NetworkLog = field(default_factory=NetworkLog)
    dialogs: DialogWatcher = field(default_factory=DialogWatcher)
    children: ChildTargets = field(default_factory=ChildTargets)  # out-of-process frames, workers
    new_debugger: Callable[[], PageDebugger] = page_debugger  # how `debugger` is made, on first use
    _debugger: PageDebugger | None = field(default=None, init=False)
    _debugger_made: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _session: CdpSession | None = field(default=None, init=False)  # the page session attached last
    _stalled: set[asyncio.Future[Any]] = field(default_factory=set)  # commands that outlived their caller

    @property
    def debugger(self) -> PageDebugger:
        """The debugger, made now if it is not yet (see the module's docstring), following the
        page session attached last."""
        if self._debugger is None:
            self._debugger = self.new_debugger()
            if self._session is not None:
                self._debugger.follow(self._session)
            self._debugger_made.set()
        return self._debugger

    @property
    def pause(self) -> Pause | None:
        """Where the debugger paused, if it did; asks no debugger into being."""
        return None if self._debugger is None else self._debugger.paused

    def get(self, kind: type[F]) -> F:
        """The collector of this kind (`browser.target.TargetFeatures`: what feature modules type against)."""
        for feature in (self.console, self.network, self.dialogs, self.children):
            if isinstance(feature, kind):
                return feature
        if isinstance(self.debugger, kind):
            return self.debugger
        raise StateError(f"This target has no {kind.__name__}.")

    async def attach(self, cdp: CdpConnection, session: CdpSession) -> None:
        # Together, not one round trip after another; the children last, after each collector
        # has started afresh on this page (before its first await), as they add each child's
        # subscriptions to it.
        self._session = session
        await asyncio.gather(
            self.console.attach(session),
            self.network.attach(session),
            self.dialogs.attach(session),
            *([] if self._debugger is None else [self._debugger.attach(session)]),
            _intercept_file_choosers(session),
            self.children.attach(cdp, session, self._collect_from_child),
        )

    async def _collect_from_child(self, child: CdpSession) -> None:
        await asyncio.gather(self.console.attach_child(child), self.network.attach_child(child))

    def raise_if_blocked(self, consequence: str = "") -> None:
        """For work that needs the page's main thread running: a StateError if it is not;
        `consequence` says what a pause means for the call."""
        self.dialogs.raise_if_open()
        self.raise_if_paused(consequence)

    def raise_if_paused(self, consequence: str = "") -> None:
        """While the page is paused, the pause instead of an answer that depends on the page
        running (an element not found yet): `consequence` says what the answer would have been."""
        pause = self.pause
        if pause is not None:
            raise PausedPageError(pause, consequence)

    async def unless_blocked(self, operation: Awaitable[T], *, pause_blocks: bool = True) -> T:
        """Run `operation`; if a dialog is (or becomes) open, or execution pauses in the
        meantime, stop waiting and raise the StateError that says so and what to do.

        `pause_blocks=False` is for an operation that ends any pause itself (turning the
        debugger off): a pause that begins while it runs is one it resumes, not a refusal."""
        pauses_before = self._pause_count() if pause_blocks else None
        if self.dialogs.open is not None:
            _discard(operation)
            raise DialogOpenError(self.dialogs.open)
        task = asyncio.ensure_future(operation)
        try:
            while not task.done():
                blocked = self._blocker(pauses_before)
                if blocked is not None:
                    self._let_finish(task)
                    raise blocked
                watches: set[asyncio.Future[Any]] = {asyncio.ensure_future(self.dialogs.wait_open())}
                if pauses_before is not None:
                    watches.add(asyncio.ensure_future(self._wait_pause(pauses_before)))
                try:
                    await asyncio.wait({task, *watches}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for watch in watches:
                        watch.cancel()
        except asyncio.CancelledError:
            task.cancel()
            raise
        return task.result()

    def finish_later(self, operation: Awaitable[object]) -> None:
        """Send `operation` now and let it finish in the background, its outcome dropped: a
        clean-up command (a mouse button released) that a blocked page answers once it runs again."""
        self._let_finish(asyncio.ensure_future(operation))

    def _blocker(self, pauses_before: int | None) -> StateError | None:
        if self.dialogs.open is not None:
            return DialogOpenError(self.dialogs.open)
        if pauses_before is None or self._debugger is None:
            return None
        return self._debugger.pause_blocking(pauses_before)

    def _pause_count(self) -> int:
        return 0 if self._debugger is None else self._debugger.pause_count

    async def _wait_pause(self, since: int) -> Pause:
        """The first pause numbered after `since`, of a debugger made meanwhile too."""
        await self._debugger_made.wait()
        return await self.debugger.wait_pause(since)

    def _let_finish(self, task: asyncio.Future[Any]) -> None:
        """Keep a stalled command alive until its reply or its deadline; its outcome is dropped
        (its caller has moved on: a late failure, deadline or page gone, is nobody's)."""
        self._stalled.add(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Future[Any]) -> None:
        self._stalled.discard(task)
        if not task.cancelled():
            task.exception()


async def _intercept_file_choosers(session: CdpSession) -> None:
    """Cancel every file chooser the page opens and report it (``Page.fileChooserOpened``):
    a chooser nobody can see would otherwise stay open, and an action could not say it opened.
    A browser without the command (an old or embedded one) goes on unintercepted."""
    with contextlib.suppress(CdpCommandError):
        await session.send("Page.setInterceptFileChooserDialog", {"enabled": True, "cancel": True})


def _discard(operation: Awaitable[object]) -> None:
    """An operation that will not run: close it, so no 'never awaited' warning is raised."""
    if inspect.iscoroutine(operation):
        operation.close()
    elif isinstance(operation, asyncio.Future):
        operation.cancel()
