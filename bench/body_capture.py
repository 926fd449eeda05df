"""`python -m bench.body_capture`: what keeping and saving a 100 MiB response body costs.

cdpilot asks Chrome to keep response bodies of up to 128 MiB (256 MiB for a page) where Chrome's
own default keeps 20 MB (200 MB). A page fetches a 100 MiB body served on 127.0.0.1, twice:

1. Chrome's renderers: their resident size before and after the download, each after a forced
   garbage collection and a memory-pressure purge, with Chrome's default buffers (the body is
   not kept) and then with cdpilot's (it is): the difference is what keeping it costs the page.
2. cdpilot: the time `NetworkLog.body` takes to bring it over (one ``getResponseBody``, 133 MB
   of base64 in one message) and to write it, and this process's peak resident size above its
   level before, sampled every 2 ms; the file's sha256 is checked against the body served.

Plain figures, no thresholds. In-process, against a real Chromium.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from cdpilot.browser.observe.network import BODY_BUFFER_BYTES, BODY_LIMIT_BYTES
from cdpilot.browser.observe.network_facts import ResponseBody
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from tests.support.chromium import chrome_env
from tests.support.pages import serve_pages
from tests.support.site import html

MIB = 1024 * 1024
BODY_MIB = 100
SAMPLE_S = 0.002


def _rss_mib(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MIB


def _renderers_mib(browser_pid: int) -> float:
    """Resident size of the browser's renderer processes (its descendants with ``--type=renderer``)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # it exited while we looked
            children.setdefault(parent, []).append(int(entry.name))
    total, todo = 0.0, list(children.get(browser_pid, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                total += _rss_mib(pid)
        except OSError:
            continue
    return total


async def _settle(conn: BrowserConnection) -> None:
    """Garbage-collect the page and let its allocators give memory back, before a reading."""
    await conn.page.send("HeapProfiler.collectGarbage")
    await conn.page.send("Memory.simulatePressureNotification", {"level": "critical"})
    await asyncio.sleep(0.5)  # a measurement, not a synchronisation: the purge has no completion event


async def _download(conn: BrowserConnection, base_url: str, browser_pid: int) -> tuple[dict[str, Any], str]:
    """The renderers' resident size around one download of the body, and the request's id."""
    await navigate(conn, f"{base_url}/")
    await _settle(conn)
    before = _renderers_mib(browser_pid)
    fetched = "fetch('/body.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)"
    await conn.page.send("Runtime.evaluate", {"expression": fetched, "awaitPromise": True})
    await _settle(conn)
    after = _renderers_mib(browser_pid)
    [request] = [r for r in conn.features.network.requests() if r.url.endswith("/body.bin")]
    kept = isinstance(await conn.features.network.body(request.id, wait_s=5), ResponseBody)
    return {"renderers_before_mib": before, "renderers_after_mib": after, "body_kept": kept}, request.id


async def _save(conn: BrowserConnection, request_id: str, body_sha256: str) -> dict[str, Any]:
    """Time and this process's peak memory for bringing the body over and writing it."""
    gc.collect()
    before = _rss_mib()
    peak = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(SAMPLE_S):
            peak[0] = max(peak[0], _rss_mib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    body = await conn.features.network.body(request_id)
    fetched = time.perf_counter()
    assert isinstance(body, ResponseBody), body
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "body.bin"
        await asyncio.to_thread(path.write_bytes, body.data)
        written = time.perf_counter()
        done.set()
        sampler.join()
        exact = hashlib.sha256(path.read_bytes()).hexdigest() == body_sha256
    del body
    gc.collect()
    return {
        "fetch_ms": (fetched - started) * 1000,
        "write_ms": (written - fetched) * 1000,
        "rss_before_mib": before,
        "rss_peak_above_mib": peak[0] - before,
        "rss_after_above_mib": _rss_mib() - before,
        "byte_exact": exact,
    }


async def _measure(base_url: str, body_sha256: str) -> dict[str, Any]:
    connections = ConnectionManager(env=chrome_env())
    try:
        await connections.launch(LaunchOptions(connection_id=None))
        conn = connections.get(None)
        assert conn.process is not None, "launched, so there is a process"
        await conn.page.send("Network.enable")  # without sizes: Chrome's defaults again
        default, _ = await _download(conn, base_url, conn.process.pid)
        await conn.use_target(conn.page.target_id or "")  # a new page session: cdpilot's buffers, as always
        kept, request_id = await _download(conn, base_url, conn.process.pid)
        return {
            "body_mib": BODY_MIB,
            "body_limit_mib": BODY_LIMIT_BYTES / MIB,
            "buffer_limit_mib": BODY_BUFFER_BYTES / MIB,
            "chrome_defaults": default,
            "cdpilot_buffers": kept,
            "save": await _save(conn, request_id, body_sha256),
        }
    finally:
        await connections.aclose()


def measure() -> dict[str, Any]:
    """The figures of the module docstring, for `make bench`'s report."""
    body = os.urandom(BODY_MIB * MIB)
    pages = {
        "/": (200, "text/html", html("Body", "<p>a page that downloads a body</p>")),
        "/body.bin": (200, "application/octet-stream", body),
    }
    with serve_pages(pages) as base_url:
        return asyncio.run(_measure(base_url, hashlib.sha256(body).hexdigest()))


def report_lines(figures: dict[str, Any]) -> list[str]:
    default, kept, save = figures["chrome_defaults"], figures["cdpilot_buffers"], figures["save"]

    def grown(found: dict[str, Any]) -> str:
        growth = found["renderers_after_mib"] - found["renderers_before_mib"]
        state = "kept" if found["body_kept"] else "not kept"
        return f"{found['renderers_before_mib']:.0f} → {found['renderers_after_mib']:.0f} MiB ({growth:+.0f}, {state})"

    return [
        f"response bodies: a {figures['body_mib']} MiB body fetched by the page (cdpilot asks Chrome to keep "
        f"{figures['body_limit_mib']:.0f} MiB a body, {figures['buffer_limit_mib']:.0f} MiB a page)",
        f"  Chrome's renderers, resident: Chrome's default buffers {grown(default)}; cdpilot's {grown(kept)}",
        f"  save_body_to in cdpilot: getResponseBody {save['fetch_ms']:.0f} ms, write {save['write_ms']:.0f} ms, "
        f"peak RSS {save['rss_peak_above_mib']:+.0f} MiB above {save['rss_before_mib']:.0f} MiB, "
        f"{save['rss_after_above_mib']:+.0f} MiB after; byte-exact: {'yes' if save['byte_exact'] else 'NO'}",
    ]


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
