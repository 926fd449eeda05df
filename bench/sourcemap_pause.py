"""Source maps in a live debugger, in-process against a real Chromium: what a mapped pause
answer costs against the same pause unmapped, and how long the first breakpoint on an
original line of a 5 MB map takes to bind.

1. One page has two scripts of 20 nested calls ending in ``debugger;``: one plain, one with
   a source map (every line mapped to a TypeScript file that carries its text). Each round
   pauses afresh in one of them and takes the pause bundle and the 20-frame call stack, read
   and rendered as the debugger tools do; rounds turn about between the two scripts, and the
   figure is the ratio of the medians, mapped over plain, in one run.
2. The committed ECharts bundle (a 5.35 MB map) is loaded under a new URL each round, so its
   map is fetched, parsed and decoded afresh, then a breakpoint is set on a line of one of its
   original files; the time of that call is the first bind.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench import ROOT
from bench.stats import median
from cdpilot.answers.call_stack_answers import call_stack_lines
from cdpilot.answers.pause_answers import pause_bundle_lines
from cdpilot.browser.debugger.pause_snapshot import take_call_stack, take_pause_snapshot
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from tests.sourcemaps.map_builder import map_json
from tests.support.chromium import chrome_env
from tests.support.pages import PageSpec, serve_pages
from tests.support.site import html

DEPTH = 20
ROUNDS = 15
BIND_ROUNDS = 3
LARGE = "tests/fixtures/bundles/dist/large"
LARGE_SOURCE = "chart/line/LineView.js"


def _deep_script(prefix: str) -> str:
    calls = [f"function {prefix}{n}(v) {{\n  return {prefix}{n + 1}(v + {n});\n}}" for n in range(DEPTH - 1)]
    last = f"function {prefix}{DEPTH - 1}(v) {{\n  const total = v * 2;\n  debugger;\n  return total;\n}}"
    return "\n".join([*calls, last]) + "\n"


def _pages() -> dict[str, PageSpec]:
    plain, mapped = _deep_script("plain"), _deep_script("mapped")
    lines = mapped.count("\n")
    mapping = map_json([[(0, 0, line, 0)] for line in range(lines)], sources=["src/deep.ts"], sourcesContent=[mapped])
    large = ROOT / LARGE
    script_of_large, map_of_large = (large / "echarts.js").read_bytes(), (large / "echarts.js.map").read_bytes()
    scripts = '<script src="/plain.js"></script><script src="/mapped.js"></script>'
    return {
        "/deep/": (200, "text/html", html("deep", scripts)),
        "/plain.js": (200, "text/javascript", plain.encode()),
        "/mapped.js": (200, "text/javascript", (mapped + "//# sourceMappingURL=mapped.js.map\n").encode()),
        "/mapped.js.map": (200, "application/json", mapping.encode()),
        **{path: page for n in range(BIND_ROUNDS) for path, page in _large_round(n, script_of_large, map_of_large)},
    }


def _large_round(n: int, script: bytes, source_map: bytes) -> list[tuple[str, PageSpec]]:
    """A folder per round: a map URL of its own, never in the cache yet."""
    return [
        (f"/large/{n}/", (200, "text/html", html("large", '<script type="module" src="echarts.js"></script>'))),
        (f"/large/{n}/echarts.js", (200, "text/javascript", script)),
        (f"/large/{n}/echarts.js.map", (200, "application/json", source_map)),
    ]


async def _load(conn: BrowserConnection, url: str) -> None:
    with conn.page.listen("Page.loadEventFired") as loads:
        await conn.page.send("Page.navigate", {"url": url})
        await loads.next()


async def _pause_in(conn: BrowserConnection, prefix: str) -> None:
    """A fresh pause in the 20th frame of one of the two scripts (the last pause resumed)."""
    debugger = conn.features.debugger
    if debugger.paused is not None:
        await debugger.resume(timeout_ms=5000)
    before = debugger.pause_count
    await conn.page.send("Runtime.evaluate", {"expression": f"setTimeout(() => {prefix}0(1))"})
    await debugger.wait_pause(before)


async def _answer_ms(conn: BrowserConnection, prefix: str) -> float:
    """The pause bundle and the call stack of a fresh pause, read and rendered."""
    await _pause_in(conn, prefix)
    debugger = conn.features.debugger
    started = time.perf_counter()
    pause = debugger.require_paused()
    snapshot = await take_pause_snapshot(conn, pause, full=True, console_mark=None)
    stack = await take_call_stack(debugger, max_frames=DEPTH, max_variables=8)
    text = "\n".join(pause_bundle_lines(snapshot) + call_stack_lines(stack))
    elapsed = (time.perf_counter() - started) * 1000
    assert ("deep.ts" in text) == (prefix == "mapped"), text
    return elapsed


async def _first_bind_ms(conn: BrowserConnection, base: str) -> list[float]:
    times = []
    for n in range(BIND_ROUNDS):
        debugger = conn.features.debugger
        await debugger.enable()  # before the load: a bundle that keeps no function alive is not reported later
        await _load(conn, f"{base}/large/{n}/")
        started = time.perf_counter()
        bound = await debugger.set_breakpoint(url=LARGE_SOURCE, url_regex=None, line=120, column=None, condition=None)
        times.append((time.perf_counter() - started) * 1000)
        assert bound.kind == "original" and bound.resolved, bound  # bound through the map, not by URL
        await debugger.disable()
    return times


async def _measure(base: str) -> dict[str, Any]:
    manager = ConnectionManager(env=chrome_env())
    try:
        await manager.launch(LaunchOptions(connection_id=None))
        conn = manager.get(None)
        await _load(conn, f"{base}/deep/")
        await conn.features.debugger.enable()
        plain_ms, mapped_ms = [], []
        for _ in range(ROUNDS):  # turn about, so both see the same machine
            plain_ms.append(await _answer_ms(conn, "plain"))
            mapped_ms.append(await _answer_ms(conn, "mapped"))
        await conn.features.debugger.disable()
        binds = await _first_bind_ms(conn, base)
        return {
            "frames": DEPTH,
            "pause_answer_plain_ms": median(plain_ms),
            "pause_answer_mapped_ms": median(mapped_ms),
            "mapped_over_plain": median(mapped_ms) / median(plain_ms),
            "first_bind_5mb_map_ms": median(binds),
            "first_bind_runs_ms": binds,
        }
    finally:
        await manager.aclose()


def measure() -> dict[str, Any]:
    with serve_pages(_pages()) as base:
        return asyncio.run(_measure(base))


def report_lines(figures: dict[str, Any]) -> list[str]:
    return [
        f"source maps in the debugger ({figures['frames']} frames, in-process, real Chromium):",
        f"  pause bundle + call stack: plain {figures['pause_answer_plain_ms']:.1f} ms, "
        f"mapped {figures['pause_answer_mapped_ms']:.1f} ms: {figures['mapped_over_plain']:.2f}x (target ≤ 1.2x)",
        f"  first breakpoint on an original line of a 5.35 MB map: {figures['first_bind_5mb_map_ms']:.0f} ms "
        f"(median of {len(figures['first_bind_runs_ms'])}; target ≤ 300 ms)",
    ]


if __name__ == "__main__":
    print("\n".join(report_lines(measure())))
