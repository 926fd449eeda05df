"""CDP commands per scenario step, counted in-process without touching src/.

The scenario's steps run through cdpilot's own `Registry` and handlers in this process
(the same pipeline the stdio server runs, minus the MCP framing), with
`CdpConnection.send_command` wrapped for the duration. Per step we keep the number of
commands and their methods, and the time at least one command was in flight ("CDP busy"):
step time minus CDP busy is what the server spent not waiting on the browser's answers
(its own work, plus waits for events such as a page load). The raw round trip is the
median of `Browser.getVersion` sent through the same connection afterwards.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

from bench.scenario import steps
from bench.stats import median
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.cdp.client import CdpConnection
from cdpilot.cdp.session import CdpSession
from cdpilot.context import Settings, ToolContext
from cdpilot.handlers.table import HANDLERS
from cdpilot.server.registry import Registry
from tests.support.chromium import chrome_env

RUNS = 3
ROUND_TRIPS = 30
SendCommand = Callable[..., Awaitable[dict[str, Any]]]


class CommandLog:
    """Commands seen since the last `reset`, and how long any was in flight."""

    def __init__(self) -> None:
        self.connection: CdpConnection | None = None
        self.methods: Counter[str] = Counter()
        self.durations: list[tuple[float, str]] = []  # (ms, method) of each command
        self.busy_ns = 0
        self._in_flight = 0
        self._since = 0

    def reset(self) -> None:
        self.methods = Counter()
        self.durations = []
        self.busy_ns = 0
        self._since = time.perf_counter_ns()

    def wrap(self, original: SendCommand) -> SendCommand:
        async def send_command(
            connection: CdpConnection,
            method: str,
            params: Mapping[str, Any] | None,
            *,
            session: CdpSession,
            timeout_s: float,
        ) -> dict[str, Any]:
            self.connection = connection
            self.methods[method] += 1
            if self._in_flight == 0:
                self._since = time.perf_counter_ns()
            self._in_flight += 1
            started = time.perf_counter_ns()
            try:
                return await original(connection, method, params, session=session, timeout_s=timeout_s)
            finally:
                self.durations.append(((time.perf_counter_ns() - started) / 1e6, method))
                self._in_flight -= 1
                if self._in_flight == 0:
                    self.busy_ns += time.perf_counter_ns() - self._since

        return send_command


async def _one_run(base_url: str, log: CommandLog, out: dict[str, dict[str, list[Any]]]) -> list[float]:
    """Run the scenario once; returns the round trips of `Browser.getVersion` in ms."""
    with tempfile.TemporaryDirectory(prefix="cdpilot-bench-") as output_dir:
        connections = ConnectionManager(env=chrome_env())
        ctx = ToolContext(connections, "legacy", Settings(output_dir=Path(output_dir)))
        registry = Registry(ctx, HANDLERS)
        try:
            for step in steps(base_url):
                log.reset()
                started = time.perf_counter_ns()
                result = await registry.call(step.tool, step.arguments)
                elapsed_ms = (time.perf_counter_ns() - started) / 1e6
                if result.is_error:
                    raise RuntimeError(f"{step.tool} failed in-process: {result.content}")
                figures = out.setdefault(
                    step.label, {"commands": [], "busy_ms": [], "wall_ms": [], "methods": [], "slowest": []}
                )
                figures["commands"].append(sum(log.methods.values()))
                figures["busy_ms"].append(log.busy_ns / 1e6)
                figures["wall_ms"].append(elapsed_ms)
                figures["methods"].append(dict(sorted(log.methods.items())))
                figures["slowest"].append([f"{method} {ms:.1f} ms" for ms, method in sorted(log.durations)[::-1][:3]])
            assert log.connection is not None
            round_trips = []
            for _ in range(ROUND_TRIPS):
                started = time.perf_counter_ns()
                await log.connection.browser.send("Browser.getVersion")
                round_trips.append((time.perf_counter_ns() - started) / 1e6)
            return round_trips
        finally:
            await connections.aclose()
            connections.kill_all_now()


def count(base_url: str, runs: int = RUNS) -> dict[str, Any]:
    """Per step: median commands, CDP busy and in-process wall ms; the methods and slowest commands of the last run."""
    log = CommandLog()
    per_step: dict[str, dict[str, list[Any]]] = {}
    round_trips: list[float] = []
    with mock.patch.object(CdpConnection, "send_command", log.wrap(CdpConnection.send_command)):
        for _ in range(runs):
            round_trips += asyncio.run(_one_run(base_url, log, per_step))
    return {
        "runs": runs,
        "round_trip_ms_median": median(round_trips),
        "steps": {
            label: {
                "commands_median": median(f["commands"]),
                "cdp_busy_ms_median": median(f["busy_ms"]),
                "in_process_ms_median": median(f["wall_ms"]),
                "methods": f["methods"][-1],
                "slowest_commands": f["slowest"][-1],
            }
            for label, f in per_step.items()
        },
    }
