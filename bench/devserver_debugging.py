"""`python -m bench.devserver_debugging`: the debugger on a real Vite dev server (the vite-react
dev app of tests/fixtures/devapps: React + TypeScript, 30+ modules, each served compiled at its
source's path with an inline map). Needs the apps installed (`make devapps`).

1. Bind latency, in-process: cdpilot's own `PageDebugger` on a Chromium launched with the test
   flags. Each round turns the debugger on over about:blank, sets a breakpoint on ``src/cart.ts``
   at ``@cart-subtotal-loop`` (no script loaded yet), then loads the app. The browser holds each
   module with a map before it runs (the instrumentation breakpoint), cdpilot loads its map and
   binds; the figure is the time from ``Debugger.scriptParsed`` of ``/src/cart.ts`` to the reply
   of the ``Debugger.setBreakpointByUrl`` that binds it there, both seen on the same connection
   (the command is timed by wrapping `CdpConnection.send_command` for the section).
   Each such first load is also timed against a load with no breakpoint: modules with a map are
   held before they run only until the breakpoint has bound.
2. Reload cost of holding scripts: ``Page.reload`` to ``Page.loadEventFired``, the debugger on in
   both arms, with that breakpoint (bound already, so nothing is held: the browser binds it again
   by URL) and without. Arms turn about (ABBA), each after a warm-up reload; the figures are the
   difference of the medians and their ratio. The reloads with the breakpoint also time its
   binding when it is kept over a reload (``Debugger.breakpointResolved``: the browser binds a
   breakpoint set by URL again by itself).
3. Pause answer size, through the real server over stdio (smart mode, default answers, the
   official mcp client): the click on ``#add`` that pauses at that breakpoint, and the call stack
   then; their characters, and whether each lists every frame of the app's code (``subtotal``,
   ``total``, ``handleAdd``).

Network: 127.0.0.1 only (the dev server; Chromium gets the offline test flags).
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlparse

from bench.stats import median
from cdpilot.browser.debugger.debugger_facts import Breakpoint
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.cdp import CdpEvent
from cdpilot.cdp.client import CdpConnection
from cdpilot.cdp.session import CdpSession
from tests.e2e.harness import browser_session
from tests.support.chromium import chrome_env
from tests.support.devservers import DevServer, dev_server, marker_line

APP = "vite-react"
MODULE = "/src/cart.ts"
MARKER = "cart-subtotal-loop"
BIND_ROUNDS = 15
RELOAD_PAIRS = 8  # ABBA: 16 reloads in each arm
USER_FRAMES = ("subtotal", "total", "handleAdd")
BIND_GOAL_MS = 100.0
RELOAD_GOAL_MS = 50.0
ANSWER_GOAL_CHARS = 3000
LOAD_TIMEOUT_S = 30.0
SendCommand = Callable[..., Awaitable[dict[str, Any]]]


class Timeline:
    """When the module was parsed and when a breakpoint was bound in it, on one page session."""

    def __init__(self) -> None:
        self.parsed: dict[str, float] = {}  # script id of /src/cart.ts → when scriptParsed arrived
        self.resolved: list[tuple[float, str, str]] = []  # (when, breakpoint id, script id)
        self.bound: list[tuple[float, str]] = []  # (when, breakpoint id) of setBreakpointByUrl replies there
        self.held_at: dict[str, float] = {}  # script id → when its instrumentation pause arrived
        self.let_go: list[float] = []  # when each Debugger.resume was answered

    def reset(self) -> None:
        self.parsed.clear()
        self.resolved.clear()
        self.bound.clear()
        self.held_at.clear()
        self.let_go.clear()

    @property
    def held(self) -> int:
        """Scripts held before they ran (instrumentation pauses)."""
        return len(self.held_at)

    def on_parsed(self, event: CdpEvent) -> None:
        if urlparse(str(event.params.get("url", ""))).path == MODULE:
            self.parsed[str(event.params["scriptId"])] = time.perf_counter()

    def on_resolved(self, event: CdpEvent) -> None:
        where = event.params.get("location") or {}
        self.resolved.append((time.perf_counter(), str(event.params["breakpointId"]), str(where.get("scriptId"))))

    def on_paused(self, event: CdpEvent) -> None:
        if event.params.get("reason") == "instrumentation":
            self.held_at[str((event.params.get("data") or {}).get("scriptId"))] = time.perf_counter()

    def wrap(self, original: SendCommand) -> SendCommand:
        async def send_command(
            connection: CdpConnection,
            method: str,
            params: Mapping[str, Any] | None,
            *,
            session: CdpSession,
            timeout_s: float,
        ) -> dict[str, Any]:
            reply = await original(connection, method, params, session=session, timeout_s=timeout_s)
            if method == "Debugger.resume":
                self.let_go.append(time.perf_counter())
            elif (
                method == "Debugger.setBreakpointByUrl"
                and params is not None
                and reply.get("locations")
                and urlparse(str(params.get("url", ""))).path == MODULE
            ):
                self.bound.append((time.perf_counter(), str(reply["breakpointId"])))
            return reply

        return send_command

    def bind_ms(self) -> tuple[float, float]:
        """From the module's parse to the first reply that bound a breakpoint in it; and of
        that, from its own instrumentation pause (before it, it waits for the scripts ahead)."""
        ((script_id, parsed),) = self.parsed.items()
        bound = min(when for when, _ in self.bound)
        return (bound - parsed) * 1000, (bound - self.held_at[script_id]) * 1000

    def held_ms(self) -> float:
        """The time scripts were held in all: from each instrumentation pause to the answer of
        the resume that let it go (one script is held at a time, so they pair in order)."""
        pauses = sorted(self.held_at.values())
        assert len(pauses) == len(self.let_go), (len(pauses), len(self.let_go))
        return sum(resumed - paused for paused, resumed in zip(pauses, self.let_go, strict=True)) * 1000

    def rebind_ms(self, cdp_ids: set[str]) -> float:
        """From the module's parse to the browser's own binding of one of `cdp_ids` in it."""
        ((script_id, parsed),) = self.parsed.items()
        found = [when for when, cdp_id, where in self.resolved if cdp_id in cdp_ids and where == script_id]
        return (min(found) - parsed) * 1000


async def _load(page: CdpSession, url: str | None) -> float:
    """Navigate to `url` (a reload when None) and wait for the load event; the ms it took."""
    with page.listen("Page.loadEventFired") as loads:
        started = time.perf_counter()
        if url is None:
            await page.send("Page.reload")
        else:
            await page.send("Page.navigate", {"url": url})
        async with asyncio.timeout(LOAD_TIMEOUT_S):
            await loads.next()
        return (time.perf_counter() - started) * 1000


async def _app_ready(page: CdpSession) -> None:
    """The cart rendered (React renders after the load event)."""
    async with asyncio.timeout(LOAD_TIMEOUT_S):
        while True:
            reply = await page.send(
                "Runtime.evaluate", {"expression": "!!document.querySelector('#add')", "returnByValue": True}
            )
            if reply.get("result", {}).get("value") is True:
                return
            await asyncio.sleep(0.02)


async def _set(conn: BrowserConnection, line: int) -> None:
    """The breakpoint on cart.ts, by the file's name."""
    debugger = conn.features.debugger
    await debugger.set_breakpoint(url=MODULE.lstrip("/"), url_regex=None, line=line, column=None, condition=None)


