"""The handshake before the SDK is loaded: what it answers (exactly what the SDK answers, for
every protocol version and a filtered tool list), the calls it hands to the fast path, what it
keeps for the SDK (asking for it to be loaded), and the hand-over."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import pytest
from cdpilot_generated import manifests
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from cdpilot import __version__
from cdpilot.server import sdk_server
from cdpilot.server.call_results import CallResult, TextBlock
from cdpilot.server.fast_path import FastCalls, Tools
from cdpilot.server.file_links import SessionFiles
from cdpilot.server.first_lines import EarlyAnswers
from cdpilot.server.handshake import HandOver, Handshake
from cdpilot.server.tool_filter import select_tools, tools_list_json
from cdpilot.server.wire import Lines, Wire, Writer
from tests.support.sdk_wire import exchange_lines

pytestmark = pytest.mark.anyio

CLIENT = {"name": "test", "version": "0"}


def line(message: dict[str, Any] | str) -> bytes:
    return (message if isinstance(message, str) else json.dumps(message)).encode() + b"\n"


def initialize(request_id: int | str = 0, version: str = "2025-06-18", **params: Any) -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT, **params}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def request(request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params is not None else {})}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Script:
    """Lines given in advance, then the end of input; remembers reaching it."""

    def __init__(self, *messages: dict[str, Any] | str) -> None:
        self._lines = [line(message) for message in messages]
        self.ended = asyncio.Event()

    async def next(self) -> bytes | None:
        if self._lines:
            return self._lines.pop(0)
        self.ended.set()
        return None


class Tool:
    """Answers every call with its name, after `release` (set from the start unless told)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.release.set()

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        await self.release.wait()
        return CallResult([TextBlock(name)])


class Served:
    """A handshake as the server makes one: its fast path, and whether it asked for the SDK."""

    def __init__(self, mode: manifests.Mode, write: Any, tool: Tool | None = None) -> None:
        list_json = tools_list_json(mode, None)
        self.fast = FastCalls(Tools((tool or Tool()).call, list_json, mode), write)
        self.sdk_needed = asyncio.Event()
        self.handshake = Handshake(EarlyAnswers(mode, list_json), write, self.fast, need_sdk=self.sdk_needed.set)


async def handshake_alone(
    *messages: dict[str, Any] | str, mode: manifests.Mode = "legacy"
) -> tuple[list[bytes], HandOver]:
    """What the handshake and its fast path write for `messages` while the SDK is not loaded, and
    what it hands over."""
    written: list[bytes] = []

    async def write(data: bytes) -> None:
        written.append(data)

    loaded = asyncio.get_running_loop().create_future()
    script = Script(*messages)
    served = Served(mode, write)
    serving = asyncio.create_task(served.handshake.serve(script, loaded))
    async with asyncio.timeout(5):
        await script.ended.wait()  # every line was taken: now it waits for the SDK
        await served.fast.idle()
        answered = list(written)
        loaded.set_result(None)
        return answered, await serving


async def test_the_handshake_is_answered_calls_served_and_the_rest_kept_in_order() -> None:
    listed_with_meta = request(5, "tools/list", {"_meta": {"progressToken": 1}})
    call = request(4, "tools/call", {"name": "chrome_list_connections"})
    written, handover = await handshake_alone(
        initialize(), INITIALIZED, request(2, "tools/list"), request(3, "ping"), call, listed_with_meta
    )
    result = manifests.INITIALIZE_RESULTS["2025-06-18"]
    assert [json.loads(data) for data in written] == [
        {"jsonrpc": "2.0", "id": 0, "result": json.loads(result)},
        {"jsonrpc": "2.0", "id": 2, "result": json.loads(manifests.LEGACY_TOOLS_JSON)},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
        {
            "jsonrpc": "2.0",
            "id": 4,
            "result": {"content": [{"type": "text", "text": "chrome_list_connections"}], "isError": False},
        },
    ]
    assert handover.early == [initialize(), INITIALIZED, listed_with_meta]
    assert handover.initialize is not None
    assert (handover.initialize.request_id, handover.initialize.version) == (0, "2025-06-18")
    assert handover.pending.result() is None  # input ended


