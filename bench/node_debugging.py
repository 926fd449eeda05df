"""`python -m bench.node_debugging`: debugging a Node.js program through the real server over
stdio (the official mcp client), on the node-api app of tests/fixtures/devapps: a TypeScript HTTP
server compiled by tsc to CommonJS, one map per file without the sources' text, so cdpilot reads
the maps and the TypeScript from disk. Needs the apps installed (`make devapps`); the app is
built (tsc) into a temporary copy first. Every call is timed from the client's side, request sent
to answer read, so the figures hold the JSON-RPC over stdio as an agent sees it.

1. Attach, legacy mode: the bench starts ``node --inspect=127.0.0.1:<free port> dist/server.js``
   itself; each round times `chrome_connect` with ``port``, then `chrome_disconnect` (which leaves
   an attached process running). A trivial call goes first: the server loads its handlers after
   the handshake and its first call waits for them (the first-contact section times that), which
   is no part of attaching. The first round is still the server's first attach, so it is reported
   beside the median. Then by process id, no goal: fresh processes started without
   ``--inspect``, where the first `chrome_connect` with ``pid`` sends SIGUSR1 and waits for the
   inspector to open (Node.js opens it on 127.0.0.1:9229, so this is skipped when that port is
   taken; cdpilot looks every 50 ms), and a second one finds it open.
2. First bind on a tsc map: each round runs the server afresh with `node_run` (a new connection,
   and a connection keeps its own maps, so none is cached), waits for its listening line (by then
   ``dist/prices.js`` is loaded), and times the first `debugger_set_breakpoint` on
   ``src/prices.ts`` at ``@prices-line-cost``, which turns the debugger on, reads the script's map
   from disk and binds the line. Rounds turn about (ABBA) with rounds that call `debugger_enable`
   first, to tell turning the debugger on from binding.
3. Pause answer size, smart mode (default answers): the server run with `node_run`, that
   breakpoint set, a request to ``/api/total?items=3`` made from a thread; the characters of the
   `debugger_wait_for_pause` answer and of the call stack then, and whether each lists the app's
   frames (``lineTotal``, ``orderTotal``); then the breakpoint is removed and the request runs on.

Network: 127.0.0.1 only (the inspector and the app's HTTP server). The bench ends the processes
it starts itself by their pids; the server ends the ones it ran on `chrome_disconnect`.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bench.stats import median
from tests.e2e.harness import ModeClient, mcp_client
from tests.support.devservers import free_port
from tests.support.nodeapps import NODE_API, PRICES_TS, QUIET, SERVER_JS, built_node_app, marker_line

MARKER = "prices-line-cost"
USER_FRAMES = ("lineTotal", "orderTotal")
ATTACH_ROUNDS = 10
PID_ROUNDS = 4  # a fresh process each: SIGUSR1 opens the inspector once per process
BIND_PAIRS = 5  # ABBA: 10 rounds in each arm
ATTACH_GOAL_MS = 200.0
BIND_GOAL_MS = 100.0
ANSWER_GOAL_CHARS = 2500
DEFAULT_INSPECTOR_PORT = 9229
START_TIMEOUT_S = 15.0
# The program's stdout line with its base URL, as get_console_logs shows it (after a prefix).
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")


def _start(app: Path, inspect: tuple[str, ...]) -> subprocess.Popen[bytes]:
    """The built server, started by the bench (not by cdpilot), once it printed its listening line."""
    process = subprocess.Popen(
        ["node", *inspect, SERVER_JS],
        cwd=app,
        env={**os.environ, **QUIET, "PORT": "0"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if not LISTENING.search(line):
        _end(process)
        raise RuntimeError(f"node {SERVER_JS} did not start: {line!r}")
    return process


def _end(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    process.wait()
    if process.stdout is not None:
        process.stdout.close()


@asynccontextmanager
async def _node_server(app: Path, *inspect: str) -> AsyncIterator[subprocess.Popen[bytes]]:
    """A server process of the bench's own, killed by its pid afterwards."""
    process = await asyncio.to_thread(_start, app, inspect)
    try:
        yield process
    finally:
        await asyncio.to_thread(_end, process)


def _port_taken(port: int) -> bool:
    """Whether something listens on 127.0.0.1:`port` (a socket left closing does not count)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
        return False


async def _timed(client: ModeClient, tool: str, **arguments: Any) -> tuple[float, str]:
    """The ms a call that must succeed took, from the client's side, and its answer."""
    started = time.perf_counter()
    answer = await client.ok(tool, **arguments)
    return (time.perf_counter() - started) * 1000, answer


