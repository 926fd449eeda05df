"""The belts that end a process we start, and every process it starts, with the server.

A launched Chromium and a Node.js program run under the inspector share them:

- ``PR_SET_PDEATHSIG`` (Linux): the kernel SIGKILLs the process we started when the thread
  that started it ends (`arm_parent_death`, run in the forked child before exec).
- Its own process group (``start_new_session``): one ``killpg`` ends it and whatever it forked
  (a browser's renderers, a test runner's workers, ``npm run``'s shell and node).
- A reaper (`start_reaper`, /bin/sh) that blocks reading a pipe only the server holds: when the
  server is gone, however it went (a SIGKILL included), the pipe reads end-of-file, and the
  reaper waits for the leader to die (PDEATHSIG sees to that), kills what is left of its group
  and removes the scratch directory. After an orderly shutdown the directory is already gone,
  the group is empty, and the reaper just exits.

The leader is reaped only after the group has been killed: until then its pid (which is the
group id) cannot be reused, so ``killpg`` can never hit a stranger.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time

GROUP_EXIT_S = 2.0
REAPER_EXIT_S = 2.0
_PR_SET_PDEATHSIG = 1
_PRCTL = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)  # absent outside Linux

# $1: the leader's pid (= its process group); the directory to remove comes in the environment
# so no process's command line names it (tests find leftover browsers by their profile path).
# A zombie has an empty command line, so an unreaped dead leader counts as gone.
# Then it kills the group and waits (at most 2 s) until no live process is left in it before
# removing: helpers outlive the leader by a moment and write into the directory as they shut
# down (a browser's network service flushes its cache index). Like `live_in_group`, the wait
# reads state and group from /proc/*/stat and skips zombies: orphans are reaped by init, which
# may take its time. No `--` before "-$1": dash's kill builtin (Debian's /bin/sh) rejects the
# whole command ("Illegal number") and signals nothing.
REAPER = (
    'read -r _; while grep -q . "/proc/$1/cmdline" 2>/dev/null; do sleep 0.05; done; kill -9 "-$1" 2>/dev/null; '
    'n=0; while [ $n -lt 40 ] && grep -qsE "[)] [^Z] [0-9]+ $1 " /proc/[0-9]*/stat; do sleep 0.05; n=$((n + 1)); '
    'done; rm -rf -- "$CDPILOT_REAP_DIR"'
)


def arm_parent_death(parent_pid: int) -> None:
    """In the forked child, before exec: be SIGKILLed when the server's thread ends; if the
    server died before this ran, die now."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os.kill(os.getpid(), signal.SIGKILL)


def start_reaper(leader_pid: int, reap_dir: str) -> subprocess.Popen[bytes]:
    """The group's and the scratch directory's last line of defence (see the module
    docstring); its stdin pipe's write end is ours alone (non-inheritable), so nothing we
    started can keep it open."""
    return subprocess.Popen(
        ("/bin/sh", "-c", REAPER, "cdpilot-reaper", str(leader_pid)),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "CDPILOT_REAP_DIR": reap_dir},
        start_new_session=True,
    )


def release_reaper(reaper: subprocess.Popen[bytes]) -> None:
    """The orderly end: the group is gone and the directory removed, so end-of-file lets the
    reaper exit."""
    assert reaper.stdin is not None
    reaper.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        reaper.wait(REAPER_EXIT_S)


def kill_group(leader_pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader_pid, signal.SIGKILL)


def wait_group_gone(group: int, timeout_s: float = GROUP_EXIT_S) -> None:
    """Until no live process is left in `group` (killed helpers take a moment to die), bounded.

    There is no event for a whole process group, so this polls /proc; zombies do not count
    (their parent, or init once the leader is gone, reaps them)."""
    deadline = time.monotonic() + timeout_s
    while live_in_group(group) and time.monotonic() < deadline:
        kill_group(group)
        time.sleep(0.01)


def live_in_group(group: int) -> bool:
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # it exited while we looked
        if int(fields[2]) == group and fields[0] != b"Z":
            return True
    return False
