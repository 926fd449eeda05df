"""The first `navigate` of a fresh server, which launches Chromium by itself: end to end,
where its time goes, and a raw floor, in rounds of one run each.

1. End to end: a fresh cdpilot (legacy mode) spawned by the official `mcp` client over stdio,
   initialize, then `navigate` to the test site's login page with no browser connected, timed
   from just before the spawn to the answer. The SDK client rather than the raw pipe of the
   other sections: this is the wait an agent sees, and the client's own cost is a few ms next
   to a browser start. A second fresh server makes a trivial call first, which waits for the
   call layer the server loads behind the handshake, then a resources/list, which waits for
   the SDK loaded after it; its navigate then shows the call alone.
2. Where the time goes: the same call in-process, through cdpilot's `Registry` and handlers on
   a `ConnectionManager(env=chrome_env())`, time-stamped by wrapping the real calls for the
   duration (no timing hooks in src/): Chromium spawned, its first CDP answer
   (`Browser.getVersion`), `BrowserConnection.start` done (origin guard, target discovery, page
   attached and enabled), window fitted, page loaded (`loading.navigate`), answer written.
3. The floor: Chromium started by the bench with cdpilot's command line (its flags and its
   debugging pipe) by the cheapest spawn there is, driven by a blocking client of a few lines:
   first answer, then attach, Page.enable, Page.navigate and Page.loadEventFired. What cdpilot
   takes above it is its own, the MCP server's start-up included.

Rounds rotate which of the four goes first, so a load spike on this shared machine hits each
alike; one warm-up round is not counted (the first Chromium start of a run reads its binary
from disk). Every browser gets the test flags, and the page is served on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any
from unittest import mock

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench import ROOT, compile_bytecode
from bench.overhead import CDPILOT_LEGACY
from bench.pipe import server_env
from bench.stats import median, ratio
from cdpilot.browser.page import loading
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import (
    TMP_SUBDIR,
    LaunchedBrowser,
    browser_args,
    browser_env,
    option_args,
)
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.cdp.client import CdpConnection
from cdpilot.context import Settings, ToolContext
from cdpilot.handlers.table import HANDLERS
from cdpilot.server.registry import Registry
from tests.support.chromium import CHROMIUM, TEST_CHROME_ARGS, chrome_env, processes_with, wait_gone
from tests.support.pages import serve_pages
from tests.support.site import SITE

RUNS = 5
PAGE = "/login"
TITLE = "Sign in"  # the login page's, checked in every answer: a fast failure must not be timed as a load
FLOOR_TIMEOUT_S = 30.0
# The milestones of one in-process first navigate, in order; each step ends at its milestone.
IN_PROCESS_STEPS = {
    "spawn_started": "call → spawn (arguments, browser found, temp profile)",
    "spawned": "spawn Chromium (and the profile reaper)",
    "cdp_answered": "→ first CDP answer (Chromium's start-up)",
    "attached": "→ page attached (guard, discovery, enables)",
    "fitted": "→ window fitted",
    "load_started": "→ navigate begins",
    "loaded": "→ page loaded",
    "answered": "→ answer written",
}
FLOOR_STEPS = {
    "spawned": "spawn Chromium",
    "cdp_answered": "→ first CDP answer (Chromium's start-up)",
    "loaded": "→ page loaded (attach, Page.enable, navigate, load)",
}


def _summary(marks: Sequence[dict[str, float]], steps: dict[str, str]) -> dict[str, Any]:
    """Per step its median and runs in ms, and the median time since the start at its end;
    every mark is seconds since the run's start."""
    found: dict[str, Any] = {}
    previous = [0.0] * len(marks)
    for key, label in steps.items():
        at = [run[key] for run in marks]
        lengths = [(end - start) * 1000 for start, end in zip(previous, at, strict=True)]
        found[key] = {
            "label": label,
            "ms_median": median(lengths),
            "ms_runs": lengths,
            "since_start_ms_median": median([a * 1000 for a in at]),
        }
        previous = at
    return found


def _spread(values_s: Sequence[float]) -> dict[str, Any]:
    values_ms = [v * 1000 for v in values_s]
    return {"median": median(values_ms), "min": min(values_ms), "max": max(values_ms), "runs": values_ms}


# 1. End to end, over stdio with the official client.


