"""A launched browser dies with the server, whatever way the server ends; its profile goes too."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.harness import RawServer
from tests.e2e.test_connection_tools import profile_of
from tests.support.chromium import no_processes_with

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def launched(server: RawServer) -> tuple[int, Path]:
    await server.initialize()
    reply = await server.call_tool("chrome", {"action": "launch"})
    text = reply["result"]["content"][0]["text"]
    pid = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
    return pid, profile_of(pid)


@pytest.mark.parametrize("ending", ["stdin EOF", "SIGTERM", "SIGINT"])
async def test_server_exit_leaves_no_browser_and_no_profile(ending: str) -> None:
    server = await RawServer.start("smart")
    try:
        pid, profile = await launched(server)
        assert profile.is_dir()
        started = time.monotonic()
        if ending == "stdin EOF":
            code = await server.close_stdin_and_wait()
        else:
            server.proc.send_signal(signal.SIGTERM if ending == "SIGTERM" else signal.SIGINT)
            code = await server.proc.wait()
        took = time.monotonic() - started
        assert code == 0
        assert not Path(f"/proc/{pid}").exists(), "the browser outlived the server"
        assert no_processes_with(str(profile)), "a browser helper process outlived the server"
        assert not profile.exists(), "the temp profile was left behind"
        # Not a speed check: the launcher falls back to a 5 s kill deadline when it misses the
        # browser's exit (a stale fd registration once did exactly that on SIGTERM).
        assert took < 4, f"shutdown took {took:.1f}s: the browser's exit event was missed"
    finally:
        await server.kill()
