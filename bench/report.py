"""The printed table: every section's medians, with the ratios to the baselines next to them.

Input is the report dict `bench.__main__` also writes to ``bench-report.json``; nothing here
measures anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench import (
    body_capture,
    console_memory,
    devserver_debugging,
    http_sessions,
    node_debugging,
    outline_size,
    sourcemap_bench,
    sourcemap_pause,
)
from bench.stats import ratio


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned first column, right-aligned figures."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = []
    for row in (header, *rows):
        cells = [str(row[0]).ljust(widths[0])] + [str(c).rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  " + "  ".join(cells))
    return lines


def _x(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:.0f}×"


def overhead_section(found: dict[str, dict[str, Any]], setup: dict[str, Any]) -> list[str]:
    stock, floor = found["stock SDK"], found["floor"]
    rows = [
        [
            name,
            f"{f['cpu_us_per_call']:.0f}",
            f"{f['latency_p50_us']:.0f}",
            f"{f['latency_p99_us']:.0f}",
            f"{f['throughput_calls_per_s']:.0f}",
            f"{f['rss_mib']:.1f}",
        ]
        for name, f in found.items()
    ]
    ratios = [
        [
            f"{name} / {base_name}",
            _x(ratio(f["cpu_us_per_call"], base["cpu_us_per_call"])),
            _x(ratio(f["latency_p50_us"], base["latency_p50_us"])),
            _x(ratio(f["latency_p99_us"], base["latency_p99_us"])),
            _x(ratio(f["throughput_calls_per_s"], base["throughput_calls_per_s"])),
            "",
        ]
        for name, f in found.items()
        if name.startswith("cdpilot")
        for base_name, base in (("stock", stock), ("floor", floor))
    ]
    return [
        f"1. Per-call overhead over stdio: chrome_list_connections (smart: chrome action=list), {setup['rounds']} "
        f"rounds × {setup['sequential_calls']} sequential + {setup['pipelined_calls']} with {setup['in_flight']} "
        "in flight",
        *_table(["server", "CPU µs/call", "p50 µs", "p99 µs", f"calls/s @{setup['in_flight']}", "RSS MiB"], rows),
        "",
        *_table(["ratio", "CPU/call", "p50", "p99", "calls/s", ""], ratios),
    ]


def cold_start_section(tools_list: dict[str, dict[str, Any]], scenario: dict[str, Any]) -> list[str]:
    stock = tools_list["stock SDK"]
    rows = [
        [
            name,
            f"{f['median_s'] * 1000:.0f}",
            _x(ratio(f["median_s"], stock["median_s"])),
            f"{f['first_call_median_s'] * 1000:.0f}",
            _x(ratio(f["first_call_median_s"], stock["first_call_median_s"])),
        ]
        for name, f in tools_list.items()
    ]
    runs = len(stock["runs_s"])
    launched, navigated = scenario["steps"]["launch"], scenario["steps"]["navigate"]
    return [
        f"2. Cold start, median of {runs} fresh processes",
        *_table(["spawn → initialize → tools/list", "ms", "vs stock", "→ first call at once, ms", "vs stock"], rows),
        f"  spawn → chrome_launch → navigate finished (cdpilot legacy, the scenario's {scenario['runs']} runs): "
        f"initialized {scenario['initialized_since_spawn_ms_median']:.0f} ms, launched "
        f"{launched['since_spawn_ms_median']:.0f} ms, navigated {navigated['since_spawn_ms_median']:.0f} ms",
    ]


def scenario_section(scenario: dict[str, Any], cdp: dict[str, Any]) -> list[str]:
    rows = []
    for label, f in scenario["steps"].items():
        counted = cdp["steps"][label]
        not_waiting = counted["in_process_ms_median"] - counted["cdp_busy_ms_median"]
        rows.append(
            [
                label,
                f"{f['wall_ms_median']:.1f}",
                str(f["text_chars"]),
                str(f["wire_chars"]),
                f"{counted['commands_median']:g}",
                f"{counted['in_process_ms_median']:.1f}",
                f"{counted['cdp_busy_ms_median']:.1f}",
                f"{not_waiting:.1f}",
            ]
        )
    rows.append(["total", f"{scenario['total_ms_median']:.0f}", "", "", "", "", "", ""])
    return [
        f"3. Browser scenario on 127.0.0.1/login, cdpilot legacy over stdio (median of {scenario['runs']} runs); "
        f"CDP commands counted in-process (median of {cdp['runs']})",
        *_table(
            ["step", "stdio ms", "text chars", "wire chars", "CDP cmds", "in-process ms", "CDP busy ms", "other ms"],
            rows,
        ),
        f"  raw CDP round trip (Browser.getVersion): {cdp['round_trip_ms_median']:.2f} ms; CDP busy = some command "
        "in flight; other = in-process time with none in flight (own work, waits for events such as a load)",
    ]


def memory_section(scenario: dict[str, Any], overhead: dict[str, dict[str, Any]]) -> list[str]:
    return [
        f"4. Memory: cdpilot RSS {scenario['rss_idle_mib_median']:.1f} MiB after the handshake, "
        f"{scenario['rss_after_scenario_mib_median']:.1f} MiB after the scenario "
        f"(stock SDK server: {overhead['stock SDK']['rss_mib']:.1f} MiB after its calls)",
    ]


def profile_section(profile: dict[str, Any], cpu_ratio: float) -> list[str]:
    packages = [
        [name, f"{p['us_per_call']:.0f}", f"{p['share'] * 100:.0f}%"]
        for name, p in profile["by_package"].items()
        if p["share"] >= 0.01
    ]
    functions = [
        [f["function"][:90], f"{f['calls_per_call']:.1f}", f"{f['own_us_per_call']:.0f}"]
        for f in profile["top_functions"]
    ]
    verdict = "met" if cpu_ratio <= 1 / 3 else "missed"
    return [
        f"5. Profile of cdpilot legacy over {profile['calls']} trivial calls (cProfile timed by CPU, start-up "
        f"subtracted; {profile['profiled_us_per_call']:.0f} profiled µs/call, {profile['coverage'] * 100:.0f}% of the "
        "process CPU under the profiler)",
        f"  target CPU/call ≤ 1/3 of stock: {verdict} ({_x(cpu_ratio)})",
        *_table(["own time by package", "µs/call", "share"], packages),
        "",
        *_table(["top functions by own time", "calls/call", "µs/call"], functions),
    ]


def first_contact_section(figures: dict[str, Any]) -> list[str]:
    e2e, loaded_first = figures["end_to_end"], figures["modules_loaded_first"]
    navigated = e2e["navigated_ms"]
    ratios, above = figures["ratios"], figures["above_floor_ms"]
    in_process, floor = figures["in_process"]["steps"], figures["floor"]["steps"]

    def rows(steps: dict[str, dict[str, Any]]) -> list[list[str]]:
        return [[s["label"], f"{s['ms_median']:.1f}", f"{s['since_start_ms_median']:.0f}"] for s in steps.values()]

    return [
        f"6. First navigate with auto-launch (no browser connected) to 127.0.0.1{figures['page']}, median of "
        f"{figures['runs']} rounds",
        f"  end to end, a fresh cdpilot legacy with the official mcp client over stdio: initialized "
        f"{e2e['initialized_ms']['median']:.0f} ms, navigate answered {navigated['median']:.0f} ms after spawn "
        f"(min {navigated['min']:.0f}, max {navigated['max']:.0f})",
        f"  with a trivial call and a resources/list first (they wait for the call layer and the SDK: "
        f"{loaded_first['modules_loaded_ms']['median']:.0f} ms after spawn), the navigate call alone: "
        f"{loaded_first['navigate_call_ms']['median']:.0f} ms",
        *_table(["in-process, cdpilot's handlers", "step ms", "since call ms"], rows(in_process)),
        "",
        *_table(["raw floor: same flags, pipe, minimal CDP", "step ms", "since spawn ms"], rows(floor)),
        f"  end to end / floor: {_x(ratios['end_to_end_over_floor'])} (Chromium's start-up and the page are "
        f"{ratios['floor_share_of_end_to_end'] * 100:.0f}% of the end-to-end time); in-process / floor: "
        f"{_x(ratios['in_process_over_floor'])}; since each spawn, first CDP answer "
        f"{_x(ratios['first_answer_since_spawn_over_floor'])} and page loaded "
        f"{_x(ratios['loaded_since_spawn_over_floor'])} the floor's",
        f"  above the floor: {above['total']:.0f} ms = server start and handshake "
        f"{above['server_start_and_handshake']:.0f} + waiting for the call layer "
        f"{above['waiting_for_server_modules']:.0f} + MCP over stdio {above['mcp_over_stdio']:.0f} + in-process "
        f"{above['in_process_above_floor']:.0f} (medians of separate runs: a small part may come out below zero)",
    ]


def render(report: dict[str, Any]) -> str:
    env = report["environment"]
    overhead = report["per_call_overhead"]
    cpu_ratio = ratio(overhead["cdpilot legacy"]["cpu_us_per_call"], overhead["stock SDK"]["cpu_us_per_call"])
    sections = [
        [
            f"cdpilot bench, {env['date']}: Python {env['python']}, {env['chromium']}, {env['cpus']} CPUs, "
            f"load average {env['load_before']:.2f} before / {env['load_after']:.2f} after, {env['seconds']:.0f} s",
        ],
        overhead_section(overhead, report["per_call_setup"]),
        cold_start_section(report["cold_start_tools_list"], report["scenario"]),
        scenario_section(report["scenario"], report["cdp_commands"]),
        memory_section(report["scenario"], overhead),
        profile_section(report["profile"], cpu_ratio),
        first_contact_section(report["first_contact"]),
        http_sessions.report_lines(report["http"]),
        sourcemap_bench.report_lines(report["source_maps"]) + sourcemap_pause.report_lines(report["source_maps_live"]),
        devserver_debugging.report_lines(report["devserver_debugging"]),
        node_debugging.report_lines(report["node_debugging"]),
        console_memory.report_lines(report["console_memory"]),
        body_capture.report_lines(report["body_capture"]),
        outline_size.report_lines(report["outline_size"]),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections)
