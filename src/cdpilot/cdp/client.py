"""The protocol client: one transport, one reader task, any number of flattened sessions.

The reader task is the only consumer of the transport. It resolves each command's future
by its ``id`` and hands each event to the session named by its ``sessionId``. When the
transport ends, or a session is detached or its target crashes, the affected commands and
waits fail at once with `BrowserConnectionError`; together with the per-command deadline
this guarantees that no caller waits forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cdpilot.cdp.events import CdpEvent, FailureFactory
from cdpilot.cdp.session import DEFAULT_COMMAND_TIMEOUT_S, CdpSession
from cdpilot.cdp.transport import TRANSPORT_FAILURES, Transport, connection_error, translating
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Pending:
    method: str
    session: CdpSession
    future: asyncio.Future[dict[str, Any]]


# What a crashed page can still do: be navigated (a new renderer revives it) or asked where
# it is (the browser answers that). Anything else would wait for a renderer that is gone.
REVIVING_METHODS = frozenset(
    {"Page.navigate", "Page.reload", "Page.navigateToHistoryEntry", "Page.getNavigationHistory", "Page.stopLoading"}
)
CRASHED_SUGGESTION = "Reload it with {tool:reload} or {tool:navigate}, or open another tab with {tool:new_target}."
DETACHED_SUGGESTION = "See the tabs with {tool:list_targets}, then {tool:switch_target} or {tool:new_target}."


def _failure(message: str, suggestion: str | None = None) -> FailureFactory:
    return lambda: BrowserConnectionError(message, suggestion=suggestion)


class CdpConnection:
    """A CDP client over one `Transport`. Create it with `open`; end it with `close`."""

    def __init__(self, transport: Transport, *, default_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S) -> None:
        self._transport = transport
        self._default_timeout_s = default_timeout_s
        self._pending: dict[int, _Pending] = {}
        self._last_id = 0
        self._closing = False
        self._ended: FailureFactory | None = None
        self.browser = CdpSession(self, None, None, default_timeout_s=default_timeout_s)
        self._sessions: dict[str | None, CdpSession] = {None: self.browser}
        self._reader: asyncio.Task[None] | None = None
        self._on_lost: list[Callable[[], None]] = []

    @classmethod
    async def open(cls, transport: Transport, *, default_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S) -> CdpConnection:
        connection = cls(transport, default_timeout_s=default_timeout_s)
        connection._reader = asyncio.create_task(connection._read_loop(), name=f"cdp-reader {transport.endpoint}")
        return connection

    @property
    def endpoint(self) -> str:
        return self._transport.endpoint

    @property
    def pending_count(self) -> int:
        """Commands sent and not answered yet (a leak check: 0 once every caller is done)."""
        return len(self._pending)

    async def drained(self, timeout_s: float) -> int:
        """Wait (at most `timeout_s`) for the pending commands to end, as each must by its
        deadline; returns how many are still pending."""
        futures = [pending.future for pending in self._pending.values()]
        if futures:
            await asyncio.wait(futures, timeout=timeout_s)
            await asyncio.sleep(0)  # let their senders run the bookkeeping after the answer
        return self.pending_count

    @property
    def closed(self) -> bool:
        return self._ended is not None

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, when the browser ends the connection (it died or closed its
        end), as it happens: not when we close it. Why: a dead browser must stop counting as
        connected before the next call finds out by failing."""
        self._on_lost.append(callback)

    def session(self, session_id: str) -> CdpSession:
        """A session the browser attached (by us or automatically); raises if it is gone."""
        session = self._sessions.get(session_id)
        if session is None:
            raise BrowserConnectionError(f"The target session {session_id} is not attached.")
        return session

    async def attach(self, target_id: str, *, timeout_s: float | None = None) -> CdpSession:
        """Attach to a target in flattened mode and return its session."""
        result = await self.browser.send(
            "Target.attachToTarget", {"targetId": target_id, "flatten": True}, timeout_s=timeout_s
        )
        return self._register(result["sessionId"], target_id)

    async def send_command(
        self, method: str, params: Mapping[str, Any] | None, *, session: CdpSession, timeout_s: float
    ) -> dict[str, Any]:
        if session.ended is not None:
            raise session.ended()
        if session.crashed and method not in REVIVING_METHODS:
            raise BrowserConnectionError("The page crashed (its renderer process died).", suggestion=CRASHED_SUGGESTION)
        self._last_id += 1
        command_id = self._last_id
        message: dict[str, Any] = {"id": command_id, "method": method, "params": dict(params or {})}
        if session.session_id is not None:
            message["sessionId"] = session.session_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = _Pending(method, session, future)
        try:
            async with asyncio.timeout(timeout_s):
                with translating(f"Cannot send {method} to the browser"):
                    await self._transport.send(json.dumps(message, separators=(",", ":")))
                return await future
        except TimeoutError as exc:
            raise CdpTimeoutError(f"{method} got no answer within {timeout_s:g} s.") from exc
        finally:
            del self._pending[command_id]
            if future.done() and not future.cancelled():
                future.exception()  # mark it consumed: the send may have failed before the await

    async def close(self) -> None:
        """Close the transport and fail whatever is still pending; idempotent."""
        self._closing = True
        with contextlib.suppress(*TRANSPORT_FAILURES):
            await self._transport.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.wait([self._reader])

    async def _read_loop(self) -> None:
        cause: BaseException | None = None
        try:
            while True:
                message = json.loads(await self._transport.receive())
                try:
                    self._route(message)
                except (KeyError, TypeError, ValueError, AttributeError):
                    # One malformed message must not stop the reader, which serves every caller.
                    _log.warning("Ignoring a malformed CDP message", exc_info=True)
        except TRANSPORT_FAILURES as exc:
            cause = exc
        finally:
            self._end(cause)

    def _route(self, message: Any) -> None:
        if not isinstance(message, dict):
            raise TypeError("a CDP message must be a JSON object")
        if "id" in message:
            self._resolve(message)
            return
        method = message.get("method")
        params = message.get("params", {})
        if not isinstance(method, str) or not isinstance(params, dict):
            raise TypeError("a CDP message must be a reply or an event")
        if method == "Target.attachedToTarget":
            self._register(params["sessionId"], params["targetInfo"]["targetId"])
        event = CdpEvent(method, params, message.get("sessionId"))
        session = self._sessions.get(event.session_id)
        if session is not None:
            session.events.dispatch(event)
        if method == "Page.frameNavigated" and session is not None and "parentId" not in params["frame"]:
            session.crashed = False  # a new document committed: the page has a live renderer again
        if method == "Target.detachedFromTarget":
            self._end_session(params["sessionId"], "The tab was closed (or detached).")
        elif method == "Inspector.targetCrashed" and session is not None:
            # Chrome sends it to the crashed page's session without Inspector.enable. (The other
            # signal, Target.targetCrashed, comes later and only with target discovery on:
            # acting on both could fail a command sent to revive the page.)
            self._interrupt(session)

    def _resolve(self, message: dict[str, Any]) -> None:
        pending = self._pending.get(message["id"])
        if pending is None or pending.future.done():
            return  # the caller gave up (deadline or cancellation); a late answer is dropped
        error = message.get("error")
        if error is None:
            pending.future.set_result(message.get("result", {}))
            return
        text = str(error.get("message", "unknown error"))
        if error.get("data"):
            text = f"{text}: {error['data']}"
        pending.future.set_exception(CdpCommandError(pending.method, int(error.get("code", 0)), text))

    def _register(self, session_id: str, target_id: str) -> CdpSession:
        session = self._sessions.get(session_id)
        if session is None:
            session = CdpSession(self, session_id, target_id, default_timeout_s=self._default_timeout_s)
            self._sessions[session_id] = session
        return session

    def _end_session(self, session_id: str, message: str) -> None:
        session = self._sessions.pop(session_id, None)
        if session is not None:
            failure = _failure(message, DETACHED_SUGGESTION)
            self._fail_pending(lambda p: p.session is session, failure)
            session.end(failure)

    def _interrupt(self, session: CdpSession) -> None:
        """The target crashed: its pending work fails, but a navigation can revive it."""
        failure = _failure("The page crashed (its renderer process died).", CRASHED_SUGGESTION)
        session.crashed = True
        self._fail_pending(lambda p: p.session is session, failure)
        session.events.fail(failure, final=False)

    def _fail_pending(self, which: Callable[[_Pending], bool], failure: FailureFactory) -> None:
        for pending in self._pending.values():
            if which(pending) and not pending.future.done():
                pending.future.set_exception(failure())

    def _end(self, cause: BaseException | None) -> None:
        failure: FailureFactory = _failure("The connection to the browser was closed.")
        if cause is not None and not self._closing:
            failure = functools.partial(connection_error, "Lost the connection to the browser", cause)
        self._ended = failure
        self._fail_pending(lambda _: True, failure)
        for session in self._sessions.values():
            session.end(failure)
        callbacks, self._on_lost = self._on_lost, []
        if not self._closing:
            for callback in callbacks:
                callback()
