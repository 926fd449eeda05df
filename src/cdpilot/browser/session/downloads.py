"""Downloads a browser starts, followed from its events and saved into the output directory.

A click on a link that the server sends as an attachment, or a ``download`` link, starts no
navigation that loads: Chrome turns it into a download. Without a word from us the agent
would read "navigation started, not loaded" and never learn where the file went. So each
connection asks for download events (``Browser.setDownloadBehavior`` with
``eventsEnabled``) and keeps a `Download` per ``Browser.downloadWillBegin``, updated by
``Browser.downloadProgress``.

A launched browser downloads into its scratch directory under a generated name
(``allowAndName``), so no half-written file ever shows in the output directory; a completed
one is moved to ``downloads/<suggested name>`` there, with `` (2)`` before the suffix when
the name is taken. A browser we attached to keeps its own download behaviour and folder:
only the events are asked for.

In a browser that several connections share, each in a browser context of its own, the
behaviour is set per context, but the browser tells every listener of every download: a
connection keeps only those begun in a frame of its context (`owns_frame`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path, PurePosixPath

from cdpilot.browser.page.page_facts import Download, DownloadState
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError
from cdpilot.output_files import output_root

SUBDIR = "downloads"  # of the output directory
BEGIN_WAIT_S = 1.0  # from a load that stopped uncommitted to the browser's downloadWillBegin
SETTLE_S = 5.0  # how long a call waits for a download it started to finish
STATES: dict[str, DownloadState] = {"inProgress": "in progress", "completed": "completed", "canceled": "canceled"}


class Downloads:
    """The downloads of one browser, in the order they began."""

    def __init__(self, output_dir: Path | None) -> None:
        self._output_dir = output_dir
        self._staging: str | None = None
        self._started: list[Download] = []
        self._by_guid: dict[str, Download] = {}
        self._changed = asyncio.Event()  # set and replaced on every change, so waiters wake
        self._placing: set[asyncio.Task[None]] = set()
        self._owns_frame: Callable[[str], bool] | None = None  # None: every download is ours
        self._subscriptions = Subscriptions()

    async def start(
        self,
        browser: CdpSession,
        staging_dir: str | None,
        *,
        scope: dict[str, str] | None = None,
        owns_frame: Callable[[str], bool] | None = None,
    ) -> None:
        """Follow the browser's downloads; `staging_dir` (ours, launched browsers only) receives
        them until they are complete. A browser without the command goes on without reports.
        `scope` names the browser context to set the behaviour for (None: the default one), and
        `owns_frame` tells this connection's downloads from those of other contexts."""
        self._owns_frame = owns_frame
        self._subscriptions.add(
            browser,
            {"Browser.downloadWillBegin": self._on_begin, "Browser.downloadProgress": self._on_progress},
        )
        behavior: dict[str, object] = {"behavior": "default", "eventsEnabled": True, **(scope or {})}
        if staging_dir is not None:
            self._staging = staging_dir
            behavior.update(behavior="allowAndName", downloadPath=staging_dir)
        with contextlib.suppress(CdpCommandError):
            await browser.send("Browser.setDownloadBehavior", behavior)

    def stop(self) -> None:
        """Stop listening (a context that closes, in a browser that goes on)."""
        self._subscriptions.clear()

    def mark(self) -> int:
        return len(self._started)

    async def collect(self, mark: int, budget_s: float, *, expected: bool) -> list[Download]:
        """The downloads begun since `mark`, each finished (and placed) or as far as it got
        within `budget_s` (and `SETTLE_S`). When a download is `expected` (a load stopped
        without a document) and none began yet, the browser's word is waited for first."""
        async with _at_most(min(BEGIN_WAIT_S, budget_s) if expected else 0.0):
            while len(self._started) <= mark:
                await self._changed.wait()
        started = self._started[mark:]
        async with _at_most(min(SETTLE_S, budget_s)):
            while any(download.state == "in progress" for download in started):
                await self._changed.wait()
        return started

    def _on_begin(self, event: CdpEvent) -> None:
        params = event.params
        if self._owns_frame is not None and not self._owns_frame(str(params.get("frameId", ""))):
            return
        download = Download(str(params.get("url", "")), _safe_name(str(params.get("suggestedFilename", ""))))
        self._by_guid[str(params["guid"])] = download
        self._started.append(download)
        self._announce()

    def _on_progress(self, event: CdpEvent) -> None:
        params = event.params
        download = self._by_guid.get(str(params["guid"]))
        if download is None:
            return
        download.received_bytes = int(params.get("receivedBytes", 0))
        download.total_bytes = int(params.get("totalBytes", 0))
        state = STATES.get(str(params.get("state")), "in progress")
        if state == "completed" and self._staging is not None:
            source = str(params.get("filePath") or os.path.join(self._staging, str(params["guid"])))
            task = asyncio.get_running_loop().create_task(self._place(download, source))
            self._placing.add(task)
            task.add_done_callback(self._placing.discard)
            return  # completed once placed
        if state == "completed":
            download.path = str(params.get("filePath") or "") or None
        download.state = state
        self._announce()

    async def _place(self, download: Download, source: str) -> None:
        """Move a completed download from the staging directory into the output directory."""
        try:
            download.path = await asyncio.to_thread(_move_into_output, source, self._output_dir, download.filename)
        except OSError as exc:
            download.problem = f"it could not be moved into the output directory ({exc.strerror or exc})"
        download.state = "completed"
        self._announce()

    def _announce(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()


@contextlib.asynccontextmanager
async def _at_most(timeout_s: float) -> AsyncIterator[None]:
    """Run the block until it ends or `timeout_s` passed, whichever comes first."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(0.0, timeout_s)):
            yield


def _safe_name(suggested: str) -> str:
    """The last component of the suggested name, with nothing that could lead elsewhere."""
    name = PurePosixPath(suggested.replace("\\", "/").replace("\0", "")).name
    return name if name not in ("", ".", "..") else "download"


def _move_into_output(source: str, output_dir: Path | None, filename: str) -> str:
    folder = output_root(output_dir) / SUBDIR
    folder.mkdir(exist_ok=True)
    stem, suffix = os.path.splitext(filename)
    target, number = folder / filename, 1
    while target.exists():
        number += 1
        target = folder / f"{stem} ({number}){suffix}"
    shutil.move(source, target)
    return str(target)