async def test_lines_that_are_no_json_rpc_object_get_their_errors_at_once() -> None:
    """Whether an object is a well-formed JSON-RPC message is for the SDK's models to say (at the
    hand-over); what is not even an object, or has an id that is none, is answered at once."""
    no_method = {"jsonrpc": "2.0", "id": 7}
    written, handover = await handshake_alone(
        "not json", "[1, 2]", '{"jsonrpc": "2.0", "id": true, "method": "ping"}', "", "[" * 100_000, no_method
    )
    errors = [json.loads(data) for data in written]
    assert [(error["id"], error["error"]["code"]) for error in errors] == [
        (None, -32700),
        (None, -32600),
        (None, -32600),
        (None, -32700),
    ]
    assert handover.early == [no_method]


@pytest.mark.parametrize(
    "first",
    [
        request(1, "tools/list"),
        request(1, "ping"),
        request(1, "server/discover"),
        {"jsonrpc": "2.0", "id": 1, "method": "ping", "result": {}},  # odd, and still the SDK's to judge
    ],
    ids=["tools-list", "ping", "discover", "odd"],
)
async def test_only_a_first_initialize_is_answered_here(first: dict[str, Any]) -> None:
    """The first request decides the session's era and what the SDK makes of the rest; a
    session that opens otherwise is the SDK's from the start."""
    written, handover = await handshake_alone(first, initialize(), request(2, "ping"))
    assert written == []
    assert handover.early == [first, initialize(), request(2, "ping")] and handover.initialize is None


async def test_after_a_second_initialize_everything_is_the_sdks() -> None:
    written, handover = await handshake_alone(initialize(), initialize(1), request(2, "ping"))
    assert [json.loads(data)["id"] for data in written] == [0]
    assert handover.early == [initialize(), initialize(1), request(2, "ping")]


@pytest.mark.parametrize(
    "params",
    [
        {"capabilities": {"tasks": {}}},  # a capability this side does not know
        {"capabilities": {"roots": {"listChanged": "yes"}}},
        {"capabilities": {"sampling": {"context": True}}},
        {"capabilities": []},
        {"clientInfo": {"name": "x"}},
        {"clientInfo": {"name": "x", "version": "1", "icons": []}},
        {"protocolVersion": 20250618},
        {"_meta": {"progressToken": 1}},
    ],
)
async def test_unusual_initialize_params_wait_for_the_sdk(params: dict[str, Any]) -> None:
    written, handover = await handshake_alone(initialize(**params))
    assert written == [] and handover.initialize is None and handover.early == [initialize(**params)]


async def test_ping_and_tools_list_with_params_of_their_own_wait_for_the_sdk() -> None:
    odd = [
        request(1, "ping", {"_meta": {}}),
        request(2, "tools/list", {"cursor": 5}),
        request(3, "tools/list", {"x": 1}),
    ]
    written, handover = await handshake_alone(initialize(), *odd)
    assert len(written) == 1 and handover.early == [initialize(), *odd]


# The SDK's own answers, for comparison: its server as cdpilot builds it, driven in-process.


