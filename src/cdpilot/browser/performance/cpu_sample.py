"""A short CPU sample of running JavaScript (``Profiler``): which functions took the time.

The answer to "what is it doing" for a busy program that a pause alone does not tell (a loop
spread over many calls, a hot path under load). V8 samples the stack every 100 µs; a
function's self time is the time of the samples in which it was on top. Places are mapped to
the original sources the same way pauses are, so a hot TypeScript function is named in it.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from cdpilot.browser.debugger.debugger_facts import Location
from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.performance.performance_facts import CpuSample, HotFunction
from cdpilot.browser.target import Target

SAMPLING_INTERVAL_US = 100
SHOWN_FUNCTIONS = 12


async def sample_cpu(conn: Target, duration_ms: int) -> CpuSample:
    """Sample for `duration_ms`, then rank the functions by self time."""
    session = conn.session
    await session.send("Profiler.enable")
    await session.send("Profiler.setSamplingInterval", {"interval": SAMPLING_INTERVAL_US})
    await session.send("Profiler.start")
    try:
        await asyncio.sleep(duration_ms / 1000)
    finally:
        profile = (await conn.features.unless_blocked(session.send("Profiler.stop")))["profile"]
        await session.send("Profiler.disable")
    return await _ranked(conn.features.get(PageDebugger), profile)


async def _ranked(debugger: PageDebugger, profile: dict[str, Any]) -> CpuSample:
    nodes = {node["id"]: node for node in profile.get("nodes", [])}
    self_us: defaultdict[int, float] = defaultdict(float)
    samples, deltas = profile.get("samples", []), profile.get("timeDeltas", [])
    # A sample's time is the gap to the next one: the stack it saw ran until then.
    for index, node_id in enumerate(samples):
        self_us[node_id] += deltas[index + 1] if index + 1 < len(deltas) else 0
    spent: defaultdict[_Key, float] = defaultdict(float)
    line_ticks: defaultdict[_Key, Counter[int]] = defaultdict(Counter)
    idle_us = 0.0
    for node_id, time_us in self_us.items():
        frame = nodes[node_id]["callFrame"]
        name = str(frame.get("functionName") or "")
        if name == "(idle)":
            idle_us += time_us
            continue
        key = _Key(
            name,
            str(frame.get("url") or ""),
            str(frame.get("scriptId") or ""),
            int(frame.get("lineNumber", -1)),
            int(frame.get("columnNumber", -1)),
        )
        spent[key] += time_us
        for tick in nodes[node_id].get("positionTicks", ()):
            line_ticks[key][int(tick["line"])] += int(tick["ticks"])
    ranked = sorted(spent.items(), key=lambda item: -item[1])[:SHOWN_FUNCTIONS]
    functions = [await _hot(debugger, key, time_us, line_ticks[key]) for key, time_us in ranked]
    duration_us = float(profile.get("endTime", 0)) - float(profile.get("startTime", 0))
    return CpuSample(duration_us / 1000, len(samples), idle_us / 1000, tuple(functions))


@dataclass(frozen=True)
class _Key:
    """A function as a profile names it: where it starts (0-based, -1 when it has no place)."""

    name: str
    url: str
    script_id: str
    line: int
    column: int


async def _hot(debugger: PageDebugger, key: _Key, time_us: float, lines: Counter[int]) -> HotFunction:
    """A function of the sample, placed in the original source when a map covers it, with the
    line that took most of its time (the engine counts it by line: 1-based, in its script)."""
    name = key.name or ("(anonymous)" if key.url else "(engine)")
    if not key.url or key.line < 0:
        return HotFunction(name, "(native)", time_us / 1000, True)
    start = await _placed(debugger, Location(key.script_id, key.url, key.line + 1, key.column + 1))
    busiest = None
    if lines:
        line = lines.most_common(1)[0][0]
        where = await _placed(debugger, Location(key.script_id, key.url, line, 1))
        busiest = where.original.line if where.original is not None else where.line
    place = start.original.label if start.original is not None else start.generated_label
    return HotFunction(name, place, time_us / 1000, start.library, busiest)


async def _placed(debugger: PageDebugger, where: Location) -> Location:
    return await debugger.maps.original(where) if debugger.enabled else where
