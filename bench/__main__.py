"""Run every benchmark in order, print the table, write ``bench-report.json``.

Sections that need pages share one page server on 127.0.0.1 (the test site's login page);
every Chromium gets the test flags, so nothing leaves the machine. Progress goes to stderr.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from bench import (
    ROOT,
    body_capture,
    cdp_count,
    coldstart,
    compile_bytecode,
    console_memory,
    devserver_debugging,
    first_contact,
    http_sessions,
    node_debugging,
    outline_size,
    overhead,
    profiling,
    scenario,
    sourcemap_bench,
    sourcemap_pause,
)
from bench.report import render
from tests.support.chromium import CHROMIUM
from tests.support.pages import serve_pages
from tests.support.site import SITE

REPORT = ROOT / "bench-report.json"


def progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def chromium_version() -> str:
    if CHROMIUM is None:
        raise SystemExit("bench: no Chromium found; `make bench` installs Debian's chromium")
    found = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, check=True)
    return found.stdout.strip()


def run() -> dict[str, Any]:
    started = time.perf_counter()
    compile_bytecode("src", "generated", "bench")
    report: dict[str, Any] = {
        "environment": {
            "date": datetime.date.today().isoformat(),
            "python": sys.version.split()[0],
            "chromium": chromium_version(),
            "cpus": os.cpu_count(),
            "load_before": os.getloadavg()[0],
        },
        "per_call_setup": {
            "rounds": overhead.ROUNDS,
            "sequential_calls": overhead.SEQUENTIAL_CALLS,
            "pipelined_calls": overhead.PIPELINED_CALLS,
            "in_flight": overhead.IN_FLIGHT,
        },
        "section_seconds": {},
    }

    def section(key: str, what: str, measure: Callable[[], Any]) -> None:
        progress(what)
        section_started = time.perf_counter()
        report[key] = measure()
        report["section_seconds"][key] = time.perf_counter() - section_started

    section("per_call_overhead", "per-call overhead: floor, stock SDK, cdpilot legacy and smart", overhead.measure)
    section("cold_start_tools_list", "cold start to tools/list", coldstart.tools_list)
    with serve_pages(SITE) as base_url:
        section(
            "scenario",
            "browser scenario over stdio (and cold start to the first navigate)",
            lambda: scenario.run(base_url),
        )
        section("cdp_commands", "CDP commands per step, in-process", lambda: cdp_count.count(base_url))
        section(
            "first_contact",
            "first navigate with auto-launch: end to end, in-process steps, raw Chromium floor",
            lambda: first_contact.measure(base_url),
        )
    section(
        "http",
        "Streamable HTTP: per-call overhead vs stdio, then concurrent sessions with a browser each",
        http_sessions.measure,
    )
    section("outline_size", "page outline size vs the peers' snapshots, same pages", outline_size.measure)
    section("profile", "cProfile of cdpilot over trivial calls", profiling.measure)
    section("source_maps", "source maps: parse and first lookups on a 5 MB map", sourcemap_bench.measure)
    section("source_maps_live", "source maps in the debugger: pause answers and a first bind", sourcemap_pause.measure)
    section(
        "devserver_debugging",
        "debugging on a Vite dev server: bind latency, reload cost of holding scripts, pause answer size",
        devserver_debugging.measure,
    )
    section(
        "node_debugging",
        "debugging a Node.js program: attach, first bind on a tsc map, pause answer size",
        node_debugging.measure,
    )
    section("console_memory", "console buffer memory at 100,000 messages", console_memory.measure)
    section("body_capture", "a 100 MiB response body: kept by Chrome, saved by cdpilot", body_capture.measure)
    report["environment"].update(load_after=os.getloadavg()[0], seconds=time.perf_counter() - started)
    return report


def main() -> None:
    report = run()
    REPORT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(render(report))
    print(f"\nwritten: {REPORT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