async def _the_breakpoint(conn: BrowserConnection) -> Breakpoint:
    """The one breakpoint on the page, as cdpilot lists it."""
    (live,) = await conn.features.debugger.breakpoints()
    assert isinstance(live, Breakpoint), live
    return live


async def _bind_rounds(conn: BrowserConnection, server: DevServer, line: int, timeline: Timeline) -> dict[str, Any]:
    debugger = conn.features.debugger
    times, own, held, loads, plain_loads = [], [], [], [], []
    for _ in range(BIND_ROUNDS):
        if debugger.enabled:
            await debugger.disable()
        await _load(conn.page, "about:blank")
        await debugger.enable()
        plain_loads.append(await _load(conn.page, server.url + "/"))  # no breakpoint: nothing held
        await _app_ready(conn.page)
        await _load(conn.page, "about:blank")
        await _set(conn, line)
        timeline.reset()
        loads.append(await _load(conn.page, server.url + "/"))
        await _app_ready(conn.page)
        live = await _the_breakpoint(conn)
        assert live.kind == "original" and len(live.resolved) == 1, live
        since_parse, since_held = timeline.bind_ms()
        times.append(since_parse)
        own.append(since_held)
        held.append(timeline.held)
    return {
        "runs": len(times),
        "bind_ms_median": median(times),
        "bind_ms_max": max(times),
        "bind_runs_ms": times,
        "bind_since_own_pause_ms_median": median(own),
        "scripts_held_per_load": median(held),
        "first_load_with_pending_breakpoint_ms_median": median(loads),
        "first_load_without_ms_median": median(plain_loads),
    }


