"""`python -m bench.http_sessions`: concurrent MCP sessions over Streamable HTTP, and the HTTP section.

One cdpilot legacy server over HTTP, `SESSIONS` sessions of the SDK's HTTP client at once, each
on a page of its own served on 127.0.0.1 (the page's button logs a message naming the page).
Every Chromium gets the test flags. In order:

1. memory before any session, after one session has launched its browser and loaded its
   page, and after all of them have: the server's RSS and its browser processes' RSS and
   PSS summed, so the cost of each added session shows;
2. every session makes `CALLS` mixed calls (navigate, query_elements, click_element,
   get_console_logs, browser_screenshot in turn), all sessions at the same time: latency per
   call kind and every error (the goal is none);
3. cross-session leaks: each session then lists its tabs and reads its console; any other
   session's page or message seen there is a leak (the goal is none), and its own missing
   is counted too.

The whole run is made twice: on the default server, where each session's launch is a browser
context of one shared Chromium, and with ``--browser-per-session``, where each is a Chromium
of its own; the memory a session adds is compared with the goal of at most 30 MiB per
context, and the CPU the server and the browsers used during the mixed calls is told, which
shows where a difference in latency comes from (the server's own work is the same in both).
Plain figures, no thresholds. The section also runs `bench.http_overhead` first.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import asdict
from typing import Any

import anyio
import httpx2 as httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from bench import http_overhead
from bench.http_server import HttpServer, Memory, http_server
from bench.stats import median, percentile
from tests.support.pages import PageSpec, serve_pages

SESSIONS = 8
CALLS = 50
KINDS = ("navigate", "query_elements", "click_element", "get_console_logs", "browser_screenshot")
SHARED_CONTEXT_GOAL_MIB = 30
SERVERS = {"shared browser": (), "browser per session": ("--browser-per-session",)}  # name -> its flags


def page_path(n: int) -> str:
    return f"/session{n}.html"  # no session's path is part of another's


def message(n: int) -> str:
    return f"hello from session {n}!"


def pages() -> dict[str, PageSpec]:
    found: dict[str, PageSpec] = {}
    for n in range(SESSIONS):
        items = "".join(f"<li class=item>item {k}</li>" for k in range(5))
        html = (
            f"<title>Session {n}</title><h1>Session {n}</h1><ul>{items}</ul>"
            f"<button id=b onclick=\"console.log('{message(n)}')\">log</button>"
        )
        found[page_path(n)] = (200, "text/html", html.encode())
    return found


def arguments(kind: str, url: str) -> dict[str, Any]:
    return {
        "navigate": {"url": url},
        "query_elements": {"selector": "li.item"},
        "click_element": {"selector": "#b"},
        "get_console_logs": {},
        "browser_screenshot": {},
    }[kind]


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


class Calls:
    """Latencies per call kind and every error, across sessions."""

    def __init__(self) -> None:
        self.latencies_ms: defaultdict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    async def call(self, client: Client, kind: str, args: dict[str, Any]) -> str:
        started = time.perf_counter()
        try:
            result = await client.call_tool(kind, args)
        except Exception as exc:  # a transport failure is an error of the run, not of the bench
            self.errors.append(f"{kind}: {type(exc).__name__}: {exc}"[:300])
            return ""
        self.latencies_ms[kind].append((time.perf_counter() - started) * 1000)
        text = text_of(result)
        if result.is_error:
            self.errors.append(f"{kind}: {text}"[:300])
        return text

    def summary(self) -> dict[str, Any]:
        return {
            kind: {
                "calls": len(found),
                "p50_ms": percentile(found, 50),
                "p95_ms": percentile(found, 95),
                "median_ms": median(found),
            }
            for kind, found in self.latencies_ms.items()
        }


@asynccontextmanager
async def session(server: HttpServer) -> AsyncIterator[Client]:
    """One MCP session over HTTP with its own connection pool, ended by DELETE."""
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(60, read=300)) as web,
        Client(streamable_http_client(server.url, http_client=web), mode="legacy", read_timeout_seconds=120) as client,
    ):
        yield client


async def _all_at_once(count: int, work: Callable[[int], Any]) -> None:
    async with anyio.create_task_group() as tasks:
        for n in range(count):
            tasks.start_soon(work, n)


async def _measure(base_url: str, flags: tuple[str, ...]) -> dict[str, Any]:
    memory: dict[str, Memory] = {}
    setup, calls = Calls(), Calls()
    leaks = {"foreign_tabs": 0, "foreign_messages": 0, "own_tab_missing": 0, "own_message_missing": 0}
    with http_server("legacy", *flags) as server:
        memory["before"] = server.memory()
        async with AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(session(server))]
            urls = [base_url + page_path(n) for n in range(SESSIONS)]

            async def start(n: int) -> None:
                await setup.call(clients[n], "chrome_launch", {})
                await setup.call(clients[n], "navigate", {"url": urls[n]})

            await start(0)
            memory["after 1 session"] = server.memory()
            clients += [await stack.enter_async_context(session(server)) for _ in range(SESSIONS - 1)]
            await _all_at_once(SESSIONS - 1, lambda n: start(n + 1))
            memory[f"after {SESSIONS} sessions"] = server.memory()

            async def mixed(n: int) -> None:
                for k in range(CALLS):
                    kind = KINDS[k % len(KINDS)]
                    await calls.call(clients[n], kind, arguments(kind, urls[n]))

            server_cpu, browsers_cpu = server.cpu_seconds()
            started = time.perf_counter()
            await _all_at_once(SESSIONS, mixed)
            wall_s = time.perf_counter() - started
            server_after, browsers_after = server.cpu_seconds()
            cpu_s = {
                "server": server_after - server_cpu,
                "browsers": sum(used - browsers_cpu.get(pid, 0.0) for pid, used in browsers_after.items()),
            }
            memory[f"after {SESSIONS} × {CALLS} calls"] = server.memory()
            browser_pids: set[str] = set()
            for n, client in enumerate(clients):
                tabs = await setup.call(client, "list_targets", {})
                console = await setup.call(client, "get_console_logs", {})
                connections = await setup.call(client, "chrome_list_connections", {})
                browser_pids.update(word for word in connections.split() if word.startswith("pid="))
                others = [m for m in range(SESSIONS) if m != n]
                leaks["foreign_tabs"] += sum(tabs.count(page_path(m)) for m in others)
                leaks["foreign_messages"] += sum(console.count(message(m)) for m in others)
                leaks["own_tab_missing"] += page_path(n) not in tabs
                leaks["own_message_missing"] += message(n) not in console
            health: dict[str, Any] = httpx.get(f"http://127.0.0.1:{server.port}/healthz", timeout=10).json()
    return {
        "sessions": SESSIONS,
        "calls_per_session": CALLS,
        "mixed_calls_wall_s": wall_s,
        "mixed_calls_cpu_s": cpu_s,
        "by_kind": calls.summary(),
        "setup_by_kind": setup.summary(),
        "errors": len(calls.errors) + len(setup.errors),
        "error_samples": (setup.errors + calls.errors)[:5],
        "leaks": leaks,
        "browser_pids_seen": len(browser_pids),
        "server_health": health,
        "memory_kib": {stage: asdict(found) for stage, found in memory.items()},
    }


def measure() -> dict[str, Any]:
    """Both parts of the HTTP section: per-call overhead against stdio, then the concurrent sessions."""
    overhead = http_overhead.measure()
    with serve_pages(pages()) as base_url:
        sessions = {name: anyio.run(_measure, base_url, flags) for name, flags in SERVERS.items()}
    return {"per_call": overhead, "sessions": sessions}


def _mib(kib: int) -> str:
    return f"{kib / 1024:,.0f}"


def session_lines(server: str, figures: dict[str, Any]) -> list[str]:
    n, calls = figures["sessions"], figures["calls_per_session"]
    lines = [
        f"{server}: {n} concurrent HTTP sessions × {calls} mixed calls, pages on 127.0.0.1, "
        f"{figures['mixed_calls_wall_s']:.1f} s for all {n * calls} calls",
        f"  {'call':26}{'calls':>7}{'p50 ms':>9}{'p95 ms':>9}",
    ]
    rows = [*figures["by_kind"].items(), *((f"{kind} *", f) for kind, f in figures["setup_by_kind"].items())]
    for kind, f in rows:
        lines.append(f"  {kind:26}{f['calls']:>7}{f['p50_ms']:>9.0f}{f['p95_ms']:>9.0f}")
    lines.append("  * outside the mixed calls: the launch and first page of each session, the leak check after")
    cpu = figures["mixed_calls_cpu_s"]
    lines.append(
        f"  CPU during the mixed calls: server {cpu['server']:.1f} s, browsers {cpu['browsers']:.1f} s "
        f"(on {os.cpu_count()} cores in {figures['mixed_calls_wall_s']:.1f} s)"
    )
    leaks = figures["leaks"]
    lines.append(
        f"  errors: {figures['errors']} (goal 0)" + "".join(f"\n    {sample}" for sample in figures["error_samples"])
    )
    lines.append(
        f"  cross-session leaks: {leaks['foreign_tabs']} foreign tab URLs, {leaks['foreign_messages']} foreign "
        f"console messages (goal 0); own tab missing in {leaks['own_tab_missing']}, own message missing in "
        f"{leaks['own_message_missing']} sessions"
    )
    memory = figures["memory_kib"]
    header = f"{'server RSS':>11}{'browsers':>10}{'processes':>11}{'browser RSS':>13}{'browser PSS':>13}"
    lines.append(f"  {'memory, MiB':24}{header}")
    for stage, m in memory.items():
        lines.append(
            f"  {stage:24}{_mib(m['server_rss_kib']):>11}{m['browsers']:>10}{m['browser_processes']:>11}"
            f"{_mib(m['browser_rss_kib']):>13}{_mib(m['browser_pss_kib']):>13}"
        )
    one, all_ = memory["after 1 session"], memory[f"after {n} sessions"]
    per_session = {
        key: (all_[key] - one[key]) / (n - 1) for key in ("server_rss_kib", "browser_rss_kib", "browser_pss_kib")
    }
    added = {key: f"+{kib / 1024:.1f} MiB" for key, kib in per_session.items()}
    pss_mib = per_session["browser_pss_kib"] / 1024
    verdict = "within" if pss_mib <= SHARED_CONTEXT_GOAL_MIB else "over"
    lines += [
        f"  per added session (1 → {n} sessions): server RSS {added['server_rss_kib']}, browser RSS "
        f"{added['browser_rss_kib']}, browser PSS {added['browser_pss_kib']}",
        f"  {figures['browser_pids_seen']} browser pid(s) for {n} sessions; browser PSS per added session is "
        f"{verdict} the goal of <= {SHARED_CONTEXT_GOAL_MIB} MiB per session context",
    ]
    return lines


def report_lines(figures: dict[str, Any]) -> list[str]:
    lines = http_overhead.report_lines(figures["per_call"])
    for server, found in figures["sessions"].items():
        lines += ["", *session_lines(server, found)]
    return lines


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
