"""The page's performance as the page measures it: Core Web Vitals with their elements,
navigation timing, long tasks and the slowest resources, read with its Performance APIs.

Most entries are buffered by the browser and can be read at any time (``buffered: true``),
but interactions are buffered only from 104 ms on, so an INP needs an observer that runs when
the interaction happens. The first reading starts one in the current document and registers
it for every new document (``Page.addScriptToEvaluateOnNewDocument``, marked as our script so
the debugger lists and stops in none of it): interactions before that are not measurable, and
the answer says to reload to measure from page start.
"""

from __future__ import annotations

import json
from typing import Any

from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.own_scripts import own_expression, page_script
from cdpilot.browser.performance.performance_facts import (
    Interactions,
    LargestPaint,
    LayoutShifts,
    LongTasks,
    NavigationTiming,
    PerformanceMetrics,
    SlowResource,
)
from cdpilot.browser.target import Target, page_of
from cdpilot.errors import ExecutionError

RECORD_KEY = "cdpilot.performance"  # Symbol.for(RECORD_KEY): where the page keeps our record
SLOWEST_RESOURCES = 3


def _call(script: str, *arguments: object) -> str:
    return own_expression(f"(\n{page_script(script)}\n)(...{json.dumps(arguments)})")


async def _evaluate(conn: Target, expression: str, *, await_promise: bool = False) -> Any:
    params = {"expression": expression, "returnByValue": True, "awaitPromise": await_promise, "silent": True}
    reply = await conn.features.unless_blocked(page_of(conn).send("Runtime.evaluate", params))
    if "exceptionDetails" in reply:
        details = reply["exceptionDetails"]
        reason = details.get("exception", {}).get("description") or details.get("text")
        raise ExecutionError(f"The page could not read its performance entries: {reason}")
    return reply["result"].get("value")


async def measure(conn: Target) -> PerformanceMetrics:
    """Start keeping interactions (once per page session), then read every measure; a page paused
    in the debugger is read as it stands: it runs no timer, nor even a promise's reaction."""
    if await _evaluate(conn, _call("performance_observer", RECORD_KEY, False)):
        await page_of(conn).send(
            "Page.addScriptToEvaluateOnNewDocument", {"source": _call("performance_observer", RECORD_KEY, True)}
        )
    if conn.features.get(PageDebugger).paused is None:
        # An interaction's entry is made when the frame after it is presented, which a loaded
        # machine can put off: read too soon, a slow interaction would pass for a fast one.
        await _evaluate(conn, own_expression(page_script("after_two_paints")), await_promise=True)
    found = await _evaluate(conn, _call("performance_metrics", RECORD_KEY, SLOWEST_RESOURCES))
    return _metrics(found)


def _metrics(found: dict[str, Any]) -> PerformanceMetrics:
    lcp, cls, tasks, nav = found["lcp"], found["cls"], found["longTasks"], found["navigation"]
    return PerformanceMetrics(
        url=str(found["url"]),
        measuring_since_ms=found["since"],
        lcp=LargestPaint(float(lcp["time"]), lcp["element"], lcp["url"]) if isinstance(lcp, dict) else lcp,
        cls=LayoutShifts(float(cls["score"]), cls["element"]) if isinstance(cls, dict) else cls,
        long_tasks="unsupported" if tasks is None else LongTasks(tuple(float(t) for t in tasks)),
        interactions=_interactions(found["inp"]),
        navigation=None if nav is None else NavigationTiming(float(nav["ttfb"]), nav["dcl"], nav["load"]),
        resources=tuple(
            SlowResource(str(r["url"]), float(r["duration"]), None if r["size"] is None else int(r["size"]))
            for r in found["resources"]
        ),
        resource_total=int(found["resourceTotal"]),
    )


def _interactions(inp: dict[str, Any]) -> Interactions:
    duration = inp["duration"]
    return Interactions(
        state=inp["state"],
        count=int(inp["interactions"]),
        inp_ms=None if duration is None else float(duration),
        event=inp["event"],
        element=inp["element"],
    )
