"""One browser we drive: its CDP connection, the page we talk to, and (if launched) its process.

`ConnectionManager` (manager.py) keeps many of these; handlers reach one through
`ConnectionManager.get` and talk to its `page` session. Each one enforces the origin lists
and its request routes in its browser (`RequestInterceptor`) from before its first page is
attached.

A connection may also be one browser context of a browser that others share (`SharedBrowser`):
it then sees, opens and closes only its context's tabs (`owns`, `open_page`), its cookies and
permissions are its context's (`context_scope`), and letting go disposes of the context,
not the browser.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cdpilot.browser.emulation.page_emulation import TabEmulations
from cdpilot.browser.observe.network import NetworkLog
from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.connection_facts import ConnectionKind
from cdpilot.browser.session.downloads import Downloads
from cdpilot.browser.session.features import PageFeatures
from cdpilot.browser.session.frame_owners import FrameOwners
from cdpilot.browser.session.launcher import LaunchedBrowser
from cdpilot.browser.session.request_interceptor import RequestInterceptor
from cdpilot.cdp import CdpConnection, CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError

FIT_WAIT_S = 2.0  # a fitted window's size reaches the page within this, even on a loaded machine
# Between two looks at the page's size: it usually lands within a few ms of the browser's
# answer, and a look is one round trip, so a coarse interval would only add to a launch.
FIT_CHECK_INTERVAL_S = 0.005


@dataclass(frozen=True)
class ContextLease:
    """A connection's browser context in a shared browser, and how to give it back."""

    context_id: str
    frames: FrameOwners  # the shared browser's: this connection adds the frames of its pages
    pid: int | None  # the shared browser's process
    release: Callable[[], Awaitable[None]]  # disposes of the context (and its tabs)