def _summary(runs: list[float]) -> dict[str, Any]:
    return {"median_ms": median(runs), "first_ms": runs[0], "max_ms": max(runs), "runs_ms": runs}


async def _attach_by_port(client: ModeClient, app: Path) -> dict[str, Any]:
    port = free_port()
    async with _node_server(app, f"--inspect=127.0.0.1:{port}") as process:
        runs: list[float] = []
        for _ in range(ATTACH_ROUNDS):
            took, attached = await _timed(client, "chrome_connect", port=port)
            if f"pid={process.pid}" not in attached:
                raise RuntimeError(f"attached to something else: {attached}")
            runs.append(took)
            await client.ok("chrome_disconnect")
        return _summary(runs)


async def _attach_by_pid(client: ModeClient, app: Path) -> dict[str, Any]:
    """Each process once with SIGUSR1 (the inspector opens on 9229), then once more (open already)."""
    if _port_taken(DEFAULT_INSPECTOR_PORT):
        return {"skipped": f"127.0.0.1:{DEFAULT_INSPECTOR_PORT} is taken, where SIGUSR1 opens the inspector"}
    opening: list[float] = []
    open_already: list[float] = []
    for _ in range(PID_ROUNDS):
        async with _node_server(app) as process:
            for runs in (opening, open_already):
                took, attached = await _timed(client, "chrome_connect", pid=process.pid)
                if f"pid={process.pid}" not in attached:
                    raise RuntimeError(f"attached to something else: {attached}")
                runs.append(took)
                await client.ok("chrome_disconnect")
    return {"opening_inspector": _summary(opening), "inspector_open": _summary(open_already)}


async def _server_url(client: ModeClient) -> str:
    """The base URL the program run by cdpilot printed on its stdout (a console entry)."""
    async with asyncio.timeout(START_TIMEOUT_S):
        while True:
            found = LISTENING.search(await client.ok("get_console_logs"))
            if found:
                return found.group(1)
            await asyncio.sleep(0.05)


async def _run_server(client: ModeClient, app: Path) -> str:
    """The built server run by cdpilot under the inspector (ended by `chrome_disconnect`); its base URL."""
    await client.ok("node_run", command=["node", SERVER_JS], cwd=str(app), env={"PORT": "0"})
    return await _server_url(client)


async def _first_bind(client: ModeClient, app: Path, line: int, *, enabled_first: bool) -> tuple[float, float]:
    """One round: a fresh program, then the time of its first breakpoint, which must bind, and
    of the `debugger_enable` before it (0 when there was none)."""
    await _run_server(client, app)
    try:
        enabling = (await _timed(client, "debugger_enable"))[0] if enabled_first else 0.0
        took, answer = await _timed(client, "debugger_set_breakpoint", url=PRICES_TS, line_number=line)
        if "bp1" not in answer or f"{PRICES_TS}:" not in answer:
            raise RuntimeError(f"the breakpoint did not bind: {answer}")
        return took, enabling
    finally:
        await client.ok("chrome_disconnect")


async def _bind_rounds(client: ModeClient, app: Path, line: int) -> dict[str, Any]:
    off: list[float] = []
    on: list[float] = []
    enabling: list[float] = []
    for _ in range(BIND_PAIRS):
        for enabled_first in (False, True, True, False):
            took, enable_ms = await _first_bind(client, app, line, enabled_first=enabled_first)
            if enabled_first:
                on.append(took)
                enabling.append(enable_ms)
            else:
                off.append(took)
    return {
        "runs_each": len(off),
        "debugger_off_ms_median": median(off),
        "debugger_off_ms_max": max(off),
        "debugger_off_runs_ms": off,
        "debugger_on_ms_median": median(on),
        "debugger_on_runs_ms": on,
        "enable_ms_median": median(enabling),
    }


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return str(answer.read().decode())


def _lists_frame(text: str, name: str) -> bool:
    """Whether `text` lists a frame of function `name` (``#1 orderTotal src/prices.ts:17:14``)."""
    return re.search(rf"#\d+ {re.escape(name)} ", text) is not None