async def _end_to_end(url: str, *, load_first: bool) -> dict[str, float]:
    """Seconds from spawn to initialized, to the trivial call answered (`load_first`), and to
    the first navigate answered.

    The server answers the handshake while a thread still imports the call layer, and its
    first tools/call waits for that (not for the SDK, imported after it). With `load_first`, a
    trivial call made at once (`chrome_list_connections`) waits instead, and a resources/list
    after it waits for the SDK too, so the navigate after them shows the launch and load over
    stdio alone, and the difference shows the wait for the call layer."""
    params = StdioServerParameters(command=sys.executable, args=list(CDPILOT_LEGACY.argv), env=server_env(), cwd=ROOT)
    marks: dict[str, float] = {}
    with tempfile.TemporaryFile("w+", prefix="cdpilot-bench-server-stderr-") as stderr:  # its banner, kept off ours
        started = time.perf_counter()
        async with Client(stdio_client(params, errlog=stderr), mode="legacy", read_timeout_seconds=60) as client:
            marks["initialized"] = time.perf_counter() - started
            if load_first:
                await client.call_tool("chrome_list_connections", {})
                await client.list_resources()  # only the SDK answers it: it is in once this returns
                marks["modules_loaded"] = time.perf_counter() - started
            result = await client.call_tool("navigate", {"url": url})
            marks["navigated"] = time.perf_counter() - started
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error or "Launched" not in text or TITLE not in text:
            stderr.seek(0)
            raise RuntimeError(f"the first navigate did not launch and load: {text[:500]}\n{stderr.read()[-2000:]}")
    return marks


# 2. In-process, time-stamped around the real calls.


class _Stamps:
    """Marks of one first navigate (perf_counter seconds), each taken the first time it is reached."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}

    def mark(self, key: str) -> None:
        self.marks.setdefault(key, time.perf_counter())

    def around(self, original: Callable[..., Any], before: str | None, after: str) -> Callable[..., Any]:
        """`original` (a coroutine function) with marks taken before it runs and once it returns."""

        async def stamped(*args: Any, **kwargs: Any) -> Any:
            if before is not None:
                self.mark(before)
            result = await original(*args, **kwargs)
            self.mark(after)
            return result

        return stamped

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        """The real calls of a launch and a navigation, wrapped for the duration to mark where they
        begin or end (the class methods are taken bound, so their wrappers drop `cls`)."""
        spawn, send_command = LaunchedBrowser.spawn, CdpConnection.send_command
        start = self.around(BrowserConnection.start, None, "attached")

        def stamped_spawn(cls: type[LaunchedBrowser], *args: Any) -> LaunchedBrowser:
            self.mark("spawn_started")
            process = spawn(*args)
            self.mark("spawned")
            return process

        async def stamped_start(cls: type[BrowserConnection], *args: Any, **kwargs: Any) -> BrowserConnection:
            connection: BrowserConnection = await start(*args, **kwargs)
            return connection

        async def first_answer(connection: CdpConnection, method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
            reply = await send_command(connection, method, *args, **kwargs)
            if method == "Browser.getVersion":
                self.mark("cdp_answered")
            return reply

        with (
            mock.patch.object(LaunchedBrowser, "spawn", classmethod(stamped_spawn)),
            mock.patch.object(BrowserConnection, "start", classmethod(stamped_start)),
            mock.patch.object(CdpConnection, "send_command", first_answer),
            mock.patch.object(
                BrowserConnection, "fit_window", self.around(BrowserConnection.fit_window, None, "fitted")
            ),
            mock.patch.object(loading, "navigate", self.around(loading.navigate, "load_started", "loaded")),
        ):
            yield


async def _in_process(url: str) -> dict[str, float]:
    """The marks of one first navigate through cdpilot's handlers, in seconds since the call."""
    stamps = _Stamps()
    with tempfile.TemporaryDirectory(prefix="cdpilot-bench-") as output_dir:
        connections = ConnectionManager(env=chrome_env())
        registry = Registry(ToolContext(connections, "legacy", Settings(output_dir=Path(output_dir))), HANDLERS)
        try:
            with stamps.patched():
                called = time.perf_counter()
                result = await registry.call("navigate", {"url": url})
                stamps.mark("answered")
            text = "".join(getattr(block, "text", "") for block in result.content)
            if result.is_error or TITLE not in text:
                raise RuntimeError(f"the in-process first navigate failed: {text[:500]}")
        finally:
            await connections.aclose()
            connections.kill_all_now()
    return {key: at - called for key, at in stamps.marks.items()}


