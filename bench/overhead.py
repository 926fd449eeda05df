"""Per-call overhead over stdio, for a call that touches no browser (`chrome_list_connections`).

Four servers run side by side: the floor (read a line, write a canned reply), the stock SDK
path (`bench.stock_server`), and cdpilot in both modes (smart spells the call
``chrome(action="list")``). Rounds interleave them, rotating who goes first, so a load
spike on this shared machine hits every server alike. CPU per call and throughput are
medians over rounds; the latency percentiles pool every sequential call of every round.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from bench.pipe import CLOCK_TICKS, PipeServer
from bench.stats import median, percentile

ROUNDS = 5
SEQUENTIAL_CALLS = 800
PIPELINED_CALLS = 500
IN_FLIGHT = 32
WARMUP_CALLS = 200


@dataclass(frozen=True)
class Contender:
    """A server to measure and how it spells the trivial call."""

    name: str
    argv: tuple[str, ...]
    tool: str = "chrome_list_connections"
    arguments: dict[str, Any] = field(default_factory=dict)

    def call_template(self) -> bytes:
        """A tools/call line with ``%d`` where the id goes."""
        params = json.dumps({"name": self.tool, "arguments": self.arguments}, separators=(",", ":")).encode()
        return b'{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":%s}\n' % params


# The per-tool rate limit stays on (its check is part of every call) but out of reach of a benchmark.
UNREACHED_RATE_LIMIT = ("--rate-limit", "1000000/1")
FLOOR = Contender("floor", ("-m", "bench.floor_server"))
STOCK = Contender("stock SDK", ("-m", "bench.stock_server", "legacy"))
CDPILOT_LEGACY = Contender("cdpilot legacy", ("-m", "cdpilot.cli", "--mode", "legacy", *UNREACHED_RATE_LIMIT))
CDPILOT_SMART = Contender(
    "cdpilot smart", ("-m", "cdpilot.cli", "--mode", "smart", *UNREACHED_RATE_LIMIT), "chrome", {"action": "list"}
)
CONTENDERS = (FLOOR, STOCK, CDPILOT_LEGACY, CDPILOT_SMART)


@dataclass
class Overhead:
    """Everything measured for one contender, per round or per call."""

    name: str
    reply_chars: int = 0
    rss_kib: int = 0  # after every round
    cpu_us: list[float] = field(default_factory=list)  # server CPU per sequential call, one per round
    cpu_ticks: int = 0  # /proc/<pid>/stat utime + stime over every sequential call, the cross-check
    latencies_us: list[float] = field(default_factory=list)  # every sequential call, pooled
    throughput: list[float] = field(default_factory=list)  # calls/s with IN_FLIGHT outstanding, one per round

    def summary(self) -> dict[str, Any]:
        return {
            "reply_chars": self.reply_chars,
            "rss_mib": self.rss_kib / 1024,
            "cpu_us_per_call": median(self.cpu_us),
            "cpu_us_per_call_rounds": self.cpu_us,
            "cpu_us_per_call_proc_stat": self.cpu_ticks / CLOCK_TICKS * 1e6 / len(self.latencies_us),
            "latency_p50_us": percentile(self.latencies_us, 50),
            "latency_p99_us": percentile(self.latencies_us, 99),
            "throughput_calls_per_s": median(self.throughput),
            "throughput_rounds": self.throughput,
        }


def sequential(server: PipeServer, template: bytes, calls: int, out: Overhead) -> None:
    """One call at a time: latency of each, server CPU over all of them."""
    cpu_before, ticks_before = server.cpu_ns(), server.cpu_ticks()
    for _ in range(calls):
        started = time.perf_counter_ns()
        server.call_ok(template)
        out.latencies_us.append((time.perf_counter_ns() - started) / 1000)
    out.cpu_us.append((server.cpu_ns() - cpu_before) / 1000 / calls)
    out.cpu_ticks += server.cpu_ticks() - ticks_before


def pipelined(server: PipeServer, template: bytes, calls: int, in_flight: int) -> float:
    """Calls per second with `in_flight` requests outstanding at every moment."""
    started = time.perf_counter()
    sent = 0
    while sent < min(in_flight, calls):
        server.write(template % server.new_id())
        sent += 1
    for _ in range(calls):
        line = server.read_line()
        if b'"result"' not in line or b'"isError":true' in line:
            raise RuntimeError(f"a pipelined call failed: {line[:500]!r}")
        if sent < calls:
            server.write(template % server.new_id())
            sent += 1
    return calls / (time.perf_counter() - started)


def measure(contenders: tuple[Contender, ...] = CONTENDERS, rounds: int = ROUNDS) -> dict[str, dict[str, Any]]:
    """The summary of every contender, by name."""
    results = {c.name: Overhead(c.name) for c in contenders}
    servers: list[PipeServer] = []
    try:
        for contender in contenders:
            servers.append(PipeServer(contender.argv))
        for contender, server in zip(contenders, servers, strict=True):
            server.initialize()
            _, results[contender.name].reply_chars = server.call_tool(contender.tool, contender.arguments)
            for _ in range(WARMUP_CALLS):
                server.call_ok(contender.call_template())
        pairs = list(zip(contenders, servers, strict=True))
        for round_no in range(rounds):
            shift = round_no % len(pairs)
            for contender, server in pairs[shift:] + pairs[:shift]:
                template = contender.call_template()
                sequential(server, template, SEQUENTIAL_CALLS, results[contender.name])
                results[contender.name].throughput.append(pipelined(server, template, PIPELINED_CALLS, IN_FLIGHT))
        for contender, server in pairs:
            results[contender.name].rss_kib = server.rss_kib()
    finally:
        for server in servers:
            server.close()
    return {name: found.summary() for name, found in results.items()}
