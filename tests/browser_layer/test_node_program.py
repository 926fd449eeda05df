"""`LaunchedProgram`: what it refuses before starting anything, how an end is told, and one
real run of ``node -e`` under the bootloader (Node.js is on the machine; no browser).

The real run drives the inspector by hand, as `NodeConnection` does: the bootloader holds the
program before its first line until a debugger tells it to run.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import pytest

from cdpilot.browser.session.node_program import LaunchedProgram, ProgramExit
from cdpilot.cdp import CdpConnection, WebSocketTransport
from cdpilot.errors import ArgumentError

RUN_S = 10.0


@pytest.fixture
def scratch_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where a spawn would make its scratch directory, watched; and no process may start: a
    refused command must be refused before either happens."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))

    def no_process(*args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError(f"a process was started: {args!r}")

    monkeypatch.setattr("cdpilot.browser.session.node_program.subprocess.Popen", no_process)
    return root


@pytest.mark.parametrize("command", [[], [""], ["   ", "server.js"]])
def test_no_command_is_refused(command: list[str], scratch_root: Path) -> None:
    with pytest.raises(ArgumentError, match="No command given"):
        LaunchedProgram.spawn(command, cwd=None, env={}, base_env=os.environ)
    assert list(scratch_root.iterdir()) == []


def test_a_command_not_on_the_path_is_refused_by_name(scratch_root: Path, tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match=r"Command not found: 'cdpilot-no-such-program'") as caught:
        LaunchedProgram.spawn(
            ["cdpilot-no-such-program", "x.js"], cwd=str(tmp_path), env={}, base_env={"PATH": str(tmp_path)}
        )
    assert "- command: expected a program on the PATH, or a path to one, got cdpilot-no-such-program" in (
        caught.value.message
    )
    assert list(scratch_root.iterdir()) == []


def test_the_callers_path_wins_over_the_servers(scratch_root: Path, tmp_path: Path) -> None:
    """`env` is laid over `base_env`: with a PATH of an empty directory, node (which the
    server's PATH has) is not found."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    with pytest.raises(ArgumentError, match="Command not found: 'node'"):
        LaunchedProgram.spawn(["node", "-e", "1"], cwd=None, env={"PATH": str(empty)}, base_env=os.environ)
    assert list(scratch_root.iterdir()) == []


def test_a_relative_path_that_is_no_file_in_the_working_directory_is_refused(
    scratch_root: Path, tmp_path: Path
) -> None:
    with pytest.raises(ArgumentError, match=r"Command not found: './bin/serve'"):
        LaunchedProgram.spawn(["./bin/serve"], cwd=str(tmp_path), env={}, base_env=os.environ)
    assert list(scratch_root.iterdir()) == []


def test_a_working_directory_that_does_not_exist_is_refused(scratch_root: Path, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    with pytest.raises(ArgumentError, match=rf"The working directory {gone} does not exist") as caught:
        LaunchedProgram.spawn(["node", "-e", "1"], cwd=str(gone), env={}, base_env=os.environ)
    assert f"- cwd: expected an existing directory, got {gone}" in caught.value.message
    assert list(scratch_root.iterdir()) == []


def test_an_exit_by_code_and_an_end_by_signal_read_differently() -> None:
    assert ProgramExit(3, None, ()).how == "exited with code 3"
    assert ProgramExit(0, None, ()).how == "exited with code 0"
    assert ProgramExit(None, "SIGKILL", ("last line",)).how == "was ended by SIGKILL"


@pytest.mark.anyio
async def test_a_node_program_reports_its_inspector_runs_when_told_and_its_end_is_known(tmp_path: Path) -> None:
    """The whole life of one program: its report, its output (without the inspector's own
    lines, which Node.js writes to stderr on every inspector.open), its exit code with the tail
    of stderr, and no scratch directory left behind."""
    lines: list[tuple[str, str]] = []
    program = LaunchedProgram.spawn(
        ["node", "-e", "console.log('out'); console.error('err line'); process.exit(3)"],
        cwd=str(tmp_path),
        env={},
        base_env=os.environ,
    )
    program.follow_output(lambda stream, line: lines.append((stream, line)))  # before any output can be read
    try:
        assert Path(program.scratch_dir).is_dir()
        async with asyncio.timeout(RUN_S):
            report = await program.reports.get()
        assert report.pid == program.pid  # node itself is the program's first process
        assert report.script == ""  # node -e has no main script
        assert report.ws_url.startswith("ws://127.0.0.1:")

        assert await program.wait_exit(0.3) is None, "the bootloader must hold the program until told to run"
        assert ("stdout", "out") not in lines

        connection = await CdpConnection.open(await WebSocketTransport.open(report.ws_url, headers={}, timeout_s=RUN_S))
        try:
            await connection.browser.send("Runtime.runIfWaitingForDebugger", timeout_s=RUN_S)
        finally:
            await connection.close()

        ended = await program.wait_exit(RUN_S)
        assert ended is not None, "the program did not end"
        assert ended.code == 3 and ended.signal_name is None
        assert ended.how == "exited with code 3"
        assert program.exit is ended
        assert "err line" in program.stderr_tail()
        assert "err line" in ended.stderr_tail
        assert ("stdout", "out") in lines
        assert ("stderr", "err line") in lines
        chatter = [line for _, line in lines if line.startswith(("Debugger listening on", "For help, see:"))]
        assert chatter == []
        assert not any(line.startswith("Debugger listening on") for line in program.stderr_tail())
    finally:
        await program.stop()
    assert not os.path.exists(program.scratch_dir)
