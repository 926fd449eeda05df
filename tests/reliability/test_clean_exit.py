"""Clean exit: a launched browser dies with the server, whatever way the server ends, and
its temp profile goes too, even when the server is SIGKILLed and cleans up nothing itself
(the launcher's reaper does it then; see cdpilot.browser.session.launcher)."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.harness import RawServer
from tests.e2e.test_connection_tools import profile_of
from tests.reliability.conftest import Report
from tests.support.chromium import no_processes_with, wait_gone

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

ENDINGS = {"stdin EOF": None, "SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT, "SIGKILL": signal.SIGKILL}


async def launched(server: RawServer) -> tuple[int, Path]:
    await server.initialize()
    reply = await server.call_tool("chrome", {"action": "launch"})
    text = reply["result"]["content"][0]["text"]
    pid = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
    return pid, profile_of(pid)


def reapers_of(profile: Path) -> list[int]:
    """Pids of the launcher's reapers for `profile` (named in their environment only)."""
    needle = f"CDPILOT_REAP_DIR={profile}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_server_exit_leaves_no_browser_and_no_profile(ending: str, report: Report) -> None:
    server = await RawServer.start("smart")
    try:
        pid, profile = await launched(server)
        assert profile.is_dir()
        reapers = reapers_of(profile)
        assert len(reapers) == 1, "every launch on a temp profile has one reaper"
        started = time.monotonic()
        signal_number = ENDINGS[ending]
        if signal_number is None:
            code = await server.close_stdin_and_wait()
        else:
            server.proc.send_signal(signal_number)
            code = await server.proc.wait()
        assert code == (-signal.SIGKILL if ending == "SIGKILL" else 0)
        survivors = wait_gone([pid, *reapers], timeout_s=10)
        took = time.monotonic() - started
        helpers_alive = not no_processes_with(str(profile))
        report.record(
            "clean_exit",
            **{
                f"{ending}: seconds until all gone": round(took, 2),
                f"{ending}: chromium processes left": len(survivors) + int(helpers_alive),
                f"{ending}: temp profiles left": int(profile.exists()),
            },
        )
        assert survivors == [], "the browser or its reaper outlived the server"
        assert not helpers_alive, "a browser helper process outlived the server"
        assert not profile.exists(), "the temp profile was left behind"
        # Not a speed check: the launcher falls back to a 5 s kill deadline when it misses the
        # browser's exit (a stale fd registration once did exactly that on SIGTERM).
        assert took < 4, f"shutdown took {took:.1f}s: the browser's exit event was missed"
    finally:
        await server.kill()