async def _reload_rounds(conn: BrowserConnection, line: int, timeline: Timeline) -> dict[str, Any]:
    """Reload times with and without the breakpoint, arms turning about (ABBA)."""
    debugger = conn.features.debugger
    with_ms: list[float] = []
    without_ms: list[float] = []
    rebind_ms: list[float] = []
    held: list[int] = []
    held_ms: list[float] = []

    async def reload_with() -> None:
        if not await debugger.breakpoints():
            await _set(conn, line)
            await _load(conn.page, None)  # warm-up: the first load after setting binds through the map
            await _app_ready(conn.page)
        cdp_ids = set((await _the_breakpoint(conn)).cdp_ids)
        timeline.reset()
        with_ms.append(await _load(conn.page, None))
        await _app_ready(conn.page)
        rebind_ms.append(timeline.rebind_ms(cdp_ids))
        held.append(timeline.held)
        held_ms.append(timeline.held_ms())

    async def reload_without() -> None:
        for listed in await debugger.breakpoints():
            await debugger.remove_breakpoint(listed.spec.id)
            await _load(conn.page, None)  # warm-up
            await _app_ready(conn.page)
        timeline.reset()
        without_ms.append(await _load(conn.page, None))
        await _app_ready(conn.page)
        assert timeline.held == 0, timeline.held

    for _ in range(RELOAD_PAIRS):
        await reload_with()
        await reload_without()
        await reload_without()
        await reload_with()
    added = median(with_ms) - median(without_ms)
    return {
        "runs_each": len(with_ms),
        "reload_with_breakpoint_ms_median": median(with_ms),
        "reload_without_ms_median": median(without_ms),
        "added_ms_median": added,
        "with_over_without": median(with_ms) / median(without_ms),
        "reload_with_runs_ms": with_ms,
        "reload_without_runs_ms": without_ms,
        "scripts_held_per_reload": median(held),
        "held_ms_per_reload_median": median(held_ms),
        "kept_breakpoint_rebind_ms_median": median(rebind_ms),
        "kept_breakpoint_rebind_ms_max": max(rebind_ms),
    }


@contextmanager
def _timed_commands(timeline: Timeline) -> Iterator[None]:
    with mock.patch.object(CdpConnection, "send_command", timeline.wrap(CdpConnection.send_command)):
        yield


async def _in_process(server: DevServer, line: int) -> dict[str, Any]:
    timeline = Timeline()
    manager = ConnectionManager(env=chrome_env())
    try:
        with _timed_commands(timeline):
            await manager.launch(LaunchOptions(connection_id=None))
            conn = manager.get(None)
            for method, handler in (
                ("Debugger.scriptParsed", timeline.on_parsed),
                ("Debugger.breakpointResolved", timeline.on_resolved),
                ("Debugger.paused", timeline.on_paused),
            ):
                conn.page.on(method, handler)
            await _load(conn.page, server.url + "/")  # warm-up: the dev server's first requests
            await _app_ready(conn.page)
            bind = await _bind_rounds(conn, server, line, timeline)
            reload = await _reload_rounds(conn, line, timeline)
            return {"bind": bind, "reload": reload, "load_average": os.getloadavg()[0]}
    finally:
        await manager.aclose()
        manager.kill_all_now()


def _lists_frame(text: str, name: str) -> bool:
    """Whether `text` lists a frame of function `name` (``#2 handleAdd Cart.tsx:20:33``, or
    ``at handleAdd Cart.tsx:20:33`` behind an async boundary)."""
    return re.search(rf"(#\d+|\bat) {re.escape(name)} ", text) is not None


async def _answers(server: DevServer, line: int) -> dict[str, Any]:
    async with browser_session("smart") as client:
        await client.ok("debugger_enable")
        await client.ok("debugger_set_breakpoint", url=MODULE.lstrip("/"), line_number=line)
        await client.ok("navigate", url=server.url + "/")
        await client.ok("wait_for", selector="#add")
        clicked = await client.ok("click_element", selector="#add")
        stack = await client.stack_once_paused()
        await client.ok("debugger_resume")
        figures: dict[str, Any] = {}
        for label, text in (("click", clicked), ("call_stack", stack)):
            figures[label] = {
                "chars": len(text),
                "frames_listed": {name: _lists_frame(text, name) for name in USER_FRAMES},
                "paused_at_breakpoint": f"cart.ts:{line}:" in text,
                "text": text,
            }
        return figures


