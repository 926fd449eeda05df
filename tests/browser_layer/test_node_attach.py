"""Reaching a Node.js process by its pid or its URL, the parts that need no Node.js: reading a
process's title, checking a pid before signalling it, finding the ports a process listens on,
and telling a browser's websocket from an inspector's.

These are private helpers of `node_attach`; they are tested one by one here because each
decides on its own whether a pid is refused or a port is probed.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from cdpilot.browser.session import node_attach
from cdpilot.browser.session.node_attach import _check_process, _listening_ports, _pid_of_title, endpoint_kind
from cdpilot.cdp import DevToolsEndpoint
from cdpilot.errors import ArgumentError


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    """A loopback socket of this process that listens, as an inspector's would."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server


@pytest.mark.parametrize(("title", "pid"), [("node[4242]", 4242), ("node[1]", 1), ("srv[31081]", 31081)])
def test_a_node_title_names_its_process(title: str, pid: int) -> None:
    """Node.js titles its target ``<process.title>[<pid>]``: a program may have set its title."""
    assert _pid_of_title(title) == pid


@pytest.mark.parametrize(
    "title", ["", "node", "node[]", "node[abc]", "node[-5]", "node[4.2]", "deno[4242]x", "node[4242", "4242", "node[²]"]
)
def test_a_title_without_a_pid_names_none(title: str) -> None:
    """A pid read wrongly from a title would attach (and send SIGUSR1) to another process."""
    assert _pid_of_title(title) is None


def test_this_python_process_is_refused_as_not_node() -> None:
    with pytest.raises(ArgumentError, match=r"is not a Node\.js process \(it runs python") as caught:
        _check_process(os.getpid())
    assert f"Process {os.getpid()} " in caught.value.message
    assert "- pid: expected the id of a running Node.js process of yours" in caught.value.message


def test_a_pid_that_does_not_exist_is_refused() -> None:
    """Above pid_max no process can ever have the pid."""
    missing = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1
    with pytest.raises(ArgumentError, match=rf"Process {missing} does not exist\."):
        _check_process(missing)


def test_a_process_of_another_user_is_refused_before_its_program_is_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """This process is ours; seen from a different uid it is another user's, and that refusal
    must come first (its command line is not ours to read)."""
    other_uid = os.getuid() + 1
    monkeypatch.setattr("cdpilot.browser.session.node_attach.os.getuid", lambda: other_uid)
    with pytest.raises(ArgumentError, match="belongs to another user") as caught:
        _check_process(os.getpid())
    assert "is not a Node.js process" not in caught.value.message


def test_the_listening_ports_of_this_process_include_its_listening_socket(listening: socket.socket) -> None:
    port = listening.getsockname()[1]
    assert port in _listening_ports(os.getpid())


def test_a_closed_or_merely_bound_socket_is_no_listening_port(listening: socket.socket) -> None:
    """Only sockets in the LISTEN state can be an inspector: a closed one is gone from the
    process's descriptors, and a bound one that does not listen accepts nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as closed:
        closed.bind(("127.0.0.1", 0))
        closed.listen()
        closed_port = closed.getsockname()[1]
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as bound:
        bound.bind(("127.0.0.1", 0))
        bound_port = bound.getsockname()[1]
        ports = _listening_ports(os.getpid())
    assert listening.getsockname()[1] in ports  # the same read does see a listening socket
    assert closed_port not in ports
    assert bound_port not in ports


def test_a_pid_without_a_proc_entry_listens_on_nothing() -> None:
    missing = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1
    assert _listening_ports(missing) == []


@pytest.mark.anyio
async def test_a_browser_websocket_is_told_by_its_path_without_asking_its_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing listens on port 1: an answer proves the path alone decided."""

    async def no_probe(host: str, port: int, *, timeout_s: float, where: str | None = None) -> DevToolsEndpoint:
        raise AssertionError(f"probed {host}:{port}")

    monkeypatch.setattr(node_attach, "discover_endpoint", no_probe)
    url = "ws://127.0.0.1:1/devtools/browser/x"
    assert await endpoint_kind(url, timeout_s=5) == DevToolsEndpoint("browser", url, "unknown")


@pytest.mark.anyio
async def test_an_inspector_websocket_is_told_by_its_http_side_and_keeps_its_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The URL the caller gave stays (its host passed the caller's policy); kind, product and
    title come from the port's answer."""
    probed: list[tuple[str, int]] = []

    async def inspector(host: str, port: int, *, timeout_s: float, where: str | None = None) -> DevToolsEndpoint:
        probed.append((host, port))
        return DevToolsEndpoint("node", f"ws://{host}:{port}/other", "node.js/v20.20.2", "node[4242]")

    monkeypatch.setattr(node_attach, "discover_endpoint", inspector)
    url = "ws://127.0.0.1:9229/0f2c61f1-5a1c-4b8e-9d0e-2b9a4c3d7e11"
    found = await endpoint_kind(url, timeout_s=5)
    assert probed == [("127.0.0.1", 9229)]
    assert found == DevToolsEndpoint("node", url, "node.js/v20.20.2", "node[4242]")
