"""Cold start: spawn → initialize → tools/list answered, median of `RUNS` fresh processes.

cdpilot runs next to the stock SDK server, interleaved run by run. The mode only picks
which pre-serialised manifest is served, so one mode (legacy, as in the scenario) stands
for both. cdpilot answers the handshake before its MCP SDK is imported, while a thread
imports the SDK and the handler layer (`cdpilot.server.app`); so each run then makes one
trivial call (`chrome_list_connections`) at once, with no pause for thought, and times its
answer too: that figure shows what the loading costs a client that calls without reading
the tools first. The other cold start, spawn → first `navigate` finished, is read off the
scenario's runs (`bench.scenario`).
"""

from __future__ import annotations

import time
from typing import Any

from bench.overhead import CDPILOT_LEGACY, STOCK, Contender
from bench.pipe import PipeServer
from bench.stats import median

RUNS = 10


def until_listed_and_called(contender: Contender) -> tuple[float, float]:
    """Seconds from spawn to tools/list answered, and to the first call answered right after."""
    with PipeServer(contender.argv) as server:
        server.initialize()
        server.request("tools/list")
        listed = time.perf_counter() - server.started
        server.call_tool("chrome_list_connections", {})
        return listed, time.perf_counter() - server.started


def tools_list(runs: int = RUNS) -> dict[str, dict[str, Any]]:
    """Seconds from spawn to tools/list answered and to the first call answered, per server;
    runs interleaved."""
    contenders = (STOCK, CDPILOT_LEGACY)
    listed: dict[str, list[float]] = {c.name: [] for c in contenders}
    called: dict[str, list[float]] = {c.name: [] for c in contenders}
    for _ in range(runs):
        for contender in contenders:
            to_list, to_call = until_listed_and_called(contender)
            listed[contender.name].append(to_list)
            called[contender.name].append(to_call)
    return {
        name: {
            "median_s": median(listed[name]),
            "runs_s": listed[name],
            "first_call_median_s": median(called[name]),
            "first_call_runs_s": called[name],
        }
        for name in listed
    }