def _first_failure(exc: BaseException) -> str:
    """The innermost message of a failure (the client's task groups wrap it)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def measure() -> dict[str, Any]:
    with (
        tempfile.TemporaryDirectory(prefix="cdpilot-bench-devserver-") as workdir,
        dev_server(APP, Path(workdir)) as server,
    ):
        line = marker_line(server.root / "src" / "cart.ts", MARKER)
        figures = asyncio.run(_in_process(server, line))
        try:
            figures["answers"] = asyncio.run(_answers(server, line))
        except Exception as exc:  # a failed call is reported as a missed goal; the figures above are kept
            figures["answers"] = {"error": _first_failure(exc)}
        figures["breakpoint"] = f"src/cart.ts:{line} (@{MARKER})"
        return figures


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def report_lines(figures: dict[str, Any]) -> list[str]:
    bind, reload, answers = figures["bind"], figures["reload"], figures["answers"]
    median_met, max_met = (_verdict(bind[key] <= BIND_GOAL_MS) for key in ("bind_ms_median", "bind_ms_max"))
    lines = [
        f"Debugging on a Vite dev server ({APP}: React + TypeScript, 30+ modules; breakpoint {figures['breakpoint']}; "
        f"load average {figures['load_average']:.1f})",
        f"  bind, breakpoint set before the load: scriptParsed of {MODULE} → bound {bind['bind_ms_median']:.1f} ms "
        f"median, {bind['bind_ms_max']:.1f} ms max over {bind['runs']} loads "
        f"(goal ≤ {BIND_GOAL_MS:.0f} ms: median {median_met}, max {max_met})",
        f"    of which {bind['bind_since_own_pause_ms_median']:.1f} ms (median) from its own hold to bound; before "
        f"that it waits its turn to run (its imports loaded, the modules ahead run, each held until the breakpoint "
        f"binds: {bind['scripts_held_per_load']:g} scripts held in that load)",
        f"  that first load: {bind['first_load_with_pending_breakpoint_ms_median']:.0f} ms, "
        f"{bind['first_load_without_ms_median']:.0f} ms with no breakpoint "
        f"({bind['first_load_with_pending_breakpoint_ms_median'] - bind['first_load_without_ms_median']:+.0f} ms)",
        f"  kept over a reload, the browser binds it again by URL {reload['kept_breakpoint_rebind_ms_median']:.1f} ms "
        f"median, {reload['kept_breakpoint_rebind_ms_max']:.1f} ms max after the parse",
        f"  reload to load event, {reload['runs_each']} each, ABBA: with the breakpoint "
        f"{reload['reload_with_breakpoint_ms_median']:.0f} ms, without {reload['reload_without_ms_median']:.0f} ms: "
        f"{reload['added_ms_median']:+.0f} ms, {reload['with_over_without']:.2f}x "
        f"(goal ≤ +{RELOAD_GOAL_MS:.0f} ms: {_verdict(reload['added_ms_median'] <= RELOAD_GOAL_MS)})",
        f"    {reload['scripts_held_per_reload']:g} scripts held per reload (a bound breakpoint holds none: the "
        f"browser binds it by URL), {reload['held_ms_per_reload_median']:.0f} ms in holds (median)",
    ]
    if "error" in answers:
        return [*lines, f"  pause answers through the server: failed, {answers['error']} (goal: MISSED)"]
    for label, what in (("click", "click on #add that pauses"), ("call_stack", "call stack then")):
        found = answers[label]
        missing = [name for name, listed in found["frames_listed"].items() if not listed]
        met = found["chars"] <= ANSWER_GOAL_CHARS and not missing
        frames = f"missing {', '.join(missing)}" if missing else f"lists {', '.join(found['frames_listed'])}"
        lines.append(
            f"  {what}: {found['chars']:,} chars, {frames} "
            f"(goal ≤ {ANSWER_GOAL_CHARS:,} chars and every app frame: {_verdict(met)})"
        )
    return lines


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
