"""Run a program under the Node.js inspector: every Node.js process it starts reports itself,
waits for cdpilot to attach, and ends with the server.

The program is any command (``node dist/server.js``, ``npm run dev``, ``npx vitest run``,
``tsx src/server.ts``), not only ``node``: every Node.js process it starts, at any depth, loads
``browser/js/node_bootloader.js`` first (``NODE_OPTIONS=--require``, inherited by children),
which opens that process's inspector on a free loopback port, writes one line (pid, parent
pid, websocket URL, script) into a pipe only this program's reader holds, and waits for the
debugger. So a test runner's workers and ``npm run``'s node are found as they start, with no
port guessing, and no line of them runs before the breakpoints bind.

The program runs in a process group of its own, with the belts of `process_groups`: the group
ends on disconnect, on every server exit, and (through the reaper) when the server is killed.
Its stdout and stderr are read line by line for the console; its end (exit code or signal,
and the last lines of stderr) is reported to `on_exit` the moment it happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from cdpilot.browser.session.process_groups import (
    arm_parent_death,
    kill_group,
    release_reaper,
    start_reaper,
    wait_group_gone,
)
from cdpilot.errors import ArgumentError, FieldProblem

REPORT_PIPE = "inspectors"
STDERR_TAIL_LINES = 12
TERM_GRACE_S = 2.0  # a program asked to end (SIGTERM) gets this long before its group is killed
READ_CHUNK = 65536
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # colours and cursor moves of a terminal-minded program
# What the inspector itself writes to a process's stderr: noise in its output and its tail.
INSPECTOR_CHATTER = (
    "Debugger listening on ws://",
    "Debugger ending on ws://",
    "For help, see: https://nodejs.org/en/docs/inspector",
    "Debugger attached.",
    "Waiting for the debugger to disconnect...",
)


@dataclass(frozen=True)
class InspectorReport:
    """One Node.js process of the program, as its bootloader announced it."""

    pid: int
    parent_pid: int
    ws_url: str
    script: str  # the main script's path ("" for ``node -e``)
    args: tuple[str, ...]


@dataclass(frozen=True)
class ProgramExit:
    """How the program's first process ended."""

    code: int | None
    signal_name: str | None
    stderr_tail: tuple[str, ...]

    @property
    def how(self) -> str:
        """How it ended, as an answer says it: "exited with code 1", "was ended by SIGKILL"."""
        if self.signal_name is not None:
            return f"was ended by {self.signal_name}"
        return f"exited with code {self.code}"


OutputHandler = Callable[[str, str], None]  # (stream "stdout" | "stderr", line)


