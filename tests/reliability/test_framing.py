"""JSON-RPC framing: whatever bytes a client writes, the session goes on.

One real server (smart mode, no browser needed) is sent a table of hostile or odd lines:
text that is not JSON or not UTF-8, JSON that is not a JSON-RPC request (wrong types,
batches, ids that are no ids), requests before initialize, unknown methods, duplicate
ids, notifications with and without ids, blank lines, and lines of several and of 40 MB.
Each must get exactly one JSON-RPC reply with the expected error code (or result), or none
where the spec says so (notifications, a stray response, blank lines); every stdout line
must be a JSON-RPC message; afterwards ``ping`` and a tools/call still answer, and a last
line cut off by EOF still ends the server cleanly. (It is not answered: at EOF the SDK
cancels what is in flight, the client having shut the session down.)

tests/e2e/test_protocol.py already checks a non-JSON line, an id without a method,
``[1, 2]``, a blank ``\\n`` and an unknown method, and tests/test_transport.py the line
parser; neither is repeated here. This suite is the end-to-end tally the report needs.

Replies are matched to cases by id; an error that cannot carry the id (``id: null``)
belongs to the case whose window it arrived in: each case is followed by a sentinel
``ping``, and the transport writes its own errors before it reads the next line.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.e2e.harness import RawServer
from tests.reliability.conftest import Report

pytestmark = pytest.mark.anyio

SUITE = "jsonrpc_framing"
REPLY_WITHIN_S = 30.0
INIT_PARAMS = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "framing", "version": "0"}}
NO_ID = object()  # the reply is `id: null`: the request's id could not be read or was no id
PARSE, INVALID_REQUEST, NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


def line(**message: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


@dataclass(frozen=True)
class Case:
    """One line (or a few) to send, and the replies it must get.

    ``code`` None means a result; ``replies`` is how many (0 for a notification); the
    replies carry ``reply_id``, by default the case's name, which every request uses as id.
    """

    name: str
    data: bytes
    code: int | None = None
    replies: int = 1
    reply_id: object = None

    @property
    def expected_id(self) -> object:
        return self.name if self.reply_id is None else self.reply_id


def before_initialize() -> list[Case]:
    """MCP allows only ping before initialize; the SDK refuses the rest with -32602."""
    return [
        Case("pre-ping", line(id="pre-ping", method="ping")),
        Case("pre-list", line(id="pre-list", method="tools/list"), INVALID_PARAMS),
        Case("pre-call", line(id="pre-call", method="tools/call", params={"name": "chrome"}), INVALID_PARAMS),
        Case("init-no-params", line(id="init-no-params", method="initialize"), INVALID_PARAMS),
        Case(
            "init-bad-version",
            line(id="init-bad-version", method="initialize", params={"protocolVersion": 5}),
            INVALID_PARAMS,
        ),
    ]


def after_initialize() -> list[Case]:
    # A UTF-16 request, which json.loads(bytes) used to recognise and serve.
    utf16 = json.dumps({"jsonrpc": "2.0", "id": "utf16", "method": "ping"}).encode("utf-16-be") + b"\x00\n"
    return [
        # Not JSON, or not UTF-8 JSON: -32700 with id null.
        Case("truncated", b'{"jsonrpc":"2.0","id":"truncated","method":"ping"\n', PARSE, reply_id=NO_ID),
        Case("trailing-garbage", line(id="trailing-garbage", method="ping")[:-1] + b" x\n", PARSE, reply_id=NO_ID),
        Case("invalid-utf8", b'{"jsonrpc":"2.0","id":"\xff","method":"ping"}\n', PARSE, reply_id=NO_ID),
        Case("utf16", utf16, PARSE, reply_id=NO_ID),
        Case("nan", b'{"jsonrpc":"2.0","id":"nan","method":"ping","params":{"v":NaN}}\n', PARSE, reply_id=NO_ID),
        Case("deep", b"[" * 100_000 + b"]" * 100_000 + b"\n", PARSE, reply_id=NO_ID),
        Case("5mb-not-json", b"x" * (5 << 20) + b"\n", PARSE, reply_id=NO_ID),
        # JSON but not a JSON-RPC request: -32600, with the id when it is one.
        Case("params-string", line(id="params-string", method="ping", params="x"), INVALID_REQUEST),
        Case("params-array", line(id="params-array", method="tools/list", params=[1]), INVALID_REQUEST),
        Case("method-number", line(id="method-number", method=5), INVALID_REQUEST),
        Case("no-jsonrpc", json.dumps({"id": "no-jsonrpc", "method": "ping"}).encode() + b"\n", INVALID_REQUEST),
        Case("id-float", line(id=1.5, method="ping"), INVALID_REQUEST, reply_id=NO_ID),
        Case("id-null", line(id=None, method="ping"), INVALID_REQUEST, reply_id=NO_ID),
        Case("id-array", line(id=[1], method="ping"), INVALID_REQUEST, reply_id=NO_ID),
        Case(
            "batch-of-requests",
            b"[" + line(id="in-batch", method="ping")[:-1] + b"]\n",
            INVALID_REQUEST,
            reply_id=NO_ID,
        ),
        Case("string", b'"ping"\n', INVALID_REQUEST, reply_id=NO_ID),
        Case("null", b"null\n", INVALID_REQUEST, reply_id=NO_ID),
        Case("40mb-line", b'{"x":"' + b"a" * (40 << 20) + b'"}\n', INVALID_REQUEST, reply_id=NO_ID),
        # Unknown methods: -32601 with the id.
        Case("unknown-with-params", line(id="unknown-with-params", method="tools/destroy", params={}), NOT_FOUND),
        Case("empty-method", line(id="empty-method", method=""), NOT_FOUND),
        Case("notification-with-id", line(id="notification-with-id", method="notifications/initialized"), NOT_FOUND),
        # Known methods, wrong params: -32602 with the id.
        Case("call-name-number", line(id="call-name-number", method="tools/call", params={"name": 5}), INVALID_PARAMS),
        Case("call-no-params", line(id="call-no-params", method="tools/call"), INVALID_PARAMS),
        Case(
            "call-arguments-string",
            line(id="call-arguments-string", method="tools/call", params={"name": "chrome", "arguments": "x"}),
            INVALID_PARAMS,
        ),
        Case(
            "list-cursor-number",
            line(id="list-cursor-number", method="tools/list", params={"cursor": 5}),
            INVALID_PARAMS,
        ),
        # No reply: notifications, a response nobody asked for, blank lines.
        Case("ping-without-id", line(method="ping"), replies=0),
        Case("unknown-notification", line(method="notifications/whatever"), replies=0),
        Case("cancel-unknown-request", line(method="notifications/cancelled", params={"requestId": "nope"}), replies=0),
        Case("stray-response", line(id="stray-response", result={}), replies=0),
        Case("crlf", b"\r\n", replies=0),
        Case("whitespace", b"  \t \n", replies=0),
        # Requests that must simply work, however they look.
        Case("duplicate-id", line(id="duplicate-id", method="ping") * 2, replies=2),
        Case("string-id-empty", line(id="", method="ping"), reply_id=""),
        Case("id-bigint", line(id=10**30, method="ping"), reply_id=10**30),
        Case("id-lone-surrogate", b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n', reply_id="\ud800"),
        Case(
            "5mb-call",
            line(
                id="5mb-call",
                method="tools/call",
                params={"name": "evaluate", "arguments": {"expression": "1+" * (5 << 19) + "1"}},
            ),
        ),
        Case("second-initialize", line(id="second-initialize", method="initialize", params=INIT_PARAMS)),
    ]


def jsonrpc_problem(message: Any) -> str | None:
    """Why a stdout line is not a JSON-RPC 2.0 message (None when it is one)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return "not a JSON-RPC 2.0 object"
    if "method" in message:
        return None if isinstance(message["method"], str) else "a method that is not a string"
    if not isinstance(message.get("id"), str | int | type(None)) or isinstance(message.get("id"), bool):
        return "an id that is no id"
    if ("result" in message) == ("error" in message):
        return "not exactly one of result and error"
    error = message.get("error", {"code": 0, "message": ""})
    ok = isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str)
    return None if ok else "an error without an integer code and a message"