# 3. The floor: raw Chromium, minimal CDP.


class _RawPipe:
    """A blocking CDP client over Chromium's debugging pipes (NUL-terminated JSON either way)."""

    def __init__(self, read_fd: int, write_fd: int, stderr: IO[bytes]) -> None:
        self._read_fd, self._write_fd, self._stderr = read_fd, write_fd, stderr
        self._buffer = b""
        self._last_id = 0
        self._deadline = time.monotonic() + FLOOR_TIMEOUT_S
        self.events: list[tuple[str, str | None]] = []  # (method, sessionId) of the events read so far

    def send(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None) -> Any:
        """The result of one command; events read while waiting go to `events`."""
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        os.write(self._write_fd, json.dumps(message).encode() + b"\0")
        while "id" not in (reply := self._read()) or reply["id"] != self._last_id:
            self.events.append((reply.get("method", ""), reply.get("sessionId")))
        if "error" in reply:
            raise RuntimeError(f"the floor's {method} failed: {reply['error']}")
        return reply["result"]

    def wait_event(self, method: str, session_id: str) -> None:
        while (method, session_id) not in self.events:
            event = self._read()
            self.events.append((event.get("method", ""), event.get("sessionId")))

    def _read(self) -> dict[str, Any]:
        while (end := self._buffer.find(b"\0")) < 0:
            left = self._deadline - time.monotonic()
            ready = left > 0 and select.select([self._read_fd], [], [], left)[0]
            chunk = os.read(self._read_fd, 1 << 16) if ready else b""
            if not chunk:
                self._stderr.seek(0)
                raise RuntimeError(f"the floor's Chromium stopped answering: {self._stderr.read()[-2000:]!r}")
            self._buffer += chunk
        message: dict[str, Any] = json.loads(self._buffer[:end])
        self._buffer = self._buffer[end + 1 :]
        return message


def _floor(url: str) -> dict[str, float]:
    """Marks of raw Chromium from spawn to the page's load event, in seconds since the spawn.

    The command line is cdpilot's own (`browser_args`, its window and screen flags for the
    default viewport, the test flags), so the same browser does the same start-up. The
    spawn is `posix_spawn`, with the pipes put on fds 3 and 4 by the spawn itself."""
    assert CHROMIUM is not None, "Chromium is not installed"
    profile_dir = tempfile.mkdtemp(prefix="cdpilot-bench-floor-")
    os.mkdir(os.path.join(profile_dir, TMP_SUBDIR))
    flags = option_args(LaunchOptions())
    args = browser_args(
        profile_dir=profile_dir,
        headless=True,
        options=flags,
        env_args=TEST_CHROME_ARGS,
        extra_args=(),
        start_url="about:blank",
    )
    command_read, command_write = os.pipe()
    event_read, event_write = os.pipe()
    # Above 4 first, so that neither dup2 below overwrites the other end or is a no-op.
    child_ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (command_read, event_write)]
    for fd in (command_read, event_write):
        os.close(fd)
    pid = 0
    with tempfile.TemporaryFile(prefix="cdpilot-bench-floor-stderr-") as stderr:
        try:
            started = time.perf_counter()
            pid = os.posix_spawn(
                CHROMIUM,
                [CHROMIUM, *args],
                browser_env(os.environ, profile_dir),
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, stderr.fileno(), 2),  # first: its descriptor may be 3 or 4
                    (os.POSIX_SPAWN_DUP2, child_ends[0], 3),
                    (os.POSIX_SPAWN_DUP2, child_ends[1], 4),
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                ],
                setsid=True,
            )
            spawned = time.perf_counter()
            for fd in child_ends:
                os.close(fd)
            child_ends = []
            pipe = _RawPipe(event_read, command_write, stderr)
            pipe.send("Browser.getVersion")
            answered = time.perf_counter()
            targets = pipe.send("Target.getTargets")["targetInfos"]
            page = next(t["targetId"] for t in targets if t["type"] == "page")
            session = pipe.send("Target.attachToTarget", {"targetId": page, "flatten": True})["sessionId"]
            pipe.send("Page.enable", session_id=session)
            pipe.events.clear()
            pipe.send("Page.navigate", {"url": url}, session_id=session)
            pipe.wait_event("Page.loadEventFired", session)
            loaded = time.perf_counter()
        finally:
            for fd in (*child_ends, event_read, command_write):
                os.close(fd)
            if pid:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            wait_gone(processes_with(profile_dir), 10)  # its helpers write into the profile as they die
            shutil.rmtree(profile_dir, ignore_errors=True)
    return {"spawned": spawned - started, "cdp_answered": answered - started, "loaded": loaded - started}