class LaunchedProgram:
    """A program we started: its process group, its inspector reports, its output and its end."""

    def __init__(self, command: tuple[str, ...], process: subprocess.Popen[bytes], scratch_dir: str) -> None:
        self.command = command
        self.process = process
        self.pid = process.pid
        self.scratch_dir = scratch_dir
        self.reports: asyncio.Queue[InspectorReport] = asyncio.Queue()
        self.exit: ProgramExit | None = None
        self._stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._on_output: OutputHandler | None = None
        self._exit_handlers: list[Callable[[ProgramExit], None]] = []
        self._exited = asyncio.get_running_loop().create_future()
        self._report_fds: tuple[int, int] | None = None
        self._reaper: subprocess.Popen[bytes] | None = start_reaper(self.pid, scratch_dir)
        self._cleaned = False
        self._pidfd: int | None = None
        self._held = {"stdout": b"", "stderr": b"", "reports": b""}  # the unfinished last line of each

    @classmethod
    def spawn(
        cls, command: Sequence[str], *, cwd: str | None, env: Mapping[str, str], base_env: Mapping[str, str]
    ) -> LaunchedProgram:
        """Start `command` in `cwd` with `base_env` and `env` over it. Synchronous, so the caller
        can register it for `kill_now` before anything else can run. A command not found, or a
        working directory that is not one, is refused before anything starts."""
        if not command or not command[0].strip():
            raise ArgumentError(
                "No command given.", problems=[FieldProblem("command", "a program and its arguments", "nothing")]
            )
        if cwd is not None and not Path(cwd).is_dir():
            what = "is not a directory" if Path(cwd).exists() else "does not exist"
            raise ArgumentError(
                f"The working directory {cwd} {what}.",
                problems=[FieldProblem("cwd", "an existing directory", cwd)],
            )
        program_env = {**base_env, **env}
        if "/" in command[0]:  # a path: relative to the program's working directory, as it runs
            executable = shutil.which(str(Path(cwd or ".") / command[0]))
        else:
            executable = shutil.which(command[0], path=program_env.get("PATH"))
        if executable is None:
            raise ArgumentError(
                f"Command not found: {command[0]!r} (not on the PATH, nor an executable file).",
                problems=[FieldProblem("command", "a program on the PATH, or a path to one", command[0])],
                suggestion='Give the program first, e.g. ["node", "dist/server.js"] or ["npx", "vitest", "run"].',
            )
        scratch_dir = tempfile.mkdtemp(prefix="cdpilot-node-")
        report_path = os.path.join(scratch_dir, REPORT_PIPE)
        os.mkfifo(report_path, 0o600)
        # Our read end, and a write end of our own so the reader never sees end-of-file while
        # no process of the program has it open.
        report_read = os.open(report_path, os.O_RDONLY | os.O_NONBLOCK)
        report_keep = os.open(report_path, os.O_WRONLY | os.O_NONBLOCK)
        bootloader = resources.files("cdpilot.browser").joinpath("js", "node_bootloader.js")
        node_options = program_env.get("NODE_OPTIONS", "")
        program_env["NODE_OPTIONS"] = f'{node_options} --require "{bootloader}"'.strip()
        program_env["CDPILOT_NODE_REPORT"] = report_path
        parent = os.getpid()
        try:
            process = subprocess.Popen(
                (executable, *command[1:]),
                cwd=cwd,
                env=program_env,
                stdin=subprocess.DEVNULL,  # ours may be the JSON-RPC wire
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=lambda: arm_parent_death(parent),
            )
        except OSError as exc:
            for fd in (report_read, report_keep):
                os.close(fd)
            shutil.rmtree(scratch_dir, ignore_errors=True)
            raise ArgumentError(
                f"Cannot start {command[0]!r}: {exc.strerror or exc}.",
                problems=[FieldProblem("command", "a program that can be run", command[0])],
            ) from exc
        program = cls(tuple(command), process, scratch_dir)
        program._report_fds = (report_read, report_keep)
        program._watch()
        return program

    # --- what the program tells -----------------------------------------------------------

    def follow_output(self, handler: OutputHandler) -> None:
        """Hand every line of stdout and stderr to `handler` from now on."""
        self._on_output = handler

    def on_exit(self, handler: Callable[[ProgramExit], None]) -> None:
        """Call `handler` once when the program's first process ends (at once if it has)."""
        if self.exit is not None:
            handler(self.exit)
        else:
            self._exit_handlers.append(handler)

    async def wait_exit(self, timeout_s: float) -> ProgramExit | None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                await asyncio.shield(self._exited)
        return self.exit

    def stderr_tail(self) -> tuple[str, ...]:
        return tuple(self._stderr_tail)

    def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        assert self.process.stdout is not None and self.process.stderr is not None
        for stream, pipe in (("stdout", self.process.stdout), ("stderr", self.process.stderr)):
            os.set_blocking(pipe.fileno(), False)
            loop.add_reader(pipe.fileno(), self._read_output, stream, pipe.fileno())
        assert self._report_fds is not None
        loop.add_reader(self._report_fds[0], self._read_reports)
        self._pidfd = os.pidfd_open(self.pid)
        loop.add_reader(self._pidfd, self._on_leader_exit)

    def _read_output(self, stream: str, fd: int) -> bool:
        """Hand on the whole lines that can be read now; False at the end of the stream (the
        unfinished last line then counts as a line)."""
        try:
            chunk = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            asyncio.get_running_loop().remove_reader(fd)
            if self._held[stream]:
                self._line(stream, self._held[stream])
                self._held[stream] = b""
            return False
        *lines, self._held[stream] = (self._held[stream] + chunk).split(b"\n")
        for line in lines:
            self._line(stream, line)
        return True

    def _line(self, stream: str, raw: bytes) -> None:
        line = ANSI_ESCAPE.sub("", raw.decode("utf-8", errors="replace").rstrip("\r"))
        if not line.strip() or line.startswith(INSPECTOR_CHATTER):
            return
        if stream == "stderr":
            self._stderr_tail.append(line)
        if self._on_output is not None:
            self._on_output(stream, line)

    def _read_reports(self) -> None:
        assert self._report_fds is not None
        try:
            chunk = os.read(self._report_fds[0], READ_CHUNK)
        except BlockingIOError:
            return
        *lines, self._held["reports"] = (self._held["reports"] + chunk).split(b"\n")
        for line in lines:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                data = json.loads(line)
                self.reports.put_nowait(
                    InspectorReport(
                        int(data["pid"]),
                        int(data["ppid"]),
                        str(data["url"]),
                        str(data.get("script") or ""),
                        tuple(str(arg) for arg in data.get("argv") or ()),
                    )
                )

    def _on_leader_exit(self) -> None:
        """The first process ended: note how (without reaping it, see `process_groups`), end
        what is left of its group, and tell whoever listens."""
        assert self._pidfd is not None
        try:
            status = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        except ChildProcessError:  # reaped already (by `kill_now`, which knows it ended)
            asyncio.get_running_loop().remove_reader(self._pidfd)
            return
        if status is None:
            return  # readable, but not yet waitable: the reader stays, and asks again
        asyncio.get_running_loop().remove_reader(self._pidfd)
        code = status.si_status if status.si_code == os.CLD_EXITED else None
        name = None if code is not None else signal.Signals(status.si_status).name
        # The pipes may still hold the last lines: read what is there now, before the tail is
        # taken (a child of the program may keep them open longer).
        for stream, pipe in (("stdout", self.process.stdout), ("stderr", self.process.stderr)):
            if pipe is not None and not pipe.closed:
                while self._readable(pipe.fileno()) and self._read_output(stream, pipe.fileno()):
                    pass
        self.exit = ProgramExit(code, name, tuple(self._stderr_tail))
        if not self._exited.done():
            self._exited.set_result(None)
        for handler in self._exit_handlers:
            handler(self.exit)
        self._exit_handlers.clear()

    @staticmethod
    def _readable(fd: int) -> bool:
        return bool(select.select([fd], [], [], 0)[0])

    # --- its end ---------------------------------------------------------------------------

    async def stop(self) -> None:
        """End the program: SIGTERM to its group (a server closes its sockets, a test runner
        its workers), SIGKILL after `TERM_GRACE_S`, then clean up."""
        if self.exit is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGTERM)
            await self.wait_exit(TERM_GRACE_S)
        self.kill_now()

    def kill_now(self) -> None:
        """Synchronous last resort (atexit, signal handlers): SIGKILL the group, reap, clean up."""
        if self._cleaned:
            return
        self._cleaned = True
        kill_group(self.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(TERM_GRACE_S)
        wait_group_gone(self.pid)
        loop = _running_loop()
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None and not pipe.closed:
                if loop is not None:
                    loop.remove_reader(pipe.fileno())
                pipe.close()
        for fd in (*(self._report_fds or ()), *(() if self._pidfd is None else (self._pidfd,))):
            if loop is not None:
                loop.remove_reader(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
        self._report_fds = self._pidfd = None
        shutil.rmtree(self.scratch_dir, ignore_errors=True)
        if self._reaper is not None:
            reaper, self._reaper = self._reaper, None
            release_reaper(reaper)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
