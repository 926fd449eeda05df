"""The real server over stdio: the official `mcp` client for the contract, a raw pipe for bad input."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cdpilot_generated import manifests
from mcp.shared.exceptions import MCPError

from codegen.lint import SMART_PAYLOAD_BUDGET
from tests.e2e.harness import Handshake, RawServer, mcp_client, server_env, text_of

pytestmark = pytest.mark.anyio

MANIFESTS = {"smart": manifests.SMART_TOOLS_JSON, "legacy": manifests.LEGACY_TOOLS_JSON}
SMART_NAMES = {t["name"] for t in json.loads(manifests.SMART_TOOLS_JSON)["tools"]}
LEGACY_NAMES = {t["name"] for t in json.loads(manifests.LEGACY_TOOLS_JSON)["tools"]}


@pytest.mark.parametrize("handshake", ["legacy", "auto"])
async def test_each_mode_lists_its_own_tools(handshake: Handshake) -> None:
    async with mcp_client("smart", handshake=handshake) as client:
        smart = await client.list_tools()
    async with mcp_client("legacy", handshake=handshake) as client:
        legacy = await client.list_tools()
    assert {t.name for t in smart.tools} == SMART_NAMES
    assert {t.name for t in legacy.tools} == LEGACY_NAMES
    assert {
        "chrome_launch",
        "chrome_connect",
        "chrome_list_connections",
        "chrome_switch_connection",
        "chrome_disconnect",
        "navigate",
    } <= LEGACY_NAMES
    chrome = next(t for t in smart.tools if t.name == "chrome")
    assert chrome.input_schema["properties"]["action"]["enum"] == [
        "launch",
        "connect",
        "run",
        "list",
        "switch",
        "disconnect",
        "save_state",
        "load_state",
    ]
    # Hints equal to the MCP defaults are left off the wire: chrome's are all destructive, open world.
    assert chrome.annotations is None
    query = next(t for t in smart.tools if t.name == "query_elements")
    assert query.annotations is not None and query.annotations.read_only_hint is True


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_the_size_of_tools_list_on_the_wire(mode: str) -> None:
    """The size of tools/list (the token economy: at most 20 smart tools in few characters), from
    the real server over stdio; the result is re-serialised with the server's compact separators,
    so its length is what the client received."""
    server = await RawServer.start(mode)
    try:
        await server.initialize()
        result = (await server.request("tools/list"))["result"]
    finally:
        await server.kill()
    size = len(json.dumps(result, separators=(",", ":"), ensure_ascii=False))
    print(f"{mode} tools/list: {len(result['tools'])} tools, {size} characters")
    assert result == json.loads(MANIFESTS[mode])
    if mode == "smart":
        assert len(result["tools"]) <= 20 and size <= SMART_PAYLOAD_BUDGET


@pytest.mark.parametrize(
    ("mode", "tool", "args", "error_type"),
    [
        ("smart", "chrome", {"action": "connect", "timeout_ms": 500}, "VALIDATION"),
        ("legacy", "chrome_connect", {"timeout_ms": 500}, "CONNECTION"),  # accepted: it reached the dead port
    ],
)
async def test_a_parameter_smart_mode_omits_is_refused_there_and_taken_in_legacy(
    mode: str, tool: str, args: dict[str, object], error_type: str
) -> None:
    async with mcp_client(mode) as client:
        result = await client.call_tool(tool, {**args, "port": closed_port()})
    assert result.meta is not None and result.meta["cdpilot/errorType"] == error_type
    refused = "- timeout_ms: expected no such parameter in smart mode (only legacy mode has it: chrome_connect)"
    assert (refused in text_of(result)) == (mode == "smart")


async def test_unknown_tool_is_error_32602() -> None:
    async with mcp_client("smart") as client:
        with pytest.raises(MCPError) as info:
            await client.call_tool("no_such_tool", {})
        assert info.value.code == -32602
        assert info.value.message == "Unknown tool: no_such_tool"
        assert not (await client.call_tool("chrome", {"action": "list"})).is_error


@pytest.mark.parametrize(
    ("mode", "tool", "args"),
    [
        ("smart", "chrome", {"action": "connect", "port": "not-a-port"}),
        ("legacy", "chrome_connect", {"port": "not-a-port"}),
    ],
)
async def test_invalid_arguments_are_a_validation_result_naming_the_field(
    mode: str, tool: str, args: dict[str, object]
) -> None:
    async with mcp_client(mode) as client:
        result = await client.call_tool(tool, args)
    assert result.is_error
    assert result.meta is not None
    assert result.meta["cdpilot/errorType"] == "VALIDATION"
    assert result.meta["cdpilot/toolName"] == tool
    assert result.meta["cdpilot/recoverable"] is True
    assert "port: expected a valid integer, got 'not-a-port'" in text_of(result)
    assert "\n\nSuggestion: " in text_of(result)


@pytest.mark.parametrize(
    ("mode", "tool", "launch"),
    [
        ("smart", "navigate", 'chrome(action="launch")'),
        ("legacy", "navigate", "chrome_launch()"),
    ],
)
async def test_navigate_without_a_browser_suggests_the_launch_tool_of_the_mode(
    mode: str, tool: str, launch: str
) -> None:
    async with mcp_client(mode, "--no-auto-launch") as client:
        result = await client.call_tool(tool, {"url": "http://127.0.0.1:1/"})
    assert result.is_error
    assert result.meta is not None and result.meta["cdpilot/errorType"] == "CONNECTION"
    suggestion = text_of(result).split("Suggestion: ", 1)[1]
    assert launch in suggestion


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("mode", "tool", "args"),
    [
        ("smart", "chrome", {"action": "connect"}),
        ("legacy", "chrome_connect", {}),
    ],
)
async def test_connecting_to_a_closed_port_fails_fast_naming_host_and_port(
    mode: str, tool: str, args: dict[str, object]
) -> None:
    """Fast: the refusal is the answer, not a timeout run out (which would say "did not answer")."""
    port = closed_port()
    async with mcp_client(mode) as client:
        result = await client.call_tool(tool, {**args, "port": port})
    assert result.is_error
    assert result.meta is not None and result.meta["cdpilot/errorType"] == "CONNECTION"
    text = text_of(result)
    assert f"127.0.0.1:{port}" in text and "connection refused" in text, text


async def test_bad_lines_get_jsonrpc_errors_and_the_session_goes_on() -> None:
    server = await RawServer.start("smart")
    try:
        await server.initialize()
        await server.send_raw(b"this is not json\n")
        assert (await server.read_message())["error"]["code"] == -32700
        await server.send_raw(b'{"jsonrpc": "2.0", "id": 41}\n')
        reply = await server.read_message()
        assert reply["id"] == 41 and reply["error"]["code"] == -32600
        await server.send_raw(b"[1, 2]\n")
        assert (await server.read_message())["error"]["code"] == -32600
        await server.send_raw(b"\n")  # blank lines are ignored, not answered
        assert (await server.request("ping"))["result"] == {}
        reply = await server.call_tool("chrome", {"action": "list"})
        assert reply["result"]["content"][0]["text"].startswith("No connections.")
        unknown = await server.request("no/such/method")
        assert unknown["error"]["code"] == -32601
        assert await server.close_stdin_and_wait() == 0
    finally:
        await server.kill()


def test_stdin_from_a_file_or_dev_null_is_served_and_ends_cleanly(tmp_path: Path) -> None:
    """Not every stdin is a pipe: epoll refuses files and /dev/null, so they are read by a thread."""
    requests = tmp_path / "requests.jsonl"
    requests.write_text(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
        '"capabilities":{},"clientInfo":{"name":"file","version":"0"}}}\nnot json\n'
    )
    for stdin in (requests, Path(os.devnull)):
        with stdin.open("rb") as source:
            done = subprocess.run(
                [sys.executable, "-m", "cdpilot.cli"], stdin=source, capture_output=True, timeout=30, check=False
            )
        assert done.returncode == 0, done.stderr
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        if stdin == requests:
            assert sorted(r["id"] or 0 for r in replies) == [0, 1]
            assert any(r.get("error", {}).get("code") == -32700 for r in replies)
        else:
            assert replies == []


async def test_a_tool_over_its_rate_limit_is_refused_clearly_and_other_tools_go_on() -> None:
    async with mcp_client("legacy", "--rate-limit", "3/60", "--no-auto-launch") as client:
        for _ in range(3):
            assert not (await client.call_tool("chrome_list_connections", {})).is_error
        refused = await client.call_tool("chrome_list_connections", {})
        assert refused.is_error and refused.meta is not None
        assert refused.meta["cdpilot/errorType"] == "EXECUTION"
        text = text_of(refused)
        assert "chrome_list_connections is over its rate limit (3 calls per 60 s)" in text
        assert "Suggestion: Wait " in text and "--rate-limit" in text
        other = await client.call_tool("navigate", {"url": "http://127.0.0.1:9/"})
        assert other.meta is not None and other.meta["cdpilot/errorType"] == "CONNECTION"  # not rate-limited


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("chrome_list_connections", {}),  # a result
        ("navigate", {"url": "http://127.0.0.1:9/"}),  # a tool error, with _meta
        ("no_such_tool", {}),  # a JSON-RPC error
        ("navigate", {"url": 7}),  # a VALIDATION error
    ],
)
async def test_the_fast_path_answers_exactly_as_the_sdk_path(name: str, arguments: dict[str, object]) -> None:
    """A progress token keeps a call on the SDK's path; without one it takes cdpilot's fast path.
    (No auto-launch: the first navigate would launch a browser and say so, the second not.)"""
    server = await RawServer.start("legacy", "--no-auto-launch")
    try:
        await server.initialize()
        via_sdk = await server.request(
            "tools/call", {"name": name, "arguments": arguments, "_meta": {"progressToken": "sdk"}}
        )
        via_fast_path = await server.request("tools/call", {"name": name, "arguments": arguments})
        del via_sdk["id"], via_fast_path["id"]
        assert via_fast_path == via_sdk
    finally:
        await server.kill()


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_tools_list_is_the_same_from_the_handshake_the_sdk_and_the_fast_path(mode: str) -> None:
    """The handshake answers tools/list until the SDK is loaded; then the SDK does until
    notifications/initialized, and the fast path after it. A client must not be able to tell."""
    server = await RawServer.start(mode)
    try:
        await server.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        via_handshake = await server.request("tools/list")
        # A call is answered only once the SDK has taken over; before notifications/initialized
        # the fast path leaves it, and tools/list, to the SDK.
        assert "error" in await server.call_tool("no_such_tool", {})
        via_sdk = await server.request("tools/list")
        await server.send_raw(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        via_fast_path = await server.request("tools/list")
        assert via_handshake["result"] == via_sdk["result"] == via_fast_path["result"] == json.loads(MANIFESTS[mode])
    finally:
        await server.kill()


# The server with its call layer held back until the test lets it load: the thread that imports
# it first waits for a byte on a pipe; each stage says what was imported before it began.
GATED_SERVER = """
import os, sys
from cdpilot import cli
from cdpilot.server import app

