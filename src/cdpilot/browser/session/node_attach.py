"""Reaching a Node.js process: by its inspector's port or websocket, by its process id, or by
running a program under the inspector; each gives a `NodeConnection`.

By process id, as ``kill -USR1`` does by hand: a Node.js process opens its inspector (on
127.0.0.1:9229 unless it was started with another ``--inspect-port``) when it gets SIGUSR1.
Its port is then found among the sockets the process itself listens on (``/proc/<pid>/net/tcp``
matched with its open descriptors) by asking each what it is: no port is guessed, and another
process's inspector is never taken for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from cdpilot.browser.session.connection_facts import NodeProgramOptions
from cdpilot.browser.session.node_connection import NodeConnection
from cdpilot.browser.session.node_program import InspectorReport, LaunchedProgram, ProgramExit
from cdpilot.cdp import DevToolsEndpoint, discover_endpoint
from cdpilot.errors import ArgumentError, BrowserConnectionError, FieldProblem, StateError

INSPECTOR_OPEN_CHECK_S = 0.05
EXIT_AT_ONCE_S = 0.25  # a launched program that ends this soon after its start is reported as failing
PROBE_TIMEOUT_S = 1.0
LISTEN = "0A"  # a listening socket's state in /proc/net/tcp
PID_IN_TITLE = re.compile(r".*\[([0-9]+)\]", re.ASCII)


async def endpoint_kind(ws_url: str, *, timeout_s: float) -> DevToolsEndpoint:
    """What a DevTools websocket URL leads to. A browser's are ``/devtools/…``; a Node.js
    inspector's are ``/<uuid>``, and its HTTP side says it is Node.js."""
    parts = urlsplit(ws_url)
    if parts.path.startswith("/devtools/") or parts.hostname is None or parts.port is None:
        return DevToolsEndpoint("browser", ws_url, "unknown")
    try:
        found = await discover_endpoint(parts.hostname, parts.port, timeout_s=min(timeout_s, PROBE_TIMEOUT_S))
    except BrowserConnectionError:
        return DevToolsEndpoint("browser", ws_url, "unknown")  # no HTTP side: let the websocket tell
    return DevToolsEndpoint(found.kind, ws_url, found.product, found.title)


async def attach_node(
    connection_id: str, endpoint: DevToolsEndpoint, *, pid: int | None, timeout_s: float
) -> NodeConnection:
    """A connection to the Node.js process behind `endpoint` (its workers come with it)."""
    node = NodeConnection(connection_id, "connected", endpoint.product, endpoint.ws_url)
    await node.add_process(endpoint.ws_url, pid=pid or _pid_of_title(endpoint.title), script="", timeout_s=timeout_s)
    return node


async def launch_node(
    connection_id: str, options: NodeProgramOptions, *, env: Mapping[str, str], programs: set[LaunchedProgram]
) -> NodeConnection:
    """Run the program and attach to its first Node.js process (the later ones join as they
    start). The program is in `programs` from the moment it exists, so the caller's last
    resort can end it even mid-launch; a launch that fails ends it and takes it out again."""
    timeout_s = options.timeout_ms / 1000
    program = LaunchedProgram.spawn(options.command, cwd=options.cwd, env=options.env, base_env=env)
    programs.add(program)
    try:
        node = NodeConnection(connection_id, "launched", "node.js", f"program pid {program.pid}", program)
        first = await _first_report(program, timeout_s)
        await node.add_process(
            first.ws_url, pid=first.pid, script=first.script, timeout_s=timeout_s, first_line=options.pause_at_start
        )
        await node.follow_program(timeout_s)
        ended = await program.wait_exit(EXIT_AT_ONCE_S) if not options.pause_at_start else None
        if ended is not None:
            raise StateError(_ended_at_once(program, ended, "as soon as it started"))
    except BaseException:
        await program.stop()
        programs.discard(program)
        raise
    return node