async def sdk_answers(list_json: str, *messages: dict[str, Any]) -> list[bytes]:
    async def never(name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        raise AssertionError("no call in these tests")

    return await exchange_lines(
        sdk_server.build_server(lambda _ctx: never, list_json, lambda _ctx: SessionFiles(None)), *messages
    )


def test_the_generated_identity_is_the_packages() -> None:
    assert manifests.SERVER_NAME == "cdpilot"
    assert __version__ == manifests.SERVER_VERSION  # pyproject.toml, read by codegen, and the package agree


OFFERED = [*HANDSHAKE_PROTOCOL_VERSIONS, "2026-07-28", "1999-01-01"]  # two it does not negotiate: it offers its newest
CAPABILITIES = [
    {},
    {"roots": {"listChanged": True}, "sampling": {"context": {}, "tools": {}}},
    {"elicitation": {"form": {}, "url": {}}, "experimental": {"x": {"y": 1}}},
]


@pytest.mark.parametrize("offered", OFFERED)
@pytest.mark.parametrize("capabilities", CAPABILITIES, ids=["none", "roots-sampling", "elicitation-experimental"])
async def test_initialize_is_answered_byte_for_byte_as_the_sdk_answers_it(
    offered: str, capabilities: dict[str, Any]
) -> None:
    message = initialize("a", offered, capabilities=capabilities, clientInfo={**CLIENT, "title": "Test"})
    written, handover = await handshake_alone(message)
    assert handover.initialize is not None, "answered before the SDK"
    assert written == await sdk_answers(manifests.LEGACY_TOOLS_JSON, message)


@pytest.mark.parametrize("mode", manifests.MODES)
@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
async def test_a_filtered_tools_list_and_ping_are_answered_as_the_sdk_answers_them(
    mode: manifests.Mode, version: str
) -> None:
    list_json = tools_list_json(mode, select_tools(mode, [], ["evaluate", "navigation"]))
    messages = [
        initialize(0, version),
        request(1, "tools/list"),
        INITIALIZED,
        request(2, "tools/list"),
        request(3, "ping"),
    ]
    written: list[bytes] = []

    async def write(data: bytes) -> None:
        written.append(data)

    loaded = asyncio.get_running_loop().create_future()
    script = Script(*messages)
    fast = FastCalls(Tools(Tool().call, list_json, mode), write)
    handshake = Handshake(EarlyAnswers(mode, list_json), write, fast, need_sdk=lambda: None)
    serving = asyncio.create_task(handshake.serve(script, loaded))
    await script.ended.wait()
    loaded.set_result(None)
    await serving
    # Parsed: the SDK re-serialises the tools it parsed, in its own key order.
    assert [json.loads(data) for data in written] == [
        json.loads(data) for data in await sdk_answers(list_json, *messages)
    ]


# The hand-over, over real pipes: the handshake, then the SDK's side taking over.


class Client:
    """The far end of a wire made of two pipes: writes what a client sends, reads what the server writes."""

    def __init__(self, write_fd: int, replies: asyncio.StreamReader) -> None:
        self._write_fd = write_fd
        self._replies = replies

    def send(self, *messages: dict[str, Any] | str) -> None:
        os.write(self._write_fd, b"".join(line(message) for message in messages))

    def end_input(self) -> None:
        os.close(self._write_fd)

    async def read(self) -> dict[str, Any]:
        async with asyncio.timeout(10):
            data = await self._replies.readline()
        assert data, "the server closed its output"
        message: dict[str, Any] = json.loads(data)
        return message

    async def rest(self) -> list[bytes]:
        """What is left to read once the server's end is closed."""
        async with asyncio.timeout(10):
            return (await self._replies.read()).splitlines()


class Piped:
    """A wire over two pipes, and its client."""

    def __init__(self) -> None:
        self._client_to_server, self._server_to_client = os.pipe(), os.pipe()
        self.writer = Writer(self._server_to_client[1])
        self.wire = Wire(Lines(self._client_to_server[0], self.writer), self.writer)
        self._replies = asyncio.StreamReader()
        self.client = Client(self._client_to_server[1], self._replies)
        self._output_open = True

    async def open(self) -> None:
        await self.writer.open()
        await self.wire.lines.open()
        reading = os.fdopen(self._server_to_client[0], "rb", buffering=0)
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(self._replies), reading)

    def close_server_output(self) -> None:
        """The server writes no more: the client reads to the end."""
        if self._output_open:
            self.writer.close()
            os.close(self._server_to_client[1])
            self._output_open = False

    async def aclose(self) -> None:
        await self.wire.lines.aclose()
        self.close_server_output()
        os.close(self._client_to_server[0])


@asynccontextmanager
async def piped() -> AsyncIterator[Piped]:
    pipes = Piped()
    await pipes.open()
    try:
        yield pipes
    finally:
        await pipes.aclose()


def call(request_id: int, name: str, **params: Any) -> dict[str, Any]:
    return request(request_id, "tools/call", {"name": name, "arguments": {}, **params})


async def test_calls_are_served_before_the_sdk_is_loaded() -> None:
    """A call needs no SDK: it is answered while the handshake still holds the rest for it, and
    the SDK is not asked for (the server loads it once the calls are done)."""
    tool = Tool()
    async with piped() as pipes:
        wire, client = pipes.wire, pipes.client
        loaded = asyncio.get_running_loop().create_future()
        served = Served("legacy", wire.writer.write, tool)
        handshake = asyncio.create_task(served.handshake.serve(wire.lines, loaded))
        client.send(initialize(), INITIALIZED, call(1, "first"), request(2, "ping"), call(3, "second"))
        answers = {message["id"]: message for message in [await client.read() for _ in range(4)]}
        assert answers[1]["result"]["content"][0]["text"] == "first"
        assert answers[3]["result"]["content"][0]["text"] == "second"
        assert not served.sdk_needed.is_set()
        client.send(request(4, "resources/list"))  # only the SDK answers it: it is asked for now
        async with asyncio.timeout(5):
            await served.sdk_needed.wait()
        loaded.set_result(None)
        list_json = tools_list_json("legacy", None)
        serving = asyncio.create_task(sdk_server.serve(tool.call, list_json, wire, await handshake, served.fast, None))
        assert (await client.read())["id"] == 4
        client.end_input()
        async with asyncio.timeout(10):
            await serving