load_calls, load_sdk = app.load_call_layer, app.import_sdk_side
heavy = ("mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "websockets")


def said(stage: str) -> None:
    early = sorted(m for m in sys.modules if m.split(".")[0] in heavy)
    print(f"imported before {stage}: {early}", file=sys.stderr, flush=True)


def gated_calls(first_call: object) -> None:
    os.read(int(os.environ["CDPILOT_TEST_GATE"]), 1)
    said("the call layer")
    load_calls(first_call)


def told_sdk() -> None:
    said("the SDK")
    load_sdk()


app.load_call_layer, app.import_sdk_side = gated_calls, told_sdk
sys.exit(cli.main(sys.argv[1:]))
"""


async def test_the_handshake_is_answered_first_then_calls_without_the_sdk_which_loads_last() -> None:
    gate_read, gate_write = os.pipe()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        GATED_SERVER,
        "--mode",
        "legacy",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**server_env("legacy"), "CDPILOT_TEST_GATE": str(gate_read)},
        pass_fds=(gate_read,),
    )
    os.close(gate_read)
    server = RawServer(proc)

    async def stage_said(stage: bytes) -> bytes:
        assert proc.stderr is not None
        said = b""
        while stage not in said:
            said = await asyncio.wait_for(proc.stderr.readline(), 30)
            assert said, "the server ended without saying"
        return said

    try:
        initialized = await server.initialize()
        assert initialized["result"] == json.loads(manifests.INITIALIZE_RESULTS["2025-06-18"])
        assert (await server.request("tools/list"))["result"] == json.loads(MANIFESTS["legacy"])
        assert (await server.request("ping"))["result"] == {}
        await server.send_raw(
            b'{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"chrome_list_connections"}}\n'
        )
        await server.send_raw(b"not json\n")
        assert (await server.read_message())["error"]["code"] == -32700  # the call waits for the call layer
        os.write(gate_write, b"!")
        assert await stage_said(b"before the call layer") == b"imported before the call layer: []\n"
        reply = await server.read_message()
        assert reply["id"] == "call" and reply["result"]["content"][0]["text"].startswith("No connections.")
        before_sdk = (await stage_said(b"before the SDK")).decode()
        assert "pydantic" in before_sdk and "'mcp" not in before_sdk  # the call was served with no SDK
        assert (await server.request("resources/list"))["result"] == {"resources": []}  # the SDK's, once it is in
    finally:
        os.close(gate_write)
        await server.kill()
