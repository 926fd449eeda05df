"""Line parsing of the stdio transport: every bad line gets exactly one JSON-RPC error."""

from __future__ import annotations

import json

import pytest
from mcp.shared.message import SessionMessage

from cdpilot.server.jsonrpc import parse_payload
from cdpilot.server.stdio import serialize_message, to_message


def parse_line(line: bytes) -> SessionMessage | bytes | None:
    """What the transport makes of a line: the SDK's message, the error reply, or None (blank)."""
    payload = parse_payload(line)
    return to_message(payload) if isinstance(payload, dict) else payload


def error_of(line: bytes) -> dict[str, object]:
    reply = parse_line(line)
    assert isinstance(reply, bytes) and reply.endswith(b"\n") and reply.count(b"\n") == 1
    parsed: dict[str, object] = json.loads(reply)
    assert parsed["jsonrpc"] == "2.0"
    return parsed


@pytest.mark.parametrize("line", [b"not json\n", b'{"jsonrpc": \n', b"\xff\xfe\n", b"{'single': 'quotes'}\n"])
def test_unparsable_lines_are_parse_errors_with_a_null_id(line: bytes) -> None:
    reply = error_of(line)
    assert reply["id"] is None
    assert reply["error"]["code"] == -32700  # type: ignore[index]


@pytest.mark.parametrize(
    ("line", "expected_id"),
    [
        (b'{"jsonrpc": "2.0", "id": 7}\n', 7),  # no method, no result
        (b'{"jsonrpc": "1.0", "id": "a", "method": "ping"}\n', "a"),
        (b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}\n', None),  # an id that is no id
        (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}\n', None),
        (b"[]\n", None),
        (b"42\n", None),
    ],
)
def test_json_that_is_not_jsonrpc_is_an_invalid_request(line: bytes, expected_id: object) -> None:
    reply = error_of(line)
    assert reply["id"] == expected_id
    assert reply["error"]["code"] == -32600  # type: ignore[index]


def test_blank_lines_are_skipped() -> None:
    assert parse_line(b"  \r\n") is None


def test_a_request_passes_through() -> None:
    message = parse_line(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\r\n')
    assert isinstance(message, SessionMessage)
    assert message.message.model_dump(exclude_unset=True) == {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


@pytest.mark.parametrize(
    "line",
    [
        # A UTF-16-BE request: json.loads(bytes) guesses the encoding and used to serve it.
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}).encode("utf-16-be") + b"\x00\n",
        b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": NaN}}\n',
        b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": -Infinity}}\n',
        b"[" * 100_000 + b"]" * 100_000 + b"\n",  # used to raise RecursionError and end the server
    ],
    ids=["utf-16", "nan", "infinity", "deep"],
)
def test_what_is_not_utf8_json_is_a_parse_error(line: bytes) -> None:
    reply = error_of(line)
    assert reply["id"] is None
    assert reply["error"]["code"] == -32700  # type: ignore[index]


def test_a_reply_with_a_lone_surrogate_is_escaped_not_fatal() -> None:
    """UTF-8 cannot carry a lone surrogate (an escaped id echoed back, a page's JavaScript
    string); serialising one used to raise and take the writer, and the server, down."""
    message = parse_line(b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}\n')
    assert isinstance(message, SessionMessage)
    wire = serialize_message(message)
    assert wire.isascii() and b"\\ud800" in wire
    assert json.loads(wire)["id"] == "\ud800"
