"""Clean exit: a launched browser, and a Node.js program with its children, die with the server,
whatever way the server ends, and their temp profile and temp files go too, even when the
server is SIGKILLed and cleans up nothing itself (the reaper does it then; see
cdpilot.browser.session.process_groups).

Each server gets a TMPDIR of its own (`system_tmp`), standing for the system temp dir: other
tests on the machine share /tmp, so only a private one can be checked for being left exactly as
it was.
"""

from __future__ import annotations

import re
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_layer.test_launch import chromium_tmpdir, singleton_socket_dir
from tests.e2e.harness import RawServer
from tests.e2e.test_connection_tools import profile_of
from tests.reliability.conftest import Report
from tests.support.chromium import no_processes_with, wait_gone

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

ENDINGS = {"stdin EOF": None, "SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT, "SIGKILL": signal.SIGKILL}


@pytest.fixture
def system_tmp() -> Iterator[Path]:
    """An empty TMPDIR for one server. A short path, in the real temp dir: below it, the path of
    Chromium's singleton socket must still fit in the 107 bytes a Unix socket path may have."""
    path = Path(tempfile.mkdtemp(prefix="cdpilot-t-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def start_server(system_tmp: Path, *flags: str) -> RawServer:
    """The server in smart mode, with `system_tmp` as its TMPDIR."""
    return await RawServer.start("smart", *flags, env={"TMPDIR": str(system_tmp)})


async def launched(server: RawServer) -> tuple[int, Path]:
    await server.initialize()
    reply = await server.call_tool("chrome", {"action": "launch"})
    text = reply["result"]["content"][0]["text"]
    pid = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
    return pid, profile_of(pid)


async def end(server: RawServer, ending: str) -> int:
    signal_number = ENDINGS[ending]
    if signal_number is None:
        return await server.close_stdin_and_wait()
    server.proc.send_signal(signal_number)
    return await server.proc.wait()


def reapers_of(reap_dir: Path) -> list[int]:
    """Pids of the launcher's reapers for `reap_dir` (named in their environment only)."""
    needle = f"CDPILOT_REAP_DIR={reap_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def entries_of(directory: Path) -> list[str]:
    return sorted(entry.name for entry in directory.iterdir())


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_server_exit_leaves_no_browser_no_profile_and_no_temp_files(
    ending: str, report: Report, system_tmp: Path
) -> None:
    server = await start_server(system_tmp)
    try:
        pid, profile = await launched(server)
        assert profile.is_dir()
        # Chromium's own temp dir (its singleton's socket dir, which only a clean exit removes)
        # is in the temp profile, so a killed browser cannot leave it in the system temp dir.
        socket_dir = singleton_socket_dir(profile)
        assert socket_dir.is_relative_to(profile)
        reapers = reapers_of(profile)
        assert len(reapers) == 1, "every launch has one reaper"
        started = time.monotonic()
        code = await end(server, ending)
        assert code == (-signal.SIGKILL if ending == "SIGKILL" else 0)
        survivors = wait_gone([pid, *reapers], timeout_s=10)
        took = time.monotonic() - started
        helpers_alive = not no_processes_with(str(profile))
        left_in_tmp = entries_of(system_tmp)
        report.record(
            "clean_exit",
            **{
                f"{ending}: seconds until all gone": round(took, 2),
                f"{ending}: chromium processes left": len(survivors) + int(helpers_alive),
                f"{ending}: temp profiles left": int(profile.exists()),
                f"{ending}: temp dir entries left": len(left_in_tmp),
            },
        )
        assert survivors == [], "the browser or its reaper outlived the server"
        assert not helpers_alive, "a browser helper process outlived the server"
        assert not profile.exists(), "the temp profile was left behind"
        assert left_in_tmp == [], "the launch left files in the system temp dir"
        # Not a speed check: the launcher falls back to a 5 s kill deadline when it misses the
        # browser's exit (a stale fd registration once did exactly that on SIGTERM).
        assert took < 4, f"shutdown took {took:.1f}s: the browser's exit event was missed"
    finally:
        await server.kill()


async def test_a_killed_server_keeps_a_given_profile_and_leaves_no_temp_files(
    report: Report, system_tmp: Path, tmp_path: Path
) -> None:
    """A given profile is the user's: kept. Chromium's temp dir then lies in a scratch dir of its
    own, which the reaper removes when the server cannot."""
    profile = tmp_path / "profile"
    server = await start_server(system_tmp, f"--user-data-dir={profile}")
    try:
        pid, _ = await launched(server)
        scratch_dir = chromium_tmpdir(pid).parent
        assert scratch_dir.parent == system_tmp and singleton_socket_dir(profile).is_relative_to(scratch_dir)
        reapers = reapers_of(scratch_dir)
        assert len(reapers) == 1, "a launch on a given profile has its reaper too"
        assert await end(server, "SIGKILL") == -signal.SIGKILL
        survivors = wait_gone([pid, *reapers], timeout_s=10)
        helpers_alive = not no_processes_with(str(profile))
        left_in_tmp = entries_of(system_tmp)
        report.record(
            "clean_exit",
            **{
                "SIGKILL, given profile: chromium processes left": len(survivors) + int(helpers_alive),
                "SIGKILL, given profile: temp dir entries left": len(left_in_tmp),
                "SIGKILL, given profile: profile kept": int((profile / "Default").is_dir()),
            },
        )
        assert survivors == [] and not helpers_alive, "the browser or its reaper outlived the server"
        assert left_in_tmp == [], "the launch left files in the system temp dir"
        assert (profile / "Default").is_dir(), "the given profile was not kept"
    finally:
        await server.kill()


# A Node.js program with a child process of its own, in the program's process group.
NODE_FAMILY = (
    "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'});"
    "setInterval(() => {}, 1000)"
)


def group_of_at_least(group: int, count: int, timeout_s: float) -> list[int]:
    """The members of `group` once it has `count` of them (a child takes a moment to start)."""
    deadline = time.monotonic() + timeout_s
    while len(members := group_members(group)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return members


def group_members(group: int) -> list[int]:
    """The live processes of process group `group`."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != b"Z":
                members.append(int(entry.name))
    return members


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_server_exit_ends_a_node_program_and_its_children(ending: str, report: Report, system_tmp: Path) -> None:
    server = await start_server(system_tmp)
    try:
        await server.initialize()
        reply = await server.call_tool("chrome", {"action": "run", "command": ["node", "-e", NODE_FAMILY]})
        text = reply["result"]["content"][0]["text"]
        leader = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
        members = group_of_at_least(leader, 2, timeout_s=10)
        assert len(members) == 2, f"the program and its child: {members}"
        scratch = [entry for entry in entries_of(system_tmp) if entry.startswith("cdpilot-node-")]
        assert len(scratch) == 1, entries_of(system_tmp)
        reapers = reapers_of(system_tmp / scratch[0])
        assert len(reapers) == 1, "every program has one reaper"
        code = await end(server, ending)
        assert code == (-signal.SIGKILL if ending == "SIGKILL" else 0)
        survivors = wait_gone([*members, *reapers], timeout_s=10)
        left_in_tmp = entries_of(system_tmp)
        report.record(
            "clean_exit",
            **{
                f"{ending}, Node.js program: processes left": len(survivors),
                f"{ending}, Node.js program: temp dir entries left": len(left_in_tmp),
            },
        )
        assert survivors == [], "the program, its child or its reaper outlived the server"
        assert left_in_tmp == [], "the program left files in the system temp dir"
    finally:
        await server.kill()
