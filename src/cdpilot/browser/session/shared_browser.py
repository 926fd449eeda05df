"""One headless Chromium that many sessions share, each in browser contexts of its own.

Why: over HTTP, ten agents with a browser process each cost ten browsers' memory. A browser
context (``Target.createBrowserContext``) has its own cookies, storage, cache and
permissions, like a separate profile, at a fraction of the cost: so each `chrome launch` of
a session becomes a context in one shared browser, and ten agents cost one browser.

The shared browser is launched with the server's launch settings when the first context is
asked for, and ended when the last one is given back, so an idle server holds no browser.
A launch that asks for what a context cannot give (another executable, a profile, a headed
window, its own flags, user agent or certificate rule) gets a process of its own instead
(`misfit`). A connection to a context sees, opens and closes only that context's tabs;
its requests meet only its routes and its downloads reach only it (`FrameOwners`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.browser_connection import BrowserConnection, ContextLease
from cdpilot.browser.session.browser_launch import launch_browser
from cdpilot.browser.session.frame_owners import FrameOwners
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import LaunchedBrowser
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

HOST_ID = "shared"
DISPOSE_TIMEOUT_S = 10.0  # the lock is held meanwhile: other sessions' launches wait for it
# What one process sets for all its contexts: a launch that differs in one of these needs its own.
PROCESS_WIDE = ("headless", "executable_path", "user_data_dir", "extra_args", "user_agent", "ignore_https_errors")


class SharedBrowser:
    """The shared Chromium: opens contexts for connection managers, ends with the last one."""

    def __init__(self, options: LaunchOptions, *, env: Mapping[str, str], origins: OriginPolicy) -> None:
        """`options`: how the browser is launched (the server's launch settings); `origins`:
        the server's origin lists, which its one interceptor enforces for every context."""
        self.options = options
        self._env = env
        self._origins = origins
        self._frames = FrameOwners()
        self._launched: set[LaunchedBrowser] = set()  # the browser, from the moment it exists until it is gone
        self._host: BrowserConnection | None = None
        self._contexts: set[str] = set()
        self._lock = asyncio.Lock()
        self._burying: set[asyncio.Task[None]] = set()

    @property
    def process_count(self) -> int:
        return len(self._launched)

    @property
    def context_count(self) -> int:
        return len(self._contexts)

    def misfit(self, options: LaunchOptions) -> tuple[str, ...]:
        """The launch options a context cannot honour, because they differ from the shared
        browser's (empty: a context serves this launch)."""
        return tuple(name for name in PROCESS_WIDE if getattr(options, name) != getattr(self.options, name))

    async def open_context(
        self, connection_id: str, options: LaunchOptions, start_url: str, output_dir: Path | None
    ) -> BrowserConnection:
        """A new context, and a connection to it on a tab at `start_url` (the browser is
        launched first if none runs)."""
        async with self._lock:
            host = await self._running(options.timeout_ms)
            params: dict[str, object] = {"disposeOnDetach": False}
            if options.proxy_server:
                params["proxyServer"] = options.proxy_server
            created = await host.cdp.browser.send("Target.createBrowserContext", params)
            context_id = str(created["browserContextId"])
            self._contexts.add(context_id)
        pid = host.process.pid if host.process is not None else None
        lease = ContextLease(context_id, self._frames, pid, functools.partial(self._release, context_id))
        try:
            connection = await BrowserConnection.open_in_context(connection_id, host, lease, start_url, output_dir)
            connection.viewport = options.viewport
            await connection.fit_window()
        except BaseException:
            with contextlib.suppress(Exception):
                await self._release(context_id)
            raise
        return connection

    async def aclose(self) -> None:
        """End the browser, whatever contexts are left (server shutdown)."""
        async with self._lock:
            self._contexts.clear()
            await self._stop()

    def kill_now(self) -> None:
        """Synchronous last resort (atexit, signals): SIGKILL the browser."""
        for process in list(self._launched):
            process.kill_now()

    async def _running(self, timeout_ms: int) -> BrowserConnection:
        """The live shared browser; a new one if there is none or it died (its contexts with it)."""
        if self._host is not None and self._host.alive:
            return self._host
        await self._stop()
        self._frames = FrameOwners()
        self._host = await launch_browser(
            replace(self.options, timeout_ms=timeout_ms),
            "about:blank",
            claim_id=_host_id,
            env=self._env,
            origins=self._origins,
            output_dir=None,
            launched=self._launched,
            frames=self._frames,
        )
        host = self._host
        self._host.cdp.on_lost(lambda: self._bury_later(host))
        return self._host

    def _bury_later(self, host: BrowserConnection) -> None:
        """The browser died: its contexts went with it. Forget them and reap it now, so the
        health check tells the truth at once and the next launch starts a new browser (each
        session's connections to it are dropped by their own managers)."""
        task = asyncio.ensure_future(self._bury(host))
        self._burying.add(task)
        task.add_done_callback(self._burying.discard)

    async def _bury(self, host: BrowserConnection) -> None:
        async with self._lock:
            if self._host is host:
                await self._stop()

    async def _release(self, context_id: str) -> None:
        """Dispose of a context (closing its tabs); the browser ends with the last one."""
        async with self._lock:
            if context_id not in self._contexts:  # the browser it lived in is gone already
                return
            self._contexts.discard(context_id)
            if not self._contexts:
                await self._stop()
            elif self._host is not None and self._host.alive:
                with contextlib.suppress(CdpCommandError, CdpTimeoutError, BrowserConnectionError):
                    await self._host.cdp.browser.send(
                        "Target.disposeBrowserContext", {"browserContextId": context_id}, timeout_s=DISPOSE_TIMEOUT_S
                    )

    async def _stop(self) -> None:
        self._frames.stop()
        self._contexts.clear()
        host, self._host = self._host, None
        if host is not None:
            await host.close()
            if host.process is not None:
                self._launched.discard(host.process)


async def _host_id() -> str:
    return HOST_ID
