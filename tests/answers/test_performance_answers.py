"""The performance answers, on hand-built facts: every measure, and every way one is missing."""

from __future__ import annotations

from cdpilot.answers.performance_answers import metrics_answer, trace_answer
from cdpilot.browser.performance.performance_facts import (
    Interactions,
    LargestPaint,
    LayoutShifts,
    LongTasks,
    NavigationTiming,
    PerformanceMetrics,
    SlowResource,
    TraceFile,
)

PAGE = "http://127.0.0.1:8000/shop"


def measured(**changes: object) -> PerformanceMetrics:
    facts: dict[str, object] = {
        "url": PAGE,
        "measuring_since_ms": None,
        "lcp": LargestPaint(1234.4, "img#hero", "http://127.0.0.1:8000/hero.jpg"),
        "cls": LayoutShifts(0.10767, "div.card.sale"),
        "long_tasks": LongTasks((203.0, 61.5)),
        "interactions": Interactions("measured", 3, 96.0, "click", "button#buy"),
        "navigation": NavigationTiming(4.2, 230.0, 410.9),
        "resources": (
            SlowResource("http://127.0.0.1:8000/hero.jpg", 350.0, 120_000),
            SlowResource("https://cdn.example/lib.js?v=2", 120.0, None),
        ),
        "resource_total": 14,
    }
    facts.update(changes)
    return PerformanceMetrics(**facts)  # type: ignore[arg-type]


def test_every_measure_in_one_short_answer() -> None:
    assert metrics_answer(measured()) == (
        "Performance of http://127.0.0.1:8000/shop:\n"
        "LCP 1,234 ms: img#hero (image /hero.jpg).\n"
        "CLS 0.108: div.card.sale moved most.\n"
        "INP 96 ms: click on button#buy (3 interactions).\n"
        "Navigation: TTFB 4 ms, DOMContentLoaded 230 ms, load 411 ms.\n"
        "Long tasks: 2, 264 ms in all, the longest 203 ms.\n"
        "Slowest of 14 resources: /hero.jpg 350 ms, 117 KB; https://cdn.example/lib.js?v=2 120 ms, size unknown."
    )


def test_what_was_not_measured_is_said_never_zero() -> None:
    answer = metrics_answer(
        measured(
            lcp=None,
            cls=LayoutShifts(0.0, None),
            long_tasks=LongTasks(()),
            interactions=Interactions("none", 0),
            navigation=NavigationTiming(12.0, None, None),
            resources=(),
            resource_total=0,
            measuring_since_ms=2500.0,
        )
    )
    assert answer == (
        "Performance of http://127.0.0.1:8000/shop:\n"
        "LCP: nothing painted yet.\n"
        "CLS 0: nothing shifted.\n"
        "INP: no interaction yet.\n"
        "Navigation: TTFB 12 ms, DOMContentLoaded not reached yet, load not reached yet.\n"
        "Long tasks: none (no task of 50 ms or more).\n"
        "Resources: none loaded.\n"
        "Interactions are measured from 2.5 s on (when measuring started); {tool:reload} the page to measure "
        "from its start."
    )


def test_interactions_before_measuring_and_unsupported_entries() -> None:
    answer = metrics_answer(
        measured(
            lcp="unsupported",
            cls="unsupported",
            long_tasks="unsupported",
            interactions=Interactions("before", 2),
            navigation=None,
            measuring_since_ms=800.0,
        )
    )
    assert answer.splitlines()[1:6] == [
        "LCP: not recorded by this browser.",
        "CLS: not recorded by this browser.",
        "INP: not measurable: the 2 interactions so far came before measuring started; interact again, "
        "or {tool:reload} the page to measure from its start.",
        "Navigation timing: no document load to measure.",
        "Long tasks: not recorded by this browser.",
    ]
    assert "Interactions are measured from" not in answer  # the INP line already says it


def test_fast_interactions_and_elements_that_left_the_page() -> None:
    answer = metrics_answer(
        measured(
            lcp=LargestPaint(80.0, None, None),
            cls=LayoutShifts(0.25, None),
            interactions=Interactions("fast", 1),
        )
    )
    assert answer.splitlines()[1:4] == [
        "LCP 80 ms: an element that has left the page.",
        "CLS 0.25: an element that has left the page moved most.",
        "INP: under 16 ms (1 interaction, none slow enough to be reported).",
    ]


def test_a_long_resource_url_is_cut() -> None:
    long_url = "https://cdn.example/" + "a" * 100
    answer = metrics_answer(measured(resources=(SlowResource(long_url, 10.0, 10),), resource_total=1))
    assert answer.endswith(f"Slowest of 1 resource: {long_url[:79]}… 10 ms, 10 B.")


def trace(**changes: object) -> TraceFile:
    facts: dict[str, object] = {
        "path": "/out/trace-20261127-101500.json",
        "size": 3_400_000,
        "events": 25_431,
        "span_ms": 5120.0,
        "recorded_ms": 5004.2,
        "longest_task_ms": 212.4,
        "navigations": (),
        "load_missed": False,
    }
    facts.update(changes)
    return TraceFile(**facts)  # type: ignore[arg-type]


def test_a_timed_trace() -> None:
    assert trace_answer(trace(), url=PAGE, reload=False) == (
        "Recorded a 5.0 s trace of http://127.0.0.1:8000/shop to /out/trace-20261127-101500.json: "
        "25,431 events, 3,400,000 bytes (3.2 MB), spanning 5.1 s.\n"
        "Longest main-thread task 212 ms.\n"
        "Open it in DevTools' Performance panel (Load profile)."
    )


def test_a_trace_around_a_reload_that_did_not_finish() -> None:
    navigations = tuple(f"http://127.0.0.1:8000/{n}" for n in ("shop", "a", "b", "c"))
    answer = trace_answer(
        trace(longest_task_ms=None, navigations=navigations, load_missed=True, span_ms=None, events=1),
        url=PAGE,
        reload=True,
    )
    assert answer == (
        "Recorded a 5.0 s trace around a reload of http://127.0.0.1:8000/shop to "
        "/out/trace-20261127-101500.json: 1 event, 3,400,000 bytes (3.2 MB).\n"
        "4 navigations: http://127.0.0.1:8000/shop, http://127.0.0.1:8000/a, http://127.0.0.1:8000/b and 1 more.\n"
        "The page did not finish loading in that time: the trace holds what was recorded until then.\n"
        "Open it in DevTools' Performance panel (Load profile)."
    )
