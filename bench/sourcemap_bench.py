"""`python -m bench.sourcemap_bench`: what the source-map core costs on a large real map.

The map is the committed ECharts bundle (tests/fixtures/bundles/dist/large, about 5 MB of
map, a quarter of a million segments). Each figure is the median of several runs, each on a
fresh parse, because the first lookup is what a paused debugger waits for:

1. parse: JSON, sources and names, mappings still text;
2. parse + the first generated → original lookup (decodes every mapping);
3. parse + the first original → generated lookup (decodes, then sorts the original index);
4. a lookup once decoded, each way, in microseconds;
5. memory: the tracemalloc peak of figure 3, and what the parsed, decoded map keeps.

Plain figures, no thresholds: they move with the machine. No node and no network needed.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable

from bench import ROOT
from cdpilot.browser.sourcemaps import SourceMap, parse_source_map

MAP = ROOT / "tests" / "fixtures" / "bundles" / "dist" / "large" / "echarts.js.map"
MAP_URL = "http://127.0.0.1:8000/dist/large/echarts.js.map"
RUNS = 7
LOOKUPS = 20_000


def _median_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        gc.collect()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _first_original(text: str) -> SourceMap:
    source_map = parse_source_map(text, MAP_URL)
    source_map.original_position(0, 1000)
    return source_map


def _first_generated(text: str) -> SourceMap:
    source_map = parse_source_map(text, MAP_URL)
    (line_view,) = source_map.find_sources("chart/line/LineView.js")
    source_map.generated_positions(line_view, 100)
    return source_map


def _lookup_us(source_map: SourceMap) -> tuple[float, float]:
    (line_view,) = source_map.find_sources("chart/line/LineView.js")
    lines = source_map.mapped_lines(line_view)
    start = time.perf_counter()
    for number in range(LOOKUPS):
        source_map.original_position(number % 3, (number * 7919) % 400_000)
    forward = (time.perf_counter() - start) / LOOKUPS * 1e6
    start = time.perf_counter()
    for number in range(LOOKUPS):
        source_map.generated_positions(line_view, lines[number % len(lines)])
    backward = (time.perf_counter() - start) / LOOKUPS * 1e6
    return forward, backward


def measure() -> dict[str, float | int | str]:
    """The figures of the module docstring, for `make bench`'s report."""
    text = MAP.read_text()
    parsed = parse_source_map(text, MAP_URL)
    figures: dict[str, float | int | str] = {
        "map": str(MAP.relative_to(ROOT)),
        "map_mb": len(text) / 1e6,
        "sources": len(parsed.sources),
        "parse_ms": _median_ms(lambda: parse_source_map(text, MAP_URL)),
        "first_generated_to_original_ms": _median_ms(lambda: _first_original(text)),
        "first_original_to_generated_ms": _median_ms(lambda: _first_generated(text)),
    }
    figures["lookup_generated_to_original_us"], figures["lookup_original_to_generated_us"] = _lookup_us(
        _first_generated(text)
    )
    gc.collect()
    tracemalloc.start()
    _first_generated(text)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figures["memory_peak_mb"], figures["memory_kept_mb"] = peak / 1e6, current / 1e6
    return figures


def report_lines(figures: dict[str, float | int | str]) -> list[str]:
    return [
        f"source maps: {figures['map']}, {float(figures['map_mb']):.2f} MB, {figures['sources']} sources",
        f"  parse:                                     {float(figures['parse_ms']):7.1f} ms",
        f"  parse + first generated->original:         {float(figures['first_generated_to_original_ms']):7.1f} ms",
        f"  parse + first original->generated (a bind): {float(figures['first_original_to_generated_ms']):6.1f} ms",
        f"  then one lookup, each way:                 {float(figures['lookup_generated_to_original_us']):7.1f} µs, "
        f"{float(figures['lookup_original_to_generated_us']):.1f} µs",
        f"  memory: peak {float(figures['memory_peak_mb']):.1f} MB, kept {float(figures['memory_kept_mb']):.1f} MB",
    ]


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
