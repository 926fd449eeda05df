"""What a feature module needs of the target it works on: the seam between the feature packages
and `session/`, which builds connections and wires their features.

A feature (evaluating, reading the DOM, a pause snapshot, the page's performance entries) asks
its `Target` for the protocol sessions it talks to and for the collectors attached to it
(`TargetFeatures`): it never sees how the target was launched, attached or shared. This module
imports nothing of the feature packages, so every one of them can type against it.

Not every target is a page. A Node.js process (``node --inspect``) or a worker has `Runtime`,
`Debugger` and a console, but no `Page` and no DOM: its `page_session` is None, and a feature
that needs a page asks for it with `page_of`, which says so clearly (`NoPageError`). The
browser connection (`session/browser_connection.BrowserConnection`) is the first target; its
session is its current page's.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeVar

from cdpilot.cdp import CdpSession
from cdpilot.errors import NoPageError

F = TypeVar("F")
T = TypeVar("T")


class TargetFeatures(Protocol):
    """The collectors attached to a target from its first moment, and the race that keeps a
    blocked target (an open dialog, a debugger pause) from hanging a call."""

    def get(self, kind: type[F]) -> F:
        """The target's feature of this kind (its `ConsoleLog`, its `PageDebugger`); a StateError
        when the target has none (a Node.js target has no `DialogWatcher`)."""
        ...

    async def unless_blocked(self, operation: Awaitable[T], *, pause_blocks: bool = True) -> T:
        """`operation`'s result, unless the target blocks (a dialog opens, execution pauses)
        first: then the StateError that says so, while the operation finishes in the background."""
        ...

    def raise_if_blocked(self, consequence: str = "") -> None:
        """For work that needs the target's main thread running: a StateError if it is not."""
        ...

    def raise_if_paused(self, consequence: str = "") -> None:
        """While paused, the pause (`PausedPageError`) instead of an answer that needs the target running."""
        ...

    def finish_later(self, operation: Awaitable[object]) -> None:
        """Send `operation` now and let it finish in the background, its outcome dropped."""
        ...


class Target(Protocol):
    """One target a feature works on: a browser tab, or a target without a page."""

    @property
    def session(self) -> CdpSession:
        """The target's own session: `Runtime`, `Debugger`, the console. Every target has one
        (a page's is its page session)."""
        ...

    @property
    def page_session(self) -> CdpSession | None:
        """The session of the page to navigate, read and act on; None for a target without a
        page. Ask for it with `page_of`."""
        ...

    @property
    def features(self) -> TargetFeatures: ...

    @property
    def pause_owner(self) -> str | None:
        """Which of the target's processes or threads the current pause is in, for a target of
        several (a Node.js program and its workers); None for a page."""
        ...

    def pause_shown(self, pause: object) -> None:
        """An answer showed `pause` (a `Pause` of the current thread): it is no news any more."""
        ...


def page_of(target: Target) -> CdpSession:
    """`target`'s page session, for work that needs a page (the DOM, navigation, input,
    screenshots); `NoPageError` for a target without one."""
    page = target.page_session
    if page is None:
        raise NoPageError()
    return page
