"""A short CPU sample of running JavaScript (``Profiler``): which functions took the time.

The answer to "what is it doing" for a busy program that a pause alone does not tell (a loop
spread over many calls, a hot path under load). V8 samples the stack every 100 µs; a
function's self time is the time of the samples in which it was on top. Places are mapped to
the original sources the same way pauses are, so a hot TypeScript function is named in it.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from cdpilot.browser.debugger.debugger_facts import Location
from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.performance.performance_facts import CpuSample, HotFunction
from cdpilot.browser.target import Target

SAMPLING_INTERVAL_US = 100
SHOWN_FUNCTIONS = 12
ENGINE_NODES = {"(idle)", "(program)", "(garbage collector)", "(root)"}


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
    by_function: defaultdict[tuple[str, str, int, int, str], float] = defaultdict(float)
    idle_us = 0.0
    for node_id, spent in self_us.items():
        frame = nodes[node_id]["callFrame"]
        name = str(frame.get("functionName") or "")
        if name in ENGINE_NODES:
            idle_us += spent if name == "(idle)" else 0
            if name == "(idle)":
                continue
        key = (
            name,
            str(frame.get("url") or ""),
            int(frame.get("lineNumber", -1)),
            int(frame.get("columnNumber", -1)),
            str(frame.get("scriptId") or ""),
        )
        by_function[key] += spent
    functions = []
    for (name, url, line, column, script_id), spent in sorted(by_function.items(), key=lambda item: -item[1])[
        :SHOWN_FUNCTIONS
    ]:
        place, library = url, True
        if url and line >= 0:
            where = (
                await debugger.maps.original(Location(script_id, url, line + 1, column + 1))
                if debugger.enabled
                else Location(script_id, url, line + 1, column + 1)
            )
            place = where.original.label if where.original is not None else where.generated_label
            library = where.library or url.startswith("node:")
        functions.append(HotFunction(name or "(anonymous)", place or "(native)", spent / 1000, library))
    start, end = float(profile.get("startTime", 0)), float(profile.get("endTime", 0))
    return CpuSample((end - start) / 1000, len(samples), idle_us / 1000, tuple(functions))
