"""The current page's out-of-process iframes and workers, whose console and requests reach
sessions of their own.

With site isolation a cross-site iframe runs in a renderer of its own: it is a target of its
own, and what it logs or fetches is reported to its session, never to the page's. The same
holds for the page's dedicated workers. Auto-attach (``Target.setAutoAttach``, flattened)
gives a session for each as it appears, held before it runs its first script
(``waitForDebuggerOnStart``) until the collectors are on it, so nothing it does is missed.
A cross-site frame inside such a frame is attached the same way from that frame's session.

A target must never stay held: however setting it up ends (the frame already gone, a domain
it lacks), it is told to run. Once running, an iframe's session is kept with the session it
was attached from (its parent's), for the element tools to search and act in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from cdpilot.cdp import CdpConnection, CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}
SETUP_TIMEOUT_S = 5.0  # a frame's renderer answers in milliseconds unless it is stuck
GONE_OR_UNSUPPORTED = (CdpCommandError, CdpTimeoutError, BrowserConnectionError)

ChildCollector = Callable[[CdpSession], Awaitable[None]]
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FrameTarget:
    """An out-of-process iframe: its frame id (its target id too), its session, and the session
    of the document that holds its iframe element."""

    frame_id: str
    parent: CdpSession
    session: CdpSession


class ChildTargets:
    """Attaches `collect` to every out-of-process frame and worker of the current page."""

    def __init__(self) -> None:
        self._subscriptions = Subscriptions()
        self._setting_up: set[asyncio.Task[None]] = set()
        self._frames: dict[str, FrameTarget] = {}
        self._frame_added = asyncio.Event()  # set, and replaced, as each iframe is ready

    async def attach(self, cdp: CdpConnection, page: CdpSession, collect: ChildCollector) -> None:
        """Start on a page made current (the previous page's children went with its session)."""
        self._subscriptions.clear()
        self._frames.clear()
        await self._auto_attach(cdp, page, collect)

    def frames_in(self, parent: CdpSession) -> list[FrameTarget]:
        """The running out-of-process iframes whose iframe elements are in `parent`'s documents."""
        for frame_id in [k for k, frame in self._frames.items() if frame.session.ended is not None]:
            del self._frames[frame_id]
        return [frame for frame in self._frames.values() if frame.parent is parent]

    async def frame_added(self) -> None:
        """Return once the next out-of-process iframe is ready to search."""
        await self._frame_added.wait()

    async def _auto_attach(self, cdp: CdpConnection, parent: CdpSession, collect: ChildCollector) -> None:
        def on_attached(event: CdpEvent) -> None:
            task = asyncio.ensure_future(self._set_up(cdp, parent, event.params, collect))
            self._setting_up.add(task)
            task.add_done_callback(self._setting_up.discard)

        self._subscriptions.add(parent, {"Target.attachedToTarget": on_attached})
        await parent.send("Target.setAutoAttach", AUTO_ATTACH, timeout_s=SETUP_TIMEOUT_S)

    async def _set_up(
        self, cdp: CdpConnection, parent: CdpSession, params: dict[str, Any], collect: ChildCollector
    ) -> None:
        try:
            child = cdp.session(params["sessionId"])
        except BrowserConnectionError:
            return  # detached before we got to it
        try:
            steps = [collect(child)]
            if params["targetInfo"].get("type") == "iframe":
                steps.append(self._auto_attach(cdp, child, collect))
            async with asyncio.timeout(SETUP_TIMEOUT_S):
                await asyncio.gather(*steps)
        except (*GONE_OR_UNSUPPORTED, TimeoutError) as exc:
            _log.debug("Child target %s only partly observed: %s", child.target_id, exc)
        finally:
            with contextlib.suppress(*GONE_OR_UNSUPPORTED):
                await child.send("Runtime.runIfWaitingForDebugger", timeout_s=SETUP_TIMEOUT_S)
            if params["targetInfo"].get("type") == "iframe" and child.ended is None:
                frame_id = str(params["targetInfo"]["targetId"])
                self._frames[frame_id] = FrameTarget(frame_id, parent, child)
                self._frame_added.set()
                self._frame_added = asyncio.Event()