async def test_the_sdk_takes_over_what_waited_in_order_and_answers_initialize_no_second_time() -> None:
    tool = Tool()
    list_json = tools_list_json("legacy", None)
    async with piped() as pipes:
        wire, client = pipes.wire, pipes.client
        loaded = asyncio.get_running_loop().create_future()
        served = Served("legacy", wire.writer.write, tool)
        handshake = asyncio.create_task(served.handshake.serve(wire.lines, loaded))
        early_call = call(1, "early")  # before notifications/initialized: the SDK's to refuse or serve
        client.send(initialize(), early_call, INITIALIZED, call(2, "first"), request(3, "ping"))
        first = {message["id"]: message for message in [await client.read() for _ in range(3)]}
        assert set(first) == {0, 2, 3}  # answered at once; the early call waits for the SDK
        assert served.sdk_needed.is_set()
        client.send(call(4, "third"), '{"jsonrpc": "2.0", "id": 5}', "not json")
        rest = {message.get("id"): message for message in [await client.read() for _ in range(2)]}
        assert rest[None]["error"]["code"] == -32700  # not JSON: answered at once
        assert rest[4]["result"]["content"][0]["text"] == "third"
        loaded.set_result(None)
        serving = asyncio.create_task(sdk_server.serve(tool.call, list_json, wire, await handshake, served.fast, None))
        answers = {message["id"]: message for message in [await client.read() for _ in range(2)]}
        assert answers.pop(5)["error"]["code"] == -32600  # not a JSON-RPC message: the SDK's models tell
        assert "result" in answers[1] or "error" in answers[1]  # the SDK answered the early call, once
        # The SDK's session is initialized, with the client's version: a call on its path (a
        # progress token keeps it there) is served, not refused as before initialization.
        client.send(call(6, "sdk", _meta={"progressToken": "p"}), "[]", request(7, "ping"))
        assert (await client.read())["error"]["code"] == -32600  # malformed lines still get their errors
        after = {message["id"]: message for message in [await client.read(), await client.read()]}
        assert after[6]["result"]["content"][0]["text"] == "sdk" and after[7]["result"] == {}
        client.end_input()
        async with asyncio.timeout(10):
            await serving
        assert await wire.lines.next() is None


async def test_input_that_ends_before_the_sdk_is_loaded_ends_the_session_as_it_would_have() -> None:
    """The SDK is asked for and takes the session over (answering initialize no second time); the
    call in flight is dropped, as every call in flight is when the client goes."""
    tool = Tool()
    tool.release.clear()
    list_json = tools_list_json("smart", None)
    async with piped() as pipes:
        wire, client = pipes.wire, pipes.client
        loaded = asyncio.get_running_loop().create_future()
        served = Served("smart", wire.writer.write, tool)
        handshake = asyncio.create_task(served.handshake.serve(wire.lines, loaded))
        client.send(initialize(), INITIALIZED, call(1, "dropped"), request(2, "tools/list"))
        client.end_input()
        assert [(await client.read())["id"] for _ in range(2)] == [0, 2]
        async with asyncio.timeout(5):
            await served.sdk_needed.wait()
        loaded.set_result(None)
        async with asyncio.timeout(10):
            await sdk_server.serve(tool.call, list_json, wire, await handshake, served.fast, None)
        pipes.close_server_output()
        assert await client.rest() == []


async def test_a_call_served_before_the_hand_over_can_be_cancelled() -> None:
    tool = Tool()
    tool.release.clear()
    list_json = tools_list_json("legacy", None)
    async with piped() as pipes:
        wire, client = pipes.wire, pipes.client
        loaded = asyncio.get_running_loop().create_future()
        served = Served("legacy", wire.writer.write, tool)
        handshake = asyncio.create_task(served.handshake.serve(wire.lines, loaded))
        cancelled = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
        client.send(initialize(), INITIALIZED, call(1, "cancelled"), cancelled, call(2, "served"))
        assert (await client.read())["id"] == 0
        loaded.set_result(None)
        serving = asyncio.create_task(sdk_server.serve(tool.call, list_json, wire, await handshake, served.fast, None))
        tool.release.set()
        assert (await client.read())["id"] == 2
        client.end_input()
        async with asyncio.timeout(10):
            await serving
        pipes.close_server_output()
        assert await client.rest() == []  # nothing for the cancelled call