async def _first_report(program: LaunchedProgram, timeout_s: float) -> InspectorReport:
    report = asyncio.ensure_future(program.reports.get())
    exited = asyncio.ensure_future(program.wait_exit(timeout_s))
    try:
        await asyncio.wait({report, exited}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        exited.cancel()
    if report.done():
        return report.result()
    report.cancel()
    if program.exit is not None:
        raise StateError(_ended_at_once(program, program.exit, "before any Node.js process of it started"))
    raise StateError(
        f"No Node.js process of {' '.join(program.command)!r} started within {timeout_s:g} s; it was ended.",
        suggestion="Run a Node.js program (node, npm run, npx, tsx), or give it more {param:timeout_ms}.",
    )


def _ended_at_once(program: LaunchedProgram, ended: ProgramExit, when: str) -> str:
    text = f"{' '.join(program.command)!r} {ended.how} {when}."
    if ended.stderr_tail:
        text += " Last lines of its stderr:\n" + "\n".join(f"  {line}" for line in ended.stderr_tail)
    return text


async def inspector_of_process(pid: int, *, timeout_s: float) -> str:
    """The inspector websocket of Node.js process `pid`, opening it with SIGUSR1 if needed."""
    _check_process(pid)
    found = await _own_inspector(pid)
    if found is not None:
        return found
    try:
        os.kill(pid, signal.SIGUSR1)
    except PermissionError as exc:
        raise _pid_error(pid, "belongs to another user: cdpilot may signal only its own user's processes") from exc
    except ProcessLookupError as exc:
        raise _pid_error(pid, "has ended") from exc
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while loop.time() < deadline:
        await asyncio.sleep(INSPECTOR_OPEN_CHECK_S)
        if not _exists(pid):
            raise _pid_error(pid, "ended when it was sent SIGUSR1 (it did not handle the signal as Node.js does)")
        found = await _own_inspector(pid)
        if found is not None:
            return found
    raise StateError(
        f"Sent SIGUSR1 to Node.js process {pid}, but its inspector did not open within {timeout_s:g} s.",
        suggestion="Its port (9229 unless it was started with --inspect-port) may be taken by another process: "
        "start it with --inspect=127.0.0.1:0 and connect by that port.",
    )


def _check_process(pid: int) -> None:
    proc = Path(f"/proc/{pid}")
    try:
        owner = proc.stat().st_uid
    except FileNotFoundError:
        raise _pid_error(pid, "does not exist") from None
    if owner != os.getuid():
        raise _pid_error(pid, "belongs to another user: cdpilot may attach only to its own user's processes")
    command = _command_name(pid)
    if "node" not in command.lower():
        raise _pid_error(pid, f"is not a Node.js process (it runs {command or 'an unknown program'})")


def _command_name(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(os.readlink(f"/proc/{pid}/exe")).name
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return ""


def _pid_error(pid: int, what: str) -> ArgumentError:
    return ArgumentError(
        f"Process {pid} {what}.",
        problems=[FieldProblem("pid", "the id of a running Node.js process of yours", str(pid))],
    )


async def _own_inspector(pid: int) -> str | None:
    """The websocket of `pid`'s inspector if it listens already: a Node.js inspector on a
    listening socket the process itself holds."""
    for port in _listening_ports(pid):
        try:
            found = await discover_endpoint("127.0.0.1", port, timeout_s=PROBE_TIMEOUT_S)
        except BrowserConnectionError:
            continue
        if found.kind == "node":  # on a socket of the process itself: its own inspector
            return str(found.ws_url)
    return None


def _listening_ports(pid: int) -> list[int]:
    """The TCP ports process `pid` listens on (an inspector's are loopback ones, asked at 127.0.0.1)."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = []
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = row.split()
                if len(fields) > 9 and fields[3] == LISTEN and fields[9] in inodes:
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(set(ports))


def _pid_of_title(title: str) -> int | None:
    """``node[4242]`` → 4242: a Node.js inspector names its target ``<process.title>[<pid>]``
    (a program may set its title: ``srv[4242]``)."""
    found = PID_IN_TITLE.fullmatch(title)
    return int(found.group(1)) if found else None


def _exists(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}")