async def _answers(app: Path, line: int) -> dict[str, Any]:
    async with mcp_client("smart") as session:
        client = ModeClient(session, "smart")
        base = await _run_server(client, app)
        try:
            await client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=line)
            request = asyncio.create_task(asyncio.to_thread(_fetch, f"{base}/api/total?items=3"))
            paused = await client.ok("debugger_wait_for_pause", timeout_ms=15000)
            stack = await client.ok("debugger_get_call_stack")
            await client.ok("debugger_remove_breakpoint", breakpoint_id="bp1")  # it would pause on each item
            await client.ok("debugger_resume")
            answered = await request
        finally:
            await client.ok("chrome_disconnect")
    figures: dict[str, Any] = {"request_answered": answered}
    for label, text in (("pause", paused), ("call_stack", stack)):
        figures[label] = {
            "chars": len(text),
            "frames_listed": {name: _lists_frame(text, name) for name in USER_FRAMES},
            "paused_at_breakpoint": f"{PRICES_TS}:{line}:" in text,
            "text": text,
        }
    return figures


async def _legacy(app: Path, line: int) -> dict[str, Any]:
    async with mcp_client("legacy") as session:
        client = ModeClient(session, "legacy")
        await client.ok("chrome_list_connections")  # the handlers loaded: see the docstring
        attach = {"port": await _attach_by_port(client, app), "pid": await _attach_by_pid(client, app)}
        return {"attach": attach, "bind": await _bind_rounds(client, app, line)}


def _node_version() -> str:
    return subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()


def measure() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cdpilot-bench-node-") as workdir:
        app = built_node_app(NODE_API, Path(workdir))
        line = marker_line(app / PRICES_TS, MARKER)
        figures = asyncio.run(_legacy(app, line))
        figures["answers"] = asyncio.run(_answers(app, line))
        figures["breakpoint"] = f"{PRICES_TS}:{line} (@{MARKER})"
        figures["node"] = _node_version()
        figures["load_average"] = os.getloadavg()[0]
        return figures


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def report_lines(figures: dict[str, Any]) -> list[str]:
    port, pid = figures["attach"]["port"], figures["attach"]["pid"]
    bind, answers = figures["bind"], figures["answers"]
    lines = [
        f"Debugging a Node.js program over stdio (node-api on Node.js {figures['node']}: TypeScript by tsc, maps "
        f"read from disk; breakpoint {figures['breakpoint']}; load average {figures['load_average']:.1f})",
        f"  attach by port (chrome_connect port=, legacy): {port['median_ms']:.1f} ms median, "
        f"{port['max_ms']:.1f} ms max over {len(port['runs_ms'])} rounds, the server's first "
        f"{port['first_ms']:.1f} ms (goal ≤ {ATTACH_GOAL_MS:.0f} ms: {_verdict(port['median_ms'] <= ATTACH_GOAL_MS)})",
    ]
    if "skipped" in pid:
        lines.append(f"  attach by process id: skipped, {pid['skipped']}")
    else:
        opening, already = pid["opening_inspector"], pid["inspector_open"]
        lines.append(
            f"  attach by process id (chrome_connect pid=): {opening['median_ms']:.0f} ms median when it opens the "
            f"inspector with SIGUSR1, {already['median_ms']:.1f} ms when it is open already "
            f"({len(opening['runs_ms'])} processes; no goal)"
        )
    lines += [
        f"  first breakpoint on a tsc map (debugger_set_breakpoint, fresh node_run each): "
        f"{bind['debugger_off_ms_median']:.1f} ms median, {bind['debugger_off_ms_max']:.1f} ms max over "
        f"{bind['runs_each']} (goal ≤ {BIND_GOAL_MS:.0f} ms: "
        f"{_verdict(bind['debugger_off_ms_median'] <= BIND_GOAL_MS)}); with the debugger on already "
        f"{bind['debugger_on_ms_median']:.1f} ms median, after a debugger_enable of "
        f"{bind['enable_ms_median']:.1f} ms ({bind['runs_each']} rounds, ABBA)",
    ]
    for label, what, goal in (
        ("pause", "pause answer (smart: execution wait)", ANSWER_GOAL_CHARS),
        ("call_stack", "call stack then", None),
    ):
        found = answers[label]
        missing = [name for name, listed in found["frames_listed"].items() if not listed]
        frames = f"missing {', '.join(missing)}" if missing else f"lists {', '.join(found['frames_listed'])}"
        verdict = f" (goal ≤ {goal:,} chars: {_verdict(found['chars'] <= goal)})" if goal is not None else ""
        lines.append(f"  {what}: {found['chars']:,} chars, {frames}{verdict}")
    return lines


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
