"""The ``worker_threads`` of a Node.js process, each as a `CdpSession` of its own.

Node.js does not flatten its workers' sessions into one transport as Chrome does: a worker is
reached through its process's ``NodeWorker`` domain, which wraps each protocol message of the
worker in ``NodeWorker.sendMessageToWorker`` and hands back its answers and events in
``NodeWorker.receivedMessageFromWorker``. `NodeWorkers` unwraps them, so the features that work
on a process's session (console, debugger) work on a worker's unchanged.

With ``waitForDebuggerOnStart`` a new worker waits before its first line until its session
has been set up and told ``Runtime.runIfWaitingForDebugger``: a breakpoint set on the process
binds in the worker's code before it runs.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from cdpilot.cdp.events import CdpEvent, Subscriptions
from cdpilot.cdp.session import CdpSession
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

_log = logging.getLogger(__name__)
WorkerAttached = Callable[[CdpSession, Mapping[str, Any]], Awaitable[None]]


class NodeWorkers:
    """The worker sessions of one Node.js process session, attached as the workers start."""

    def __init__(self, parent: CdpSession, on_attached: WorkerAttached) -> None:
        self._parent = parent
        self._on_attached = on_attached
        self._sessions: dict[str, CdpSession] = {}
        self._pending: dict[int, tuple[str, CdpSession, asyncio.Future[dict[str, Any]]]] = {}
        self._last_id = 0
        self._subscriptions = Subscriptions()
        self._setups: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._subscriptions.add(
            self._parent,
            {
                "NodeWorker.attachedToWorker": self._on_attached_event,
                "NodeWorker.receivedMessageFromWorker": self._on_message,
                "NodeWorker.detachedFromWorker": self._on_detached,
            },
        )
        await self._parent.send("NodeWorker.enable", {"waitForDebuggerOnStart": True})

    def stop(self) -> None:
        self._subscriptions.clear()
        for session_id in list(self._sessions):
            self._end(session_id, "The worker's process ended.")

    async def send_command(
        self, method: str, params: Mapping[str, Any] | None, *, session: CdpSession, timeout_s: float
    ) -> dict[str, Any]:
        """`CommandChannel` for the worker sessions: one command, wrapped for the worker."""
        if session.ended is not None:
            raise session.ended()
        self._last_id += 1
        command_id = self._last_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = (method, session, future)
        message = json.dumps({"id": command_id, "method": method, "params": dict(params or {})})
        try:
            async with asyncio.timeout(timeout_s):
                await self._parent.send(
                    "NodeWorker.sendMessageToWorker", {"sessionId": session.session_id, "message": message}
                )
                return await future
        except TimeoutError as exc:
            raise CdpTimeoutError(f"{method} got no answer from the worker within {timeout_s:g} s.") from exc
        finally:
            del self._pending[command_id]
            if future.done() and not future.cancelled():
                future.exception()  # consumed: the wrapping send may have failed before the await

    def _on_attached_event(self, event: CdpEvent) -> None:
        session_id = str(event.params["sessionId"])
        info = event.params.get("workerInfo") or {}
        # No target id: a worker's debugger keeps the settings its family gave it, under no target's name.
        session = CdpSession(self, session_id, None)
        self._sessions[session_id] = session
        task = asyncio.ensure_future(self._on_attached(session, info))
        self._setups.add(task)
        task.add_done_callback(self._set_up)

    def _set_up(self, task: asyncio.Task[None]) -> None:
        """A worker's set-up ended: a failure is logged (the worker runs on undebugged)."""
        self._setups.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.warning("A worker could not be set up", exc_info=task.exception())

    def _on_message(self, event: CdpEvent) -> None:
        session = self._sessions.get(str(event.params.get("sessionId")))
        message = json.loads(str(event.params.get("message", "{}")))
        if session is None or not isinstance(message, dict):
            return
        if "id" in message:
            pending = self._pending.get(int(message["id"]))
            if pending is None or pending[2].done():
                return
            method, _, future = pending
            error = message.get("error")
            if error is None:
                future.set_result(message.get("result", {}))
            else:
                future.set_exception(CdpCommandError(method, int(error.get("code", 0)), str(error.get("message"))))
            return
        params = message.get("params", {})
        session.events.dispatch(CdpEvent(str(message.get("method")), params if isinstance(params, dict) else {}, None))

    def _on_detached(self, event: CdpEvent) -> None:
        self._end(str(event.params.get("sessionId")), "The worker ended.")

    def _end(self, session_id: str, message: str) -> None:
        session = self._sessions.pop(session_id, None)
        if session is None:
            return
        session.end(lambda: BrowserConnectionError(message))
        for method, owner, future in self._pending.values():
            if owner is session and not future.done():
                future.set_exception(BrowserConnectionError(f"{message} ({method} got no answer)"))
