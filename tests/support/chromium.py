"""Test Chromium processes: the offline flags every one must get, and process bookkeeping.

Every Chromium a test starts gets `TEST_CHROME_ARGS`: headless, no
background traffic, and a host resolver that knows only 127.0.0.1 and localhost, so a
test can never reach the network. Launches through cdpilot get them via
``CDPILOT_CHROME_ARGS`` (`chrome_env`); standalone browsers for connect tests get them here.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

TEST_CHROME_ARGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
_LISTENING = re.compile(rb"DevTools listening on (ws://\S+)")


def chrome_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """An environment for `ConnectionManager(env=...)` that adds the test flags to every launch."""
    return {**(os.environ if base is None else base), "CDPILOT_CHROME_ARGS": shlex.join(TEST_CHROME_ARGS)}


def processes_with(text: str) -> list[int]:
    """Pids of live processes whose command line contains `text` (e.g. a profile dir).

    Zombies have an empty command line, so an exited-but-unreaped process is not counted."""
    needle = text.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue  # it exited while we looked
    return found


def wait_gone(pids: list[int], timeout_s: float) -> list[int]:
    """Wait for these processes to exit (event-driven, via pidfds); returns those still alive."""
    pidfds = {}
    for pid in pids:
        try:
            pidfds[pid] = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
    try:
        deadline = time.monotonic() + timeout_s
        waiting = dict(pidfds)
        while waiting and (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select(list(waiting.values()), [], [], left)
            waiting = {pid: fd for pid, fd in waiting.items() if fd not in ready}
        return sorted(waiting)
    finally:
        for fd in pidfds.values():
            os.close(fd)


def no_processes_with(text: str, timeout_s: float = 10.0) -> bool:
    """True once no live process mentions `text`; waits for stragglers that are exiting."""
    wait_gone(processes_with(text), timeout_s)
    return not processes_with(text)


def leftovers_of(profile_dir: str, timeout_s: float = 10.0) -> list[str]:
    """What a closed browser left behind: live processes using its profile, the profile itself.

    Empty when the browser is fully gone (`assert leftovers_of(profile) == []`)."""
    wait_gone(processes_with(profile_dir), timeout_s)
    found = [f"process {pid}" for pid in processes_with(profile_dir)]
    if os.path.exists(profile_dir):
        found.append(f"directory {profile_dir}")
    return found


def listening_socket_inodes() -> set[str]:
    """Inodes of every listening TCP socket (IPv4 and IPv6) on this machine."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # TCP_LISTEN
                inodes.add(fields[9])
    return inodes


def socket_inodes_of(pid: int) -> set[str]:
    """Inodes of the sockets a process holds open (none once it has exited)."""
    inodes: set[str] = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:
        return inodes
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def cmdline_of(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


@dataclass(frozen=True)
class StandaloneChromium:
    pid: int
    port: int
    ws_url: str
    profile_dir: str


@contextmanager
def standalone_chromium(timeout_s: float = 30.0) -> Iterator[StandaloneChromium]:
    """A Chromium listening on an ephemeral DevTools port of 127.0.0.1, for connect tests.

    Its stderr is read until the ``DevTools listening on ws://...`` line, then drained by a
    thread so the browser never blocks on a full pipe. It is killed by its pid (and its
    process group) at the end, and its profile removed."""
    assert CHROMIUM is not None, "Chromium is not installed"
    profile_dir = tempfile.mkdtemp(prefix="cdpilot-test-standalone-")
    tmp_dir = os.path.join(profile_dir, "tmp")
    os.mkdir(tmp_dir)
    process = subprocess.Popen(
        [
            CHROMIUM,
            *TEST_CHROME_ARGS,
            "--remote-debugging-port=0",
            "--remote-debugging-address=127.0.0.1",
            f"--user-data-dir={profile_dir}",
            "about:blank",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "TMPDIR": tmp_dir},  # its singleton socket dir goes with the profile
    )
    assert process.stderr is not None
    drain: threading.Thread | None = None
    try:
        ws_url = _read_ws_url(process.stderr.fileno(), timeout_s)
        drain = threading.Thread(target=process.stderr.read, name="chromium-stderr", daemon=True)
        drain.start()
        port = int(ws_url.split(":")[2].split("/")[0])
        yield StandaloneChromium(process.pid, port, ws_url, profile_dir)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
        if drain is not None:
            drain.join(10)
        process.stderr.close()
        shutil.rmtree(profile_dir, ignore_errors=True)


def _read_ws_url(fd: int, timeout_s: float) -> str:
    deadline = time.monotonic() + timeout_s
    seen = b""
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            raise RuntimeError(f"Chromium exited before listening: {seen[-2000:]!r}")
        seen += chunk
        if match := _LISTENING.search(seen):
            return match.group(1).decode()
    raise RuntimeError(f"Chromium did not report its DevTools URL within {timeout_s} s: {seen[-2000:]!r}")