class Stdout:
    """Every stdout line of the server, read in the background (in chunks, so no line length
    limit applies) and parsed as it arrives; lines that are not JSON are kept apart."""

    def __init__(self, server: RawServer) -> None:
        self.messages: list[Any] = []
        self.unparsable: list[bytes] = []
        self.raw_lines = 0
        self._changed = asyncio.Event()
        self._task = asyncio.create_task(self._read(server))

    async def _read(self, server: RawServer) -> None:
        assert server.proc.stdout is not None
        pending = b""
        while chunk := await server.proc.stdout.read(1 << 16):
            *lines, pending = (pending + chunk).split(b"\n")
            for raw in lines:
                self.raw_lines += 1
                try:
                    self.messages.append(json.loads(raw))
                except ValueError:
                    self.unparsable.append(raw[:200])
            self._changed.set()
        self._changed.set()

    async def wait_for_id(self, request_id: object, start: int = 0) -> int:
        """Index of the first message from `start` on with this id."""
        async with asyncio.timeout(REPLY_WITHIN_S):
            while True:
                for index in range(start, len(self.messages)):
                    if isinstance(self.messages[index], dict) and self.messages[index].get("id") == request_id:
                        return index
                if self._task.done():
                    raise AssertionError(f"stdout closed before a reply with id {request_id!r}")
                self._changed.clear()
                await self._changed.wait()

    async def finish(self) -> None:
        await self._task


