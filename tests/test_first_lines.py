"""The first lines, read and answered before the event loop runs: what is answered, what is
kept for the SDK, where reading stops and what is left for the wire, and the stop signals
of a server that has not started its loop yet."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from cdpilot_generated import manifests

from cdpilot.server.first_lines import QUIET_S, EarlyAnswers, FirstLines, read_first_lines
from cdpilot.server.tool_filter import tools_list_json
from tests.e2e.harness import server_env

CLIENT = {"name": "test", "version": "0"}
PARAMS: dict[str, Any] = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": PARAMS}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "navigate", "arguments": {}}}


def line(message: dict[str, Any] | str) -> bytes:
    return (message if isinstance(message, str) else json.dumps(message)).encode() + b"\n"


@contextmanager
def first_lines(
    *pieces: bytes, pause_s: float = 0.0, on_quiet: Callable[[], object] | None = None
) -> Iterator[tuple[FirstLines, EarlyAnswers, list[Any]]]:
    """What `read_first_lines` returns, decided and wrote when stdin brings `pieces` (each
    written after `pause_s`) and then ends."""
    stdin_read, stdin_write = os.pipe()
    out_read, out_write = os.pipe()

    def feed() -> None:
        for piece in pieces:
            time.sleep(pause_s)
            os.write(stdin_write, piece)
        os.close(stdin_write)

    feeder = threading.Thread(target=feed)
    feeder.start()
    answers = EarlyAnswers("legacy", tools_list_json("legacy", None))
    try:
        first = read_first_lines(stdin_read, out_write, answers, on_quiet)
        os.close(out_write)
        with os.fdopen(out_read, "rb") as out:
            written = [json.loads(reply) for reply in out.read().splitlines()]
        yield first, answers, written
    finally:
        feeder.join()
        os.close(stdin_read)


def test_the_initialize_and_a_list_are_answered_and_reading_stops_at_the_first_call() -> None:
    after = line({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    with first_lines(line(INITIALIZE) + line(INITIALIZED) + line(LIST) + line(CALL) + after) as (first, answers, out):
        assert out == [
            {"jsonrpc": "2.0", "id": 0, "result": json.loads(manifests.INITIALIZE_RESULTS["2025-06-18"])},
            {"jsonrpc": "2.0", "id": 1, "result": json.loads(manifests.LEGACY_TOOLS_JSON)},
        ]
        assert answers.early == [INITIALIZE, INITIALIZED]  # what the SDK must see, in order
        assert answers.initialize is not None and answers.initialize.version == "2025-06-18"
        assert (first.first_tool, first.unread) == ("navigate", line(CALL) + after)


def test_lines_that_arrive_in_pieces_are_answered_whole_and_the_end_of_input_stops_reading() -> None:
    whole = line(INITIALIZE) + line(INITIALIZED)
    with first_lines(whole[:10], whole[10:90], whole[90:], pause_s=0.05) as (first, answers, out):
        assert [reply["id"] for reply in out] == [0]
        assert answers.early == [INITIALIZE, INITIALIZED]
        assert (first.first_tool, first.unread) == (None, b"")


def test_a_client_that_falls_quiet_is_told_once() -> None:
    """The cue that starts the server's imports: stdin silent for `QUIET_S` while a line is
    awaited, here before each of two pieces, and told the first time only."""
    quiet: list[str] = []
    pieces = (line(INITIALIZE), line(INITIALIZED) + line(CALL))
    with first_lines(*pieces, pause_s=QUIET_S * 5, on_quiet=lambda: quiet.append("quiet")) as (first, _, out):
        assert (first.first_tool, [reply["id"] for reply in out]) == ("navigate", [0])
    assert quiet == ["quiet"]


def test_a_client_whose_first_call_is_already_there_is_not_told() -> None:
    """A first call that comes with the handshake is read without a wait, and the cue never
    fires: the server spawns that call's browser before it starts importing."""
    stdin_read, stdin_write = os.pipe()
    out_read, out_write = os.pipe()
    os.write(stdin_write, line(INITIALIZE) + line(INITIALIZED) + line(CALL))
    os.close(stdin_write)
    quiet: list[str] = []
    try:
        answers = EarlyAnswers("legacy", tools_list_json("legacy", None))
        first = read_first_lines(stdin_read, out_write, answers, lambda: quiet.append("quiet"))
    finally:
        for fd in (stdin_read, out_read, out_write):
            os.close(fd)
    assert (first.first_tool, quiet) == ("navigate", [])


@pytest.mark.parametrize(
    "opening",
    [
        pytest.param(b"not json\n", id="not JSON: the wire answers it"),
        pytest.param(line(LIST), id="a request before the initialize: the SDK's"),
        pytest.param(
            line({**INITIALIZE, "params": {**PARAMS, "capabilities": {"unknown": {}}}}),
            id="an unusual initialize: the SDK's",
        ),
    ],
)
def test_a_first_line_not_answered_here_is_left_whole_to_the_wire(opening: bytes) -> None:
    with first_lines(opening + line(INITIALIZE)) as (first, answers, out):
        assert (out, answers.early, answers.initialize) == ([], [], None)
        assert (first.first_tool, first.unread) == (None, opening + line(INITIALIZE))


def test_after_the_initialize_any_other_notification_stops_reading() -> None:
    """Only the initialized notification is kept here: the others are the fast path's or the SDK's."""
    cancelled = line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}})
    with first_lines(line(INITIALIZE) + cancelled + line(CALL)) as (first, answers, out):
        assert [reply["id"] for reply in out] == [0]
        assert answers.early == [INITIALIZE]
        assert (first.first_tool, first.unread) == (None, cancelled + line(CALL))


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
@pytest.mark.parametrize("said", [b"", line(INITIALIZE)], ids=["silent", "initialized"])
def test_a_stop_signal_before_the_event_loop_runs_ends_the_server_at_once_and_cleanly(
    stop: signal.Signals, said: bytes
) -> None:
    """A server blocked reading its first lines: no event loop handles the signal yet."""
    with subprocess.Popen(
        [sys.executable, "-m", "cdpilot.cli", "--mode", "legacy"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=server_env("legacy"),
    ) as server:
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        try:
            assert b"cdpilot" in server.stderr.readline()  # its start-up line: it reads its first lines now
            if said:
                server.stdin.write(said)
                server.stdin.flush()
                assert json.loads(server.stdout.readline())["id"] == 0
            server.send_signal(stop)
            assert server.wait(timeout=10) == 0
            assert b"Traceback" not in server.stderr.read()
        finally:
            if server.poll() is None:
                server.kill()
