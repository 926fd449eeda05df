"""Cold start: spawn → initialize → tools/list answered, median of `RUNS` fresh processes.

cdpilot runs next to the stock SDK server, interleaved run by run. The mode only picks
which pre-serialised manifest is served, so one mode (legacy, as in the scenario) stands
for both. The other cold start, spawn → first `navigate` finished, is read off the
scenario's runs (`bench.scenario`), which begin exactly that way.
"""

from __future__ import annotations

import time
from typing import Any

from bench.overhead import CDPILOT_LEGACY, STOCK, Contender
from bench.pipe import PipeServer
from bench.stats import median

RUNS = 10


def until_tools_listed(contender: Contender) -> float:
    with PipeServer(contender.argv) as server:
        server.initialize()
        server.request("tools/list")
        return time.perf_counter() - server.started


def tools_list(runs: int = RUNS) -> dict[str, dict[str, Any]]:
    """Seconds from spawn to tools/list answered, per server; runs interleaved."""
    contenders = (STOCK, CDPILOT_LEGACY)
    samples: dict[str, list[float]] = {c.name: [] for c in contenders}
    for _ in range(runs):
        for contender in contenders:
            samples[contender.name].append(until_tools_listed(contender))
    return {name: {"median_s": median(values), "runs_s": values} for name, values in samples.items()}
