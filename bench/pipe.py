"""A raw pipe client: write JSON-RPC lines to a server's stdin, read its stdout line by line.

No SDK client on purpose: its own cost (pydantic models, memory streams, tasks) would be
added to every server's figure and blur the differences being measured. The client is
synchronous and the same for every server, so its cost cancels out of the ratios.

Server CPU is read from the kernel's CPU-time clock of the server process (all its
threads, exited ones included, in nanoseconds): what utime + stime in /proc/<pid>/stat
count, without their 10 ms granularity (a few thousand calls of the floor fit in one
tick). The /proc figure is kept as a cross-check. Every server is ended by its pid.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from bench import ROOT
from tests.support.chromium import TEST_CHROME_ARGS

HANDSHAKE_VERSION = "2025-11-25"  # the newest revision the mcp 2.3 SDK serves through initialize
CPUCLOCK_SCHED = 2  # Linux: a process-wide CPU clock id is (~pid << 3) | CPUCLOCK_SCHED
EXIT_TIMEOUT_S = 20.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def server_env() -> dict[str, str]:
    """The environment of every server: offline flags for any Chromium it launches."""
    env = {k: v for k, v in os.environ.items() if k not in ("CDPILOT_MODE", "USE_LEGACY_TOOLS")}
    env["CDPILOT_CHROME_ARGS"] = shlex.join(TEST_CHROME_ARGS)
    return env


def request_line(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


class ServerDied(RuntimeError):
    """The server closed stdout before answering; carries the tail of its stderr."""


class PipeServer:
    """One server subprocess spoken to over raw pipes. Use as a context manager."""

    def __init__(self, argv: Sequence[str]) -> None:
        self._stderr = os.memfd_create("bench-server-stderr")  # kept for the error message if it dies
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=server_env(),
            cwd=ROOT,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin_fd = self.proc.stdin.fileno()
        self._stdout = self.proc.stdout
        self._next_id = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

    def __enter__(self) -> PipeServer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def write(self, line: bytes) -> None:
        os.write(self._stdin_fd, line)

    def read_line(self) -> bytes:
        line = self._stdout.readline()
        if not line:
            size = os.fstat(self._stderr).st_size
            tail = os.pread(self._stderr, 2000, max(0, size - 2000)).decode(errors="replace")
            raise ServerDied(f"server {self.proc.args!r} closed stdout; stderr ends with:\n{tail}")
        return line

    def read_reply(self, request_id: int) -> bytes:
        """The raw reply line to `request_id`, skipping notifications and other replies."""
        while True:
            line = self.read_line()
            if json.loads(line).get("id") == request_id:
                return line

    def call_ok(self, template: bytes) -> None:
        """One call from a line template (``%d`` for the id); raises unless it succeeded.

        Checked on every call: a tool failing mid-run (say, a handler being edited) would
        otherwise be timed as a fast error path."""
        request_id = self.new_id()
        self.write(template % request_id)
        line = self.read_reply(request_id)
        if b'"result"' not in line or b'"isError":true' in line:
            raise RuntimeError(f"a benchmark call failed: {line[:500]!r}")

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        request_id = self.new_id()
        self.write(request_line(request_id, method, params))
        reply: dict[str, Any] = json.loads(self.read_reply(request_id))
        if "error" in reply:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return reply

    def initialize(self) -> dict[str, Any]:
        """The initialize handshake every MCP session starts with (then notifications/initialized)."""
        reply = self.request(
            "initialize",
            {"protocolVersion": HANDSHAKE_VERSION, "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        self.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        return reply

    def call_tool(self, name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """The tools/call result and the length of the reply line (characters on the wire)."""
        request_id = self.new_id()
        self.write(request_line(request_id, "tools/call", {"name": name, "arguments": arguments}))
        line = self.read_reply(request_id)
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{name} failed: {reply['error']}")
        result: dict[str, Any] = reply["result"]
        if result.get("isError"):
            raise RuntimeError(f"{name} failed: {result['content'][0]['text']}")
        return result, len(line.decode()) - 1

    def cpu_ns(self) -> int:
        """CPU time the server has used so far, all threads, in nanoseconds."""
        return time.clock_gettime_ns(((~self.pid) << 3) | CPUCLOCK_SCHED)

    def cpu_ticks(self) -> int:
        """utime + stime from /proc/<pid>/stat, in clock ticks (`CLOCK_TICKS` a second): a cross-check."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def rss_kib(self) -> int:
        """Resident set size of the server process now (VmRSS), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError(f"no VmRSS for pid {self.pid}")

    def close(self) -> None:
        """End the server: stdin EOF first (cdpilot then closes its browsers), its pid killed if it lingers."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(EXIT_TIMEOUT_S)
        except (subprocess.TimeoutExpired, OSError):
            self.proc.kill()
            self.proc.wait()
        finally:
            self._stdout.close()
            os.close(self._stderr)