class BrowserConnection:
    """A live browser (or one context of a shared one): version, current page target, and how
    to let go of it."""

    def __init__(
        self,
        connection_id: str,
        kind: ConnectionKind,
        cdp: CdpConnection,
        version: Mapping[str, Any],
        process: LaunchedBrowser | None,
        interceptor: RequestInterceptor,
        output_dir: Path | None,
        lease: ContextLease | None = None,
    ) -> None:
        self.id = connection_id
        self.kind = kind
        self.cdp = cdp
        self.version = version
        self.product = str(version.get("product", "unknown"))
        self.protocol_version = str(version.get("protocolVersion", "unknown"))
        self.process = process
        self.lease = lease
        self.target_url: str | None = None
        self.target_title: str | None = None
        self.viewport: tuple[int, int] | None = None  # the page size a launched browser's windows get
        self._page: CdpSession | None = None
        self.interceptor = interceptor
        self.routes = interceptor.routes(self.browser_context_id)
        self.downloads = Downloads(output_dir)
        self.features = PageFeatures(network=NetworkLog(intercepted=self.interceptor.outcome_of))
        self.emulation = TabEmulations(self.browser_context_id)  # every tab's overrides, put back on attach
        self.page_order: list[str] = []  # page target ids in first-seen order: stable tab indexes
        self.openers: dict[str, str] = {}  # a popup's target id -> the page that opened it (to go back to)
        self._page_frames = Subscriptions()  # a leased context's: the frames of its current page
        self._subscriptions = Subscriptions()
        self._subscriptions.add(
            cdp.browser,
            {
                "Target.targetInfoChanged": self._on_target_info,
                "Target.targetCreated": self._on_target_created,
                "Target.targetDestroyed": lambda event: self.forget_page(event.params["targetId"]),
            },
        )

    @classmethod
    async def start(
        cls,
        connection_id: str,
        kind: ConnectionKind,
        cdp: CdpConnection,
        *,
        process: LaunchedBrowser | None,
        timeout_s: float,
        origins: OriginPolicy,
        output_dir: Path | None = None,
        frames: FrameOwners | None = None,
    ) -> BrowserConnection:
        """Check the browser answers (within `timeout_s`), start enforcing `origins` and
        following downloads (into `output_dir`), then attach to its first page.

        `frames`: given for a browser that will be shared; the interceptor then routes each
        request by its frame's context, and this connection keeps the default context's
        downloads only."""
        version = await cdp.browser.send("Browser.getVersion", timeout_s=timeout_s)
        interceptor = RequestInterceptor(origins, owner_of=None if frames is None else frames.owner)
        connection = cls(connection_id, kind, cdp, version, process, interceptor, output_dir)
        staging = None if process is None else downloads_dir(process, "default")
        owns_frame = None if frames is None else (lambda frame_id: frames.owner(frame_id) is None)
        if frames is not None:
            frames.follow(cdp.browser)
        # Sent together, not one round trip after another (a launch waits for them): the
        # browser handles one session's commands in order, so all are in before the page the
        # last one finds (or makes) is attached.
        *_, first_page = await asyncio.gather(
            interceptor.start(cdp.browser),
            connection.downloads.start(cdp.browser, staging, owns_frame=owns_frame),
            cdp.browser.send("Target.setDiscoverTargets", {"discover": True}),  # replays targetCreated
            connection._first_page_target(),
        )
        await connection.use_target(first_page)
        return connection

    @classmethod
    async def open_in_context(
        cls, connection_id: str, host: BrowserConnection, lease: ContextLease, url: str, output_dir: Path | None
    ) -> BrowserConnection:
        """A connection to the context `lease` holds in `host`'s browser, on a new tab at `url`."""
        connection = cls(connection_id, "context", host.cdp, host.version, None, host.interceptor, output_dir, lease)
        staging = None if host.process is None else downloads_dir(host.process, lease.context_id)
        context_id, frames = lease.context_id, lease.frames
        try:
            await connection.downloads.start(
                host.cdp.browser,
                staging,
                scope=connection.context_scope,
                owns_frame=lambda frame_id: frames.owner(frame_id) == context_id,
            )
            await connection.use_target(await connection.open_page(url))
        except BaseException:
            connection._stop_listening()  # on a browser that goes on
            raise
        return connection

    @property
    def browser_context_id(self) -> str | None:
        """The context this connection is confined to; None: the whole browser is its."""
        return None if self.lease is None else self.lease.context_id

    @property
    def context_scope(self) -> dict[str, str]:
        """The parameter that confines a browser-wide command (cookies, permissions, new tabs)
        to this connection's context; empty for a whole browser."""
        return {} if self.lease is None else {"browserContextId": self.lease.context_id}

    @property
    def alive(self) -> bool:
        return not self.cdp.closed

    @property
    def endpoint(self) -> str:
        return self.cdp.endpoint

    @property
    def session(self) -> CdpSession:
        """The target's own session (`browser.target.Target`): a browser connection's is its page's."""
        return self.page

    @property
    def page_session(self) -> CdpSession | None:
        """The current page's session (`browser.target.Target`); one is attached before the
        connection is handed out."""
        return self._page

    @property
    def pause_owner(self) -> str | None:
        return None  # one page: its pauses need no owner named

    def pause_shown(self, pause: object) -> None:
        """Nothing to remember: a page's pauses come from the calls that made them."""

    @property
    def page(self) -> CdpSession:
        """The session of the page that navigation and page tools act on."""
        assert self._page is not None, "start() attaches a page before the connection is handed out"
        return self._page

    def owns(self, target_info: Mapping[str, Any]) -> bool:
        """Whether a target the browser reports is one of this connection's (its context's)."""
        return self.lease is None or target_info.get("browserContextId") == self.lease.context_id

    async def open_page(self, url: str) -> str:
        """A new tab (in this connection's context), at `url`; its target id."""
        created = await self.cdp.browser.send("Target.createTarget", {"url": url, **self.context_scope})
        return str(created["targetId"])

    async def use_target(self, target_id: str) -> CdpSession:
        """Make `target_id` the current page: attach, enable what navigation needs, and let
        go of the previous page session (its events would only be noise)."""
        session = await self.cdp.attach(target_id)
        if self.lease is not None:  # before Page.enable, so no frame attached meanwhile is missed
            self._follow_frames(session, self.lease)
        await asyncio.gather(
            session.send("Page.enable"),
            session.send("Page.setLifecycleEventsEnabled", {"enabled": True}),
            self.features.attach(self.cdp, session),  # with Network.enable, which navigation needs too
        )
        if self.lease is not None:
            await self._note_frames(session, self.lease)
        await self.emulation.attach(self.cdp, session)
        # After Page.enable: a new page has its title ("about:blank") only once that is answered.
        info = (await self.cdp.browser.send("Target.getTargetInfo", {"targetId": target_id}))["targetInfo"]
        previous, self._page = self._page, session
        self.target_url, self.target_title = info["url"], info["title"]
        if previous is not None and previous is not session and previous.ended is None:
            await self.cdp.browser.send("Target.detachFromTarget", {"sessionId": previous.session_id})
        return session

    async def fit_window(self) -> None:
        """Size the current page's window so that the page itself, not the window, is `viewport`.

        Why measured: the browser's UI takes part of the window, headless too, and its height
        varies with the version. Each window is fitted when cdpilot opens it: headless
        Chromium gives a new tab a window of its own, at the launch size. Measured once the
        page's domains are enabled (`use_target`): sent with the enables, the measure saw no
        UI at all (outerHeight equal to innerHeight), and the page came out 56 px short."""
        if self.viewport is None:
            return
        page = self.page
        reply, window = await asyncio.gather(
            page.send(
                "Runtime.evaluate",
                {"expression": "[outerWidth - innerWidth, outerHeight - innerHeight]", "returnByValue": True},
            ),
            self.cdp.browser.send("Browser.getWindowForTarget", {"targetId": page.target_id}),
        )
        extra_width, extra_height = reply["result"]["value"]
        bounds = {"width": self.viewport[0] + extra_width, "height": self.viewport[1] + extra_height}
        await self.cdp.browser.send("Browser.setWindowBounds", {"windowId": window["windowId"], "bounds": bounds})
        # The browser answers before the page has the new size (a loaded machine showed the old
        # one just after): wait, bounded, until the page sees it.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FIT_WAIT_S
        while True:
            reply = await page.send(
                "Runtime.evaluate", {"expression": "[innerWidth, innerHeight]", "returnByValue": True}
            )
            if tuple(reply["result"]["value"]) == tuple(self.viewport) or loop.time() >= deadline:
                return
            await asyncio.sleep(FIT_CHECK_INTERVAL_S)

    def remember_location(self, url: str, title: str) -> None:
        """Record where the page is, as a navigation just learnt it: Chrome reports URL changes
        through ``Target.targetInfoChanged`` but not always the title that the load set."""
        self.target_url, self.target_title = url, title

    def forget_page(self, target_id: str) -> None:
        self.emulation.forget(target_id)
        self.openers.pop(target_id, None)
        if target_id in self.page_order:
            self.page_order.remove(target_id)

    async def close(self) -> None:
        """Let go: close the transport; a launched browser is ended and its temp profile removed.
        A leased context is disposed of, with its tabs; the shared browser goes on."""
        self._stop_listening()
        if self.lease is not None:
            await self.interceptor.drop_routes(self.lease.context_id)
            self.lease.frames.forget_context(self.lease.context_id)
            await self.lease.release()
            return
        self.interceptor.stop()
        await self.cdp.close()
        if self.process is not None:
            await self.process.stop()

    def _stop_listening(self) -> None:
        self._subscriptions.clear()
        self._page_frames.clear()
        self.downloads.stop()

    def _follow_frames(self, session: CdpSession, lease: ContextLease) -> None:
        """Claim the frames the page attaches for this context, for the shared interceptor and downloads."""
        frames, context_id = lease.frames, lease.context_id
        self._page_frames.replace(
            session,
            {
                "Page.frameAttached": lambda event: frames.note(str(event.params["frameId"]), context_id),
                "Page.frameDetached": lambda event: frames.forget(str(event.params["frameId"])),
            },
        )

    async def _note_frames(self, session: CdpSession, lease: ContextLease) -> None:
        """Claim the frames the page had before we attached (a tab made current after it loaded)."""
        try:
            tree = (await session.send("Page.getFrameTree"))["frameTree"]
        except CdpCommandError:
            return
        pending = [tree]
        while pending:
            node = pending.pop()
            lease.frames.note(str(node["frame"]["id"]), lease.context_id)
            pending.extend(node.get("childFrames", ()))

    async def _first_page_target(self) -> str:
        """The first ordinary page (DevTools windows are pages too; skip them), or a new one."""
        targets = (await self.cdp.browser.send("Target.getTargets"))["targetInfos"]
        for info in targets:
            if info["type"] == "page" and not str(info["url"]).startswith("devtools://"):
                return str(info["targetId"])
        created = await self.cdp.browser.send("Target.createTarget", {"url": "about:blank"})
        return str(created["targetId"])

    def _on_target_created(self, event: CdpEvent) -> None:
        info = event.params["targetInfo"]
        if info["type"] == "page" and self.owns(info) and info["targetId"] not in self.page_order:
            self.page_order.append(info["targetId"])
            if info.get("openerId"):
                self.openers[info["targetId"]] = str(info["openerId"])

    def _on_target_info(self, event: CdpEvent) -> None:
        info = event.params["targetInfo"]
        if self._page is not None and info["targetId"] == self._page.target_id:
            self.target_url, self.target_title = info["url"], info["title"]


def downloads_dir(process: LaunchedBrowser, context: str) -> str:
    """Where a launched browser writes one context's downloads until they are complete: inside
    its scratch directory, which goes with it."""
    path = os.path.join(process.plan.scratch_dir, "downloads", context)
    os.makedirs(path, exist_ok=True)
    return path