@dataclass
class Tally:
    sent_cases: int = 0
    sent_bytes: int = 0
    replies_by_code: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def reply_kind(message: dict[str, Any]) -> str:
    return str(message["error"]["code"]) if "error" in message else "result"


async def run_cases(server: RawServer, stdout: Stdout, cases: list[Case], tally: Tally) -> None:
    """Send each case, then a sentinel ping; check what arrived in between (and, for a
    request the SDK answers in a task of its own, what arrives with its id later)."""
    for number, case in enumerate(cases):
        start = len(stdout.messages)
        await server.send_raw(case.data)
        sentinel = f"sentinel-{case.name}-{number}"
        await server.send_raw(line(id=sentinel, method="ping"))
        end = await stdout.wait_for_id(sentinel, start)
        if case.replies and case.expected_id is not NO_ID:
            await stdout.wait_for_id(case.expected_id, start)
        tally.sent_cases += 1
        tally.sent_bytes += len(case.data)
        window = stdout.messages[start:end]
        nulls = [m for m in window if isinstance(m, dict) and m.get("id") is None and "error" in m]
        stray = [m for m in window if m not in nulls and (not isinstance(m, dict) or m.get("id") != case.expected_id)]
        if stray:
            tally.problems.append(f"{case.name}: unexpected replies {stray!r:.300}")
        if case.expected_id is NO_ID:
            got = nulls
        else:
            if nulls:
                tally.problems.append(f"{case.name}: unexpected id-null errors {nulls!r:.300}")
            got = [m for m in stdout.messages[start:] if isinstance(m, dict) and m.get("id") == case.expected_id]
            got = [m for m in got if "method" not in m]
        tally.replies_by_code.update(reply_kind(m) for m in got)
        kinds = [reply_kind(m) for m in got]
        expected = [("result" if case.code is None else str(case.code))] * case.replies
        if kinds != expected:
            tally.problems.append(f"{case.name}: expected {expected}, got {kinds} {got!r:.300}")


async def test_every_line_gets_its_one_answer_and_the_session_goes_on(report: Report) -> None:
    server = await RawServer.start("smart", "--no-auto-launch")  # framing only: no browser is needed
    stdout = Stdout(server)
    tally = Tally()
    try:
        await run_cases(server, stdout, before_initialize(), tally)
        await server.send_raw(line(id="init", method="initialize", params=INIT_PARAMS))
        await stdout.wait_for_id("init")
        await server.send_raw(line(method="notifications/initialized"))
        await run_cases(server, stdout, after_initialize(), tally)

        await server.send_raw(line(id="after-ping", method="ping"))
        ping = stdout.messages[await stdout.wait_for_id("after-ping")]
        call = {"name": "chrome", "arguments": {"action": "list"}}
        await server.send_raw(line(id="after-call", method="tools/call", params=call))
        listed = stdout.messages[await stdout.wait_for_id("after-call")]
        await server.send_raw(line(id="at-eof", method="ping")[:-1])  # no newline: EOF ends the line
        exit_code = await server.close_stdin_and_wait()
        await stdout.finish()
    finally:
        await server.kill()

    in_batch = [m for m in stdout.messages if isinstance(m, dict) and m.get("id") == "in-batch"]
    malformed = [(m, why) for m in stdout.messages if (why := jsonrpc_problem(m))]
    report.record(
        SUITE,
        cases_sent=tally.sent_cases,
        bytes_sent=tally.sent_bytes,
        replies_by_code=dict(tally.replies_by_code),
        no_reply_cases=sum(1 for c in before_initialize() + after_initialize() if not c.replies),
        stdout_lines=stdout.raw_lines,
        stdout_lines_not_json=len(stdout.unparsable),
        stdout_lines_not_jsonrpc=len(malformed),
        mismatched_cases=len(tally.problems),
        ping_after=ping.get("result") == {},
        tool_call_after=not listed["result"].get("isError", False),
        exit_code_after_a_cut_line=exit_code,
    )
    assert tally.problems == [], "\n".join(tally.problems)
    assert stdout.unparsable == [] and malformed == []
    assert in_batch == []  # a batch is refused as a whole, its requests are not run
    assert ping["result"] == {}
    assert listed["result"]["content"][0]["text"].startswith("No connections.")
    assert exit_code == 0
