"""What the performance tools answer: the page's measures in a few short lines, and a saved trace.

Each measure has its line, and one that could not be measured says why and what would measure
it, never a 0: an agent reads "0 ms" as "instant".
"""

from __future__ import annotations

from urllib.parse import urlsplit

from cdpilot.browser.performance.performance_facts import (
    CpuSample,
    Interactions,
    LargestPaint,
    LayoutShifts,
    LongTasks,
    NavigationTiming,
    PerformanceMetrics,
    SlowResource,
    TraceFile,
    Unsupported,
)
from cdpilot.text import exact_size, human_size, plural

URL_CHARS = 80
NOT_RECORDED = "not recorded by this browser"


def _ms(value: float) -> str:
    return f"{round(value):,} ms"


def _seconds(value_ms: float) -> str:
    return f"{value_ms / 1000:.1f} s"


def _short_url(url: str, page_url: str) -> str:
    """A resource of the page's own origin by its path; any URL cut to `URL_CHARS`."""
    parts, page = urlsplit(url), urlsplit(page_url)
    if parts.scheme in ("http", "https") and (parts.scheme, parts.netloc) == (page.scheme, page.netloc):
        url = parts.path + (f"?{parts.query}" if parts.query else "")
    return url if len(url) <= URL_CHARS else url[: URL_CHARS - 1] + "…"


def _lcp_line(lcp: LargestPaint | Unsupported | None, page_url: str) -> str:
    if lcp is None:
        return "LCP: nothing painted yet."
    if lcp == "unsupported":
        return f"LCP: {NOT_RECORDED}."
    element = lcp.element or "an element that has left the page"
    image = f" (image {_short_url(lcp.url, page_url)})" if lcp.url else ""
    return f"LCP {_ms(lcp.time_ms)}: {element}{image}."


def _cls_line(cls: LayoutShifts | Unsupported) -> str:
    if cls == "unsupported":
        return f"CLS: {NOT_RECORDED}."
    if cls.score == 0:
        return "CLS 0: nothing shifted."
    moved = cls.element or "an element that has left the page"
    return f"CLS {cls.score:.3g}: {moved} moved most."


def _inp_line(inp: Interactions) -> str:
    if inp.state == "none":
        return "INP: no interaction yet."
    if inp.state == "fast":
        return f"INP: under 16 ms ({plural(inp.count, 'interaction')}, none slow enough to be reported)."
    if inp.state == "before":
        return (
            f"INP: not measurable: the {plural(inp.count, 'interaction')} so far came before measuring started; "
            "interact again, or {tool:reload} the page to measure from its start."
        )
    assert inp.inp_ms is not None, "a measured INP has its duration"
    target = f" on {inp.element}" if inp.element else ""
    return f"INP {_ms(inp.inp_ms)}: {inp.event}{target} ({plural(inp.count, 'interaction')})."


def _navigation_line(nav: NavigationTiming | None) -> str:
    if nav is None:
        return "Navigation timing: no document load to measure."
    dcl = _ms(nav.dom_content_loaded_ms) if nav.dom_content_loaded_ms is not None else "not reached yet"
    load = _ms(nav.load_ms) if nav.load_ms is not None else "not reached yet"
    return f"Navigation: TTFB {_ms(nav.ttfb_ms)}, DOMContentLoaded {dcl}, load {load}."


def _long_tasks_line(tasks: LongTasks | Unsupported) -> str:
    if tasks == "unsupported":
        return f"Long tasks: {NOT_RECORDED}."
    if not tasks.durations_ms:
        return "Long tasks: none (no task of 50 ms or more)."
    total, longest = sum(tasks.durations_ms), max(tasks.durations_ms)
    return f"Long tasks: {len(tasks.durations_ms)}, {_ms(total)} in all, the longest {_ms(longest)}."


def _resource_text(resource: SlowResource, page_url: str) -> str:
    size = human_size(resource.size) if resource.size is not None else "size unknown"
    return f"{_short_url(resource.url, page_url)} {_ms(resource.duration_ms)}, {size}"


def _resources_line(resources: tuple[SlowResource, ...], total: int, page_url: str) -> str:
    if not resources:
        return "Resources: none loaded."
    slowest = "; ".join(_resource_text(resource, page_url) for resource in resources)
    return f"Slowest of {plural(total, 'resource')}: {slowest}."


def metrics_answer(metrics: PerformanceMetrics) -> str:
    lines = [
        f"Performance of {metrics.url}:",
        _lcp_line(metrics.lcp, metrics.url),
        _cls_line(metrics.cls),
        _inp_line(metrics.interactions),
        _navigation_line(metrics.navigation),
        _long_tasks_line(metrics.long_tasks),
        _resources_line(metrics.resources, metrics.resource_total, metrics.url),
    ]
    if metrics.measuring_since_ms is not None and metrics.interactions.state != "before":
        lines.append(
            f"Interactions are measured from {_seconds(metrics.measuring_since_ms)} on (when measuring started); "
            "{tool:reload} the page to measure from its start."
        )
    return "\n".join(lines)


def trace_answer(trace: TraceFile, *, url: str, reload: bool) -> str:
    what = "around a reload of" if reload else "of"
    span = f", spanning {_seconds(trace.span_ms)}" if trace.span_ms is not None else ""
    lines = [
        f"Recorded a {_seconds(trace.recorded_ms)} trace {what} {url} to {trace.path}: "
        f"{trace.events:,} {'event' if trace.events == 1 else 'events'}, {exact_size(trace.size)}{span}."
    ]
    facts = []
    if trace.longest_task_ms is not None:
        facts.append(f"longest main-thread task {_ms(trace.longest_task_ms)}")
    if trace.navigations:
        shown = ", ".join(_short_url(nav, "") for nav in trace.navigations[:3])
        more = f" and {len(trace.navigations) - 3} more" if len(trace.navigations) > 3 else ""
        facts.append(f"{plural(len(trace.navigations), 'navigation')}: {shown}{more}")
    if facts:
        said = "; ".join(facts)
        lines.append(said[0].upper() + said[1:] + ".")
    if trace.load_missed:
        lines.append("The page did not finish loading in that time: the trace holds what was recorded until then.")
    lines.append("Open it in DevTools' Performance panel (Load profile).")
    return "\n".join(lines)


def cpu_sample_answer(sample: CpuSample) -> str:
    """The busiest functions of a CPU sample, by self time, with their share of it."""
    busy = max(sample.duration_ms - sample.idle_ms, 0.0)
    head = (
        f"CPU sample of {_ms(sample.duration_ms)} ({plural(sample.samples, 'sample')}): busy {_ms(busy)}, "
        f"idle {_ms(sample.idle_ms)}."
    )
    if not sample.functions:
        return f"{head} No JavaScript ran."
    lines = [head, "Top functions by self time:"]
    for hot in sample.functions:
        share = 100 * hot.self_ms / sample.duration_ms if sample.duration_ms else 0
        tag = " [library]" if hot.library else ""
        busiest = f", busiest at line {hot.busiest_line}" if hot.busiest_line is not None else ""
        lines.append(f"  {_ms(hot.self_ms)} ({share:.0f}%) {hot.name} {hot.place}{busiest}{tag}")
    lines.append(
        "Self time is time at the top of the stack. Code the engine inlined counts in its caller, at the "
        "line of the call; a pause ({tool:debugger_pause}) shows the statement running now."
    )
    return "\n".join(lines)
