"""Soak: thousands of mixed calls and dozens of launch/close cycles through the real registry
(in-process, so the server's own RSS, descriptors, threads, tasks and pending CDP commands
can be read before and after). Growth must stay small and bounded; no call may be UNKNOWN.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.context import Settings
from tests.reliability.conftest import Report, scaled
from tests.support.chromium import chrome_env
from tests.support.pages import serve_pages
from tests.support.registry import in_process_registry
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(900)]

CALLS = scaled(small=300, full=3000)
CYCLES = scaled(small=3, full=30)
WARM_UP_CALLS = 60  # caches, first imports and the first page loads settle before the baseline
MAX_RSS_GROWTH_MB = 40
# One round of a user's session: (tool, arguments); `{site}` is the test site's base URL.
ROUND: list[tuple[str, dict[str, Any]]] = [
    ("navigate", {"url": "{site}/login"}),
    ("query_elements", {"selector": "form button[type=submit]"}),
    ("fill_element", {"selector": "#email", "text": "soak@example.test"}),
    ("inspect_element", {"description": "password field"}),
    ("evaluate_js", {"expression": "document.title"}),
    ("press_key", {"key": "Tab"}),
    ("get_console_logs", {"limit": 5}),
    ("list_network_requests", {"limit": 5}),
    ("browser_screenshot", {"format": "jpeg", "quality": 30}),
    ("list_targets", {}),
    ("navigate", {"url": "{site}/table"}),
    ("query_elements", {"selector": "tr", "limit": 3}),
    ("wait_for", {"selector": "table", "timeout_ms": 2000}),
    ("click_element", {"selector": "a", "index": 2}),
    ("query_elements", {"selector": "#does-not-exist"}),  # no match: answered with suggestions, not an error
]


def resources(connections: ConnectionManager) -> dict[str, int]:
    status = Path("/proc/self/status").read_text()
    rss_kb = int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])
    pending = sum(connections.get(info.id).cdp.pending_count for info in connections.list())
    return {
        "rss_mb": rss_kb // 1024,
        "open_fds": len(os.listdir("/proc/self/fd")),
        "threads": threading.active_count(),
        "asyncio_tasks": len(asyncio.all_tasks()),
        "pending_cdp_commands": pending,
    }


def percentiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive") if len(samples) > 1 else samples * 99
    return {
        "p50_ms": round(cuts[49] * 1000, 1),
        "p95_ms": round(cuts[94] * 1000, 1),
        "p99_ms": round(cuts[98] * 1000, 1),
    }


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


async def test_soak_mixed_calls_and_launch_cycles(site: str, report: Report) -> None:
    connections = ConnectionManager(env=chrome_env())
    registry = in_process_registry(connections, "legacy", Settings(rate_limit=None))
    timings: dict[str, list[float]] = defaultdict(list)
    outcomes: dict[str, int] = defaultdict(int)

    async def call(tool: str, arguments: dict[str, Any]) -> None:
        arguments = {k: v.format(site=site) if isinstance(v, str) else v for k, v in arguments.items()}
        started = time.monotonic()
        result = await registry.call(tool, arguments)
        timings[tool].append(time.monotonic() - started)
        outcomes[str((result.meta or {}).get("cdpilot/errorType")) if result.is_error else "ok"] += 1

    try:
        await call("chrome_launch", {})
        for index in range(WARM_UP_CALLS):
            await call(*ROUND[index % len(ROUND)])
        before = resources(connections)
        for index in range(CALLS):
            await call(*ROUND[index % len(ROUND)])
        for _ in range(CYCLES):
            await call("chrome_launch", {"connection_id": "cycle"})
            await call("navigate", {"url": "{site}/", "connection_id": "cycle"})
            await call("chrome_disconnect", {"connection_id": "cycle"})
        after = resources(connections)
    finally:
        await connections.aclose()

    growth = {name: after[name] - before[name] for name in before}
    report.record(
        "soak",
        calls=CALLS + WARM_UP_CALLS,
        launch_close_cycles=CYCLES,
        outcomes=dict(outcomes),
        before=before,
        after=after,
        growth=growth,
        latency_by_tool={tool: percentiles(samples) for tool, samples in sorted(timings.items())},
    )
    assert outcomes.get("UNKNOWN", 0) == 0, outcomes
    assert set(outcomes) == {"ok"}, outcomes
    assert growth["rss_mb"] < MAX_RSS_GROWTH_MB, growth
    assert growth["open_fds"] <= 2 and growth["threads"] <= 1 and growth["asyncio_tasks"] <= 2, growth
    assert after["pending_cdp_commands"] == 0
