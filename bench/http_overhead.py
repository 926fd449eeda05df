"""Per-call overhead of Streamable HTTP against stdio, from the official SDK clients, in the same run.

One cdpilot legacy server per transport, each spoken to by the SDK's own client (stdio:
``StdioServerParameters``; HTTP: ``streamable_http_client`` over httpx), both in one event
loop. Rounds interleave the two, alternating who goes first, so a load spike on this shared
machine hits both alike. The call touches no browser (`chrome_list_connections`), so what is
measured is the transport, the SDK on both sides and cdpilot's dispatch. Latency is what the
client sees, its own SDK cost included (that is the overhead an agent pays); server CPU per
call comes from each server process's CPU clock. On stdio cdpilot answers tools/call on its
fast path; over HTTP every call goes through the SDK's session manager.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import AsyncExitStack
from typing import Any

import anyio
import httpx2 as httpx
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from bench import ROOT
from bench.http_server import children_of, http_server, process_cpu_ns
from bench.overhead import UNREACHED_RATE_LIMIT
from bench.pipe import server_env
from bench.stats import median, percentile, ratio

ROUNDS = 6
CALLS_PER_ROUND = 150
WARMUP_CALLS = 50
TOOL = "chrome_list_connections"


def _children() -> set[int]:
    return set(children_of(os.getpid()))


async def _timed_calls(client: Client, calls: int, latencies_us: list[float]) -> None:
    for _ in range(calls):
        started = time.perf_counter_ns()
        result = await client.call_tool(TOOL, {})
        latencies_us.append((time.perf_counter_ns() - started) / 1000)
        if result.is_error:
            raise RuntimeError(f"{TOOL} failed: {result.content}")


async def _measure() -> dict[str, dict[str, Any]]:
    latencies: dict[str, list[float]] = {"stdio": [], "http": []}
    cpu_us: dict[str, list[float]] = {"stdio": [], "http": []}
    with http_server("legacy", *UNREACHED_RATE_LIMIT) as server:
        async with AsyncExitStack() as stack:
            before = _children()
            stdio_params = StdioServerParameters(
                command=sys.executable,
                args=["-m", "cdpilot.cli", "--mode", "legacy", *UNREACHED_RATE_LIMIT],
                env=server_env(),
                cwd=ROOT,
            )
            stdio = await stack.enter_async_context(Client(stdio_params, mode="legacy", read_timeout_seconds=60))
            (stdio_pid,) = _children() - before - {server.proc.pid}
            web = await stack.enter_async_context(httpx.AsyncClient(timeout=httpx.Timeout(60)))
            http = await stack.enter_async_context(
                Client(streamable_http_client(server.url, http_client=web), mode="legacy", read_timeout_seconds=60)
            )
            clients = {"stdio": (stdio, stdio_pid), "http": (http, server.proc.pid)}
            for client, _ in clients.values():
                await _timed_calls(client, WARMUP_CALLS, [])
            order = list(clients)
            for round_no in range(ROUNDS):
                for name in order[round_no % 2 :] + order[: round_no % 2]:
                    client, pid = clients[name]
                    cpu_before = process_cpu_ns(pid)
                    await _timed_calls(client, CALLS_PER_ROUND, latencies[name])
                    cpu_us[name].append((process_cpu_ns(pid) - cpu_before) / 1000 / CALLS_PER_ROUND)
    return {
        name: {
            "latency_p50_us": percentile(latencies[name], 50),
            "latency_p99_us": percentile(latencies[name], 99),
            "server_cpu_us_per_call": median(cpu_us[name]),
            "server_cpu_us_per_call_rounds": cpu_us[name],
            "calls": len(latencies[name]),
        }
        for name in latencies
    }


def measure() -> dict[str, Any]:
    """The figures of both transports and the HTTP/stdio ratios, for the report."""
    found = anyio.run(_measure)
    stdio, http = found["stdio"], found["http"]
    return {
        "rounds": ROUNDS,
        "calls_per_round": CALLS_PER_ROUND,
        "transports": found,
        "http_over_stdio": {
            key: ratio(http[key], stdio[key]) for key in ("latency_p50_us", "latency_p99_us", "server_cpu_us_per_call")
        },
    }


def report_lines(figures: dict[str, Any]) -> list[str]:
    per = figures["transports"]
    ratios = figures["http_over_stdio"]
    lines = [
        f"HTTP vs stdio, trivial call ({TOOL}), official SDK clients, cdpilot legacy, {figures['rounds']} "
        f"interleaved rounds × {figures['calls_per_round']} sequential calls each",
    ]
    for name in ("stdio", "http"):
        f = per[name]
        lines.append(
            f"  {name:5}  p50 {f['latency_p50_us']:,.0f} µs  p99 {f['latency_p99_us']:,.0f} µs  "
            f"server CPU {f['server_cpu_us_per_call']:,.0f} µs/call"
        )
    lines.append(
        f"  HTTP/stdio  p50 {ratios['latency_p50_us']:.2f}×  p99 {ratios['latency_p99_us']:.2f}×  "
        f"server CPU {ratios['server_cpu_us_per_call']:.2f}× (latency includes each SDK client's own cost)"
    )
    return lines