# The rounds.


def measure(base_url: str, runs: int = RUNS) -> dict[str, Any]:
    """Every contender once per round, in turn; the summary in ms, with the ratios to the floor
    and the ms above it split by where they go (medians, so the parts add up to the whole)."""
    url = base_url + PAGE
    cold: list[dict[str, float]] = []
    loaded_first: list[dict[str, float]] = []
    in_process: list[dict[str, float]] = []
    floor: list[dict[str, float]] = []
    contenders: list[Callable[[], None]] = [
        lambda: cold.append(asyncio.run(_end_to_end(url, load_first=False))),
        lambda: loaded_first.append(asyncio.run(_end_to_end(url, load_first=True))),
        lambda: in_process.append(asyncio.run(_in_process(url))),
        lambda: floor.append(_floor(url)),
    ]
    for round_no in range(runs + 1):
        shift = round_no % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            contender()
        if round_no == 0:  # the warm-up
            for found in (cold, loaded_first, in_process, floor):
                found.clear()

    steps = _summary(in_process, IN_PROCESS_STEPS)
    floor_steps = _summary(floor, FLOOR_STEPS)
    navigate_call = [run["navigated"] - run["modules_loaded"] for run in loaded_first]
    end_to_end_ms = median([run["navigated"] for run in cold]) * 1000
    initialized_ms = median([run["initialized"] for run in cold]) * 1000
    navigate_call_ms = median(navigate_call) * 1000
    in_process_ms = steps["answered"]["since_start_ms_median"]
    floor_ms = floor_steps["loaded"]["since_start_ms_median"]
    # cdpilot's figures from its spawn on, next to the floor's (whose clock starts at its spawn).
    since_spawn = {
        key: median([(run[key] - run["spawn_started"]) * 1000 for run in in_process])
        for key in ("cdp_answered", "loaded")
    }
    return {
        "runs": runs,
        "page": PAGE,
        "end_to_end": {
            "initialized_ms": _spread([run["initialized"] for run in cold]),
            "navigated_ms": _spread([run["navigated"] for run in cold]),
        },
        "modules_loaded_first": {
            "modules_loaded_ms": _spread([run["modules_loaded"] for run in loaded_first]),
            "navigate_call_ms": _spread(navigate_call),
        },
        "in_process": {"steps": steps, "total_ms_median": in_process_ms, "since_spawn_ms_median": since_spawn},
        "floor": {"steps": floor_steps, "total_ms_median": floor_ms},
        "ratios": {
            "end_to_end_over_floor": ratio(end_to_end_ms, floor_ms),
            "in_process_over_floor": ratio(in_process_ms, floor_ms),
            "floor_share_of_end_to_end": ratio(floor_ms, end_to_end_ms),
            "first_answer_since_spawn_over_floor": ratio(
                since_spawn["cdp_answered"], floor_steps["cdp_answered"]["since_start_ms_median"]
            ),
            "loaded_since_spawn_over_floor": ratio(since_spawn["loaded"], floor_ms),
        },
        "above_floor_ms": {
            "total": end_to_end_ms - floor_ms,
            "server_start_and_handshake": initialized_ms,
            "waiting_for_server_modules": end_to_end_ms - initialized_ms - navigate_call_ms,
            "mcp_over_stdio": navigate_call_ms - in_process_ms,
            "in_process_above_floor": in_process_ms - floor_ms,
        },
    }


if __name__ == "__main__":
    from bench.report import first_contact_section  # the report imports this module

    compile_bytecode("src", "generated")  # as `make bench` does: the spawned servers must not measure the compiler
    with serve_pages(SITE) as base:
        print("\n".join(first_contact_section(measure(base))))
