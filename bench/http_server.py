"""cdpilot over Streamable HTTP as a subprocess for the bench, and what its processes hold in memory.

The server gets the test Chromium flags plus a marker of its own among them, so the browsers
it launches (and only those) can be found by their command line, and measured with every process
below them (Chromium's crash handlers detach from the tree and are left out, about 4 MiB each). Its
stderr (one access-log line per request) goes to an unlinked file, never a pipe nobody reads.
Its temp profiles go to a TMPDIR of its own, removed at the end. It is ended by SIGTERM to its
pid, which closes every session's browsers.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import ROOT
from tests.support.chromium import TEST_CHROME_ARGS, processes_with

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _status_kib(pid: int, field: str) -> int:
    """A ``kB`` line of /proc/<pid>/status (VmRSS) or smaps_rollup (Pss); 0 once the process is gone."""
    source = "status" if field.startswith("Vm") else "smaps_rollup"
    try:
        text = Path(f"/proc/{pid}/{source}").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


@dataclass(frozen=True)
class Memory:
    """One reading: the server's RSS, and its browsers' processes summed two ways.

    Summed RSS counts every shared page (Chromium's binary, fonts) once per process, so it
    overstates; PSS splits each shared page between the processes sharing it, so the sum is
    what these browsers really add to the machine."""

    server_rss_kib: int
    browsers: int
    browser_processes: int
    browser_rss_kib: int
    browser_pss_kib: int


@dataclass
class HttpServer:
    proc: subprocess.Popen[bytes]
    port: int
    marker: str
    tmp: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def browser_pids(self) -> list[int]:
        """Every process of this server's browsers: each browser (its command line has the marker)
        and all its descendants (zygotes, renderers, GPU, network and storage services)."""
        found, todo = set(), processes_with(self.marker)
        while todo:
            pid = todo.pop()
            if pid not in found:
                found.add(pid)
                todo += children_of(pid)
        return sorted(found)

    def cpu_seconds(self) -> tuple[float, dict[int, float]]:
        """CPU time used so far (user + system): the server's, and each of its browser processes'."""
        return _cpu_s(self.proc.pid), {pid: _cpu_s(pid) for pid in self.browser_pids()}

    def memory(self) -> Memory:
        pids = self.browser_pids()
        return Memory(
            server_rss_kib=_status_kib(self.proc.pid, "VmRSS"),
            browsers=len(processes_with(self.marker)),
            browser_processes=len(pids),
            browser_rss_kib=sum(_status_kib(pid, "VmRSS") for pid in pids),
            browser_pss_kib=sum(_status_kib(pid, "Pss") for pid in pids),
        )


def _cpu_s(pid: int) -> float:
    """A process's user + system CPU seconds from /proc/<pid>/stat; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """Pids of a process's children (every thread's), from /proc; none once it has exited."""
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def process_cpu_ns(pid: int) -> int:
    """CPU time a process has used so far, all threads, from the kernel's per-process CPU clock."""
    return time.clock_gettime_ns(((~pid) << 3) | 2)  # Linux: CPUCLOCK_SCHED of that pid


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def http_server(mode: str = "legacy", *flags: str) -> Iterator[HttpServer]:
    """cdpilot ``--transport http`` on a free port of 127.0.0.1, once it listens."""
    port, marker = free_port(), f"--cdpilot-bench-server={uuid.uuid4().hex}"
    tmp = Path(tempfile.mkdtemp(prefix="cdpilot-b-"))  # short: Chromium's socket path must fit below it
    env = {k: v for k, v in os.environ.items() if k not in ("CDPILOT_MODE", "USE_LEGACY_TOOLS")}
    env.update(CDPILOT_MODE=mode, CDPILOT_CHROME_ARGS=shlex.join((*TEST_CHROME_ARGS, marker)), TMPDIR=str(tmp))
    argv = [sys.executable, "-m", "cdpilot.cli", "--transport", "http", "--port", str(port), *flags]
    with tempfile.TemporaryFile(prefix="cdpilot-bench-http-stderr") as stderr:
        proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while proc.poll() is None and not _listening(port):  # no event announces a listening socket
                if time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not listen in time")
                time.sleep(0.05)
            if proc.poll() is not None:
                stderr.seek(0)
                raise RuntimeError(f"the HTTP server exited: {stderr.read()[-2000:].decode(errors='replace')}")
            yield HttpServer(proc, port, marker, tmp)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            shutil.rmtree(tmp, ignore_errors=True)
