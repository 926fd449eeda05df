"""One browser we drive: its CDP connection, the page we talk to, and (if launched) its process.

`ConnectionManager` (manager.py) keeps many of these; handlers reach one through
`ConnectionManager.get` and talk to its `page` session. Each one enforces the origin lists
and its request routes in its browser (`RequestInterceptor`) from before its first page is
attached.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from cdpilot.browser.emulation.page_emulation import TabEmulations
from cdpilot.browser.observe.network import NetworkLog
from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.connection_facts import ConnectionKind
from cdpilot.browser.session.downloads import Downloads
from cdpilot.browser.session.features import PageFeatures
from cdpilot.browser.session.launcher import LaunchedBrowser
from cdpilot.browser.session.request_interceptor import RequestInterceptor
from cdpilot.cdp import CdpConnection, CdpEvent, CdpSession, Subscriptions


class BrowserConnection:
    """A live browser: version, current page target, and how to let go of it."""

    def __init__(
        self,
        connection_id: str,
        kind: ConnectionKind,
        cdp: CdpConnection,
        version: dict[str, Any],
        process: LaunchedBrowser | None,
        origins: OriginPolicy,
        output_dir: Path | None,
    ) -> None:
        self.id = connection_id
        self.kind = kind
        self.cdp = cdp
        self.product = str(version.get("product", "unknown"))
        self.protocol_version = str(version.get("protocolVersion", "unknown"))
        self.process = process
        self.target_url: str | None = None
        self.target_title: str | None = None
        self.viewport: tuple[int, int] | None = None  # the page size a launched browser's windows get
        self._page: CdpSession | None = None
        self.interceptor = RequestInterceptor(origins)
        self.downloads = Downloads(output_dir)
        self.features = PageFeatures(network=NetworkLog(intercepted=self.interceptor.outcome_of))
        self.emulation = TabEmulations()  # every tab's overrides, put back when we attach to it again
        self.page_order: list[str] = []  # page target ids in first-seen order: stable tab indexes
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
    ) -> BrowserConnection:
        """Check the browser answers (within `timeout_s`), start enforcing `origins` and
        following downloads (into `output_dir`), then attach to its first page."""
        version = await cdp.browser.send("Browser.getVersion", timeout_s=timeout_s)
        connection = cls(connection_id, kind, cdp, version, process, origins, output_dir)
        await connection.interceptor.start(cdp.browser)
        staging = None if process is None else os.path.join(process.plan.scratch_dir, "downloads")
        if staging is not None:
            os.makedirs(staging, exist_ok=True)
        await connection.downloads.start(cdp.browser, staging)
        await cdp.browser.send("Target.setDiscoverTargets", {"discover": True})  # replays targetCreated
        await connection.use_target(await connection._first_page_target())
        return connection

    @property
    def alive(self) -> bool:
        return not self.cdp.closed

    @property
    def endpoint(self) -> str:
        return self.cdp.endpoint

    @property
    def page(self) -> CdpSession:
        """The session of the page that navigation and page tools act on."""
        assert self._page is not None, "start() attaches a page before the connection is handed out"
        return self._page

    async def use_target(self, target_id: str) -> CdpSession:
        """Make `target_id` the current page: attach, enable what navigation needs, and let
        go of the previous page session (its events would only be noise)."""
        session = await self.cdp.attach(target_id)
        await asyncio.gather(
            session.send("Page.enable"),
            session.send("Page.setLifecycleEventsEnabled", {"enabled": True}),
            self.features.attach(self.cdp, session),  # with Network.enable, which navigation needs too
        )
        await self.emulation.attach(self.cdp, session)
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
        Chromium gives a new tab a window of its own, at the launch size."""
        if self.viewport is None:
            return
        page = self.page
        reply = await page.send(
            "Runtime.evaluate",
            {"expression": "[outerWidth - innerWidth, outerHeight - innerHeight]", "returnByValue": True},
        )
        extra_width, extra_height = reply["result"]["value"]
        window = await self.cdp.browser.send("Browser.getWindowForTarget", {"targetId": page.target_id})
        bounds = {"width": self.viewport[0] + extra_width, "height": self.viewport[1] + extra_height}
        await self.cdp.browser.send("Browser.setWindowBounds", {"windowId": window["windowId"], "bounds": bounds})

    def remember_location(self, url: str, title: str) -> None:
        """Record where the page is, as a navigation just learnt it: Chrome reports URL changes
        through ``Target.targetInfoChanged`` but not always the title that the load set."""
        self.target_url, self.target_title = url, title

    def forget_page(self, target_id: str) -> None:
        self.emulation.forget(target_id)
        if target_id in self.page_order:
            self.page_order.remove(target_id)

    async def close(self) -> None:
        """Let go: close the transport; a launched browser is ended and its temp profile removed."""
        self._subscriptions.clear()
        self.interceptor.stop()
        await self.cdp.close()
        if self.process is not None:
            await self.process.stop()

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
        if info["type"] == "page" and info["targetId"] not in self.page_order:
            self.page_order.append(info["targetId"])

    def _on_target_info(self, event: CdpEvent) -> None:
        info = event.params["targetInfo"]
        if self._page is not None and info["targetId"] == self._page.target_id:
            self.target_url, self.target_title = info["url"], info["title"]
