"""One CDP session: the browser itself, or a page/iframe/worker attached in flattened mode.

With ``flatten: true`` every session shares the one transport and is told apart by the
``sessionId`` carried in each command and event. A session is what the
browser layer talks to: it sends commands with a deadline and offers the event API.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from cdpilot.cdp.events import CdpEvent, EventHandler, EventHub, EventPredicate, EventStream, FailureFactory

DEFAULT_COMMAND_TIMEOUT_S = 30.0


class CommandChannel(Protocol):
    """What a session needs from the connection beneath it."""

    async def send_command(
        self, method: str, params: Mapping[str, Any] | None, *, session: CdpSession, timeout_s: float
    ) -> dict[str, Any]: ...


class CdpSession:
    """Commands and events of one target (or of the browser, when `session_id` is None)."""

    def __init__(
        self,
        channel: CommandChannel,
        session_id: str | None,
        target_id: str | None,
        *,
        default_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S,
    ) -> None:
        self._channel = channel
        self.session_id = session_id
        self.target_id = target_id
        self.default_timeout_s = default_timeout_s
        self.events = EventHub()
        self._ended: FailureFactory | None = None
        self.crashed = False  # its renderer died; only a navigation revives it (see CdpConnection)

    def __repr__(self) -> str:
        return f"CdpSession(session_id={self.session_id!r}, target_id={self.target_id!r})"

    @property
    def ended(self) -> FailureFactory | None:
        """Why the session is gone (a factory of the error to raise), or None while it lives."""
        return self._ended

    def end(self, failure: FailureFactory) -> None:
        """The session is gone for good: new commands and waits fail with `failure()`."""
        if self._ended is None:
            self._ended = failure
            self.events.fail(failure, final=True)

    async def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        """Send a command and return its result.

        Raises `CdpCommandError` when the browser answers with an error, `CdpTimeoutError`
        when no answer arrives within `timeout_s` (default `default_timeout_s`), and
        `BrowserConnectionError` when the session or the transport ends first.
        """
        timeout = self.default_timeout_s if timeout_s is None else timeout_s
        return await self._channel.send_command(method, params, session=self, timeout_s=timeout)

    def on(self, method: str, handler: EventHandler) -> Callable[[], None]:
        """Call `handler` for every `method` event of this session; returns the unsubscriber."""
        return self.events.on(method, handler)

    def listen(self, *methods: str) -> EventStream:
        """Collect these events from now on: ``with session.listen("Page.loadEventFired") as ev:``."""
        return self.events.listen(*methods)

    async def wait_for_event(
        self, method: str, predicate: EventPredicate | None = None, *, timeout_s: float
    ) -> CdpEvent:
        """The first `method` event from now on that satisfies `predicate`.

        Only events that arrive after the call are seen: to wait for the effect of a command,
        open `listen` before sending it instead. Raises `CdpTimeoutError` after `timeout_s`.
        """
        return await self.events.wait_for(method, predicate, timeout_s)
