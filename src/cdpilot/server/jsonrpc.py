"""JSON-RPC lines as the stdio server reads them, before it has loaded anything heavy: the
errors a line earns before anyone looks at what it asks, and the shapes of request every
early reader checks alike. Standard library only, without asyncio: the first lines are read
before the event loop runs (`cdpilot.server.first_lines`).

- a line that is not JSON → ``-32700`` Parse error, ``id: null``; so is a line that is not
  UTF-8 (``json.loads`` would guess UTF-16/32 from the bytes), one with ``NaN`` or
  ``Infinity`` (Python extensions, not JSON), and one nested too deeply to parse;
- JSON that is not a JSON-RPC object (a batch, a number) or whose id is neither a string nor
  an integer → ``-32600`` Invalid Request (the SDK would read the latter as a notification
  and never answer).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def is_request_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def error_line(request_id: Any, code: int, message: str) -> bytes:
    """A JSON-RPC error reply, ``id: null`` when `request_id` is not one."""
    if not is_request_id(request_id):
        request_id = None
    envelope = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(envelope, separators=(",", ":")).encode() + b"\n"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_payload(line: bytes) -> dict[str, Any] | bytes | None:
    """The JSON object a line holds, or the bytes of the error reply to send instead (None: blank line).

    Whether the object is a well-formed JSON-RPC message is for the reader to decide: the
    SDK's models once it is loaded, the handshake's own checks before."""
    if not line.strip():
        return None
    try:
        payload = json.loads(line.decode("utf-8-sig"), parse_constant=_refuse_constant)
    except RecursionError:
        return error_line(None, PARSE_ERROR, "Parse error: nested too deeply")
    except ValueError as exc:  # not JSON, not UTF-8, or NaN/Infinity
        return error_line(None, PARSE_ERROR, f"Parse error: {exc}")
    if not isinstance(payload, dict):
        kind = "a batch" if isinstance(payload, list) else type(payload).__name__
        return error_line(None, INVALID_REQUEST, f"Invalid Request: expected a JSON-RPC object, got {kind}")
    if "id" in payload and not is_request_id(payload["id"]):
        return error_line(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    return payload


def is_plain_request(message: Mapping[str, Any]) -> bool:
    """A JSON-RPC request and nothing else (no result or error beside its method), with its
    params an object if any: what the SDK's models take as a request as it is."""
    return (
        message.get("jsonrpc") == "2.0"
        and isinstance(message.get("method"), str)
        and "id" in message
        and "result" not in message
        and "error" not in message
        and isinstance(message.get("params", {}), dict | None)
    )


def only_cursor(params: Mapping[str, Any] | None) -> bool:
    """tools/list params that ask for nothing but a page (a ``_meta`` is the SDK's to read)."""
    return not params or (set(params) == {"cursor"} and isinstance(params["cursor"], str | None))


def is_notification(message: Mapping[str, Any], method: str) -> bool:
    return message.get("jsonrpc") == "2.0" and message.get("method") == method and "id" not in message
