"""Events from the browser, delivered to whoever asked, so nothing has to poll or sleep.

Two ways to listen, both per session:

- `EventHub.on` registers a callback for the lifetime of a feature (keeping a target's
  title fresh, collecting console messages). Callbacks run on the reader task: they must
  be quick and must not block.
- `EventHub.listen` opens an `EventStream`, a queue that collects events from the moment
  it is opened. Open it BEFORE triggering what you wait for (a navigation, a click) and
  the event cannot slip past. The stream unregisters itself when its ``with`` block ends,
  whether the wait succeeded, timed out or was cancelled, so waits never leak.

When the session dies (detached, crashed, transport closed), every open stream ends with a
`BrowserConnectionError`, so no wait outlives the browser.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from cdpilot.errors import BrowserConnectionError, CdpTimeoutError

_log = logging.getLogger(__name__)

FailureFactory = Callable[[], BrowserConnectionError]


@dataclass(frozen=True)
class CdpEvent:
    """One event as the browser sent it."""

    method: str
    params: dict[str, Any]
    session_id: str | None


EventHandler = Callable[[CdpEvent], None]
EventPredicate = Callable[[CdpEvent], bool]


class EventStream:
    """Events of the given methods, in arrival order, from the time the stream was entered."""

    def __init__(self, hub: EventHub, methods: frozenset[str]) -> None:
        self._hub = hub
        self.methods = methods
        self._queue: asyncio.Queue[CdpEvent | None] = asyncio.Queue()
        self._failure: FailureFactory | None = None

    def __enter__(self) -> EventStream:
        self._hub.add_stream(self)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._hub.remove_stream(self)

    def put(self, event: CdpEvent) -> None:
        self._queue.put_nowait(event)

    def fail(self, failure: FailureFactory) -> None:
        """End the stream: events already queued are still delivered, then `failure()` is raised."""
        if self._failure is None:
            self._failure = failure
            self._queue.put_nowait(None)

    async def next(self) -> CdpEvent:
        """The next event; waits as long as it takes (bound it with ``asyncio.timeout``)."""
        if self._failure is not None and self._queue.empty():
            raise self._failure()
        event = await self._queue.get()
        if event is None:
            assert self._failure is not None
            raise self._failure()
        return event

    async def first(self, predicate: EventPredicate | None = None) -> CdpEvent:
        """The next event that satisfies `predicate`; the ones before it are dropped."""
        while True:
            event = await self.next()
            if predicate is None or predicate(event):
                return event


class EventHub:
    """Subscribers of one session: callbacks by method, and open streams."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[EventHandler]] = {}
        self._streams: set[EventStream] = set()
        self._failure: FailureFactory | None = None

    @property
    def subscriber_count(self) -> int:
        """Registered callbacks plus open streams: lets tests prove that nothing leaks."""
        return sum(len(handlers) for handlers in self._handlers.values()) + len(self._streams)

    def on(self, method: str, handler: EventHandler) -> Callable[[], None]:
        """Call `handler` for every `method` event; returns the function that unsubscribes."""
        self._handlers.setdefault(method, []).append(handler)

        def unsubscribe() -> None:
            handlers = self._handlers.get(method, [])
            if handler in handlers:
                handlers.remove(handler)
            if not handlers:
                self._handlers.pop(method, None)

        return unsubscribe

    def listen(self, *methods: str) -> EventStream:
        """A stream of these methods' events; use it as ``with hub.listen(...) as events:``."""
        return EventStream(self, frozenset(methods))

    def add_stream(self, stream: EventStream) -> None:
        self._streams.add(stream)
        if self._failure is not None:
            stream.fail(self._failure)

    def remove_stream(self, stream: EventStream) -> None:
        self._streams.discard(stream)

    async def wait_for(self, method: str, predicate: EventPredicate | None, timeout_s: float) -> CdpEvent:
        """The first `method` event from now on that satisfies `predicate`, within `timeout_s`."""
        with self.listen(method) as events:
            try:
                async with asyncio.timeout(timeout_s):
                    return await events.first(predicate)
            except TimeoutError as exc:
                raise CdpTimeoutError(f"No {method} event arrived within {timeout_s:g} s.") from exc

    def dispatch(self, event: CdpEvent) -> None:
        for handler in tuple(self._handlers.get(event.method, ())):
            try:
                handler(event)
            except Exception:
                # A faulty subscriber must not stop the reader, which serves every caller.
                _log.exception("Event handler for %s failed", event.method)
        for stream in tuple(self._streams):
            if event.method in stream.methods:
                stream.put(event)

    def fail(self, failure: FailureFactory, *, final: bool) -> None:
        """End every open stream with `failure()`. `final`: the session is gone for good, so
        streams opened later fail at once; otherwise (a crashed page, which a navigation can
        revive) only the waits in progress end."""
        if final:
            self._failure = failure
        for stream in tuple(self._streams):
            stream.fail(failure)


class EventSource(Protocol):
    def on(self, method: str, handler: EventHandler) -> Callable[[], None]: ...


class Subscriptions:
    """The event handlers one collector holds on the sessions it follows.

    A collector (console, network, dialogs, debugger, child targets) subscribes when a page
    becomes current, adds the page's children as they come, and drops everything at once when
    the next page takes over: `replace` starts afresh on a session, `add` keeps what is held."""

    def __init__(self) -> None:
        self._stops: list[Callable[[], None]] = []

    def replace(self, source: EventSource, handlers: Mapping[str, EventHandler]) -> None:
        self.clear()
        self.add(source, handlers)

    def add(self, source: EventSource, handlers: Mapping[str, EventHandler]) -> None:
        self._stops += [source.on(method, handler) for method, handler in handlers.items()]

    def clear(self) -> None:
        stops, self._stops = self._stops, []
        for stop in stops:
            stop()
