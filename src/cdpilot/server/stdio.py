"""The SDK's side of the stdio wire: the streams `mcp.server.lowlevel.Server.run` expects,
fed by the claimed wire (`cdpilot.server.wire`) from where the handshake left it.

Why not the SDK's `stdio_server`: it silently drops a line that is not JSON-RPC (the
client then waits forever for an answer), and it moves every line through a worker
thread. This transport keeps the SDK's guarantees (UTF-8, nothing but JSON-RPC on
stdout) and adds the JSON-RPC error replies the spec asks for: the wire's for lines that
are not JSON-RPC objects, and ``-32600`` Invalid Request, echoing the id when one can be
read, for an object that is not a JSON-RPC message (wrong types, no method).

The hand-over from the handshake loses and reorders nothing: the messages it kept go to
the SDK first, in arrival order, then the line it was reading, then the rest. The fast path
(`cdpilot.server.fast_path`) that served calls during the handshake goes on serving them:
each message is offered to it first, as the JSON object the wire read. The SDK's
answer to an ``initialize`` the handshake already answered is dropped (logged if it
differs, which the tests rule out).

Every reply is written as UTF-8 JSON even when a string in it holds a lone surrogate (an
escaped ``"\\ud800"`` id echoed back, a JavaScript string from the page): such a message is
written with ``\\u`` escapes instead of taking the writer, and with it the server, down.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from cdpilot.server.fast_path import FastCalls
from cdpilot.server.first_lines import Answered
from cdpilot.server.handshake import HandOver
from cdpilot.server.jsonrpc import INVALID_REQUEST, error_line, parse_payload
from cdpilot.server.wire import Lines, Wire, Writer

logger = logging.getLogger(__name__)


def to_message(payload: dict[str, Any]) -> SessionMessage | bytes:
    """A JSON-RPC object as the SDK's message, or the bytes of the error reply to send instead."""
    try:
        message = types.jsonrpc_message_adapter.validate_python(payload, by_name=False)
    except ValidationError:
        return error_line(payload.get("id"), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")
    return SessionMessage(message)


async def _read_loop(
    lines: Lines,
    writer: Writer,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    fast: FastCalls | None,
    handover: HandOver,
) -> None:
    async def serve(payload: dict[str, Any] | bytes | None) -> None:
        if isinstance(payload, dict):
            if fast is None or not fast.take(payload):
                await _to_sdk(payload)
        elif payload is not None:
            await writer.write(payload)

    async def _to_sdk(payload: dict[str, Any]) -> None:
        message = to_message(payload)
        if isinstance(message, SessionMessage):
            await sink.send(message)
        else:
            await writer.write(message)

    async with sink:
        for payload in handover.early:  # each was offered to the fast path as it arrived
            await _to_sdk(payload)
        line = await handover.pending
        while line is not None:
            await serve(parse_payload(line))
            line = await lines.next()
        if fast is not None:
            await fast.aclose()


async def _write_loop(
    source: MemoryObjectReceiveStream[SessionMessage], writer: Writer, fast: FastCalls | None, answered: Answered | None
) -> None:
    async with source:
        async for session_message in source:
            message = session_message.message
            if fast is not None and isinstance(message, types.JSONRPCResponse):
                fast.seen_answer(message.id, message.result)
            if (
                answered is not None
                and isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
                and message.id == answered.request_id
            ):
                _compare(message, answered)
                answered = None
                continue
            await writer.write(serialize_message(session_message) + b"\n")


def _compare(sdk: types.JSONRPCResponse | types.JSONRPCError, answered: Answered) -> None:
    """Say so when the SDK would have answered initialize otherwise than the handshake did."""
    sent = json.loads(answered.result)
    if not isinstance(sdk, types.JSONRPCResponse) or sdk.result != sent:
        shown = sdk.model_dump(mode="json", by_alias=True, exclude_unset=True)
        logger.warning("initialize was answered with %s; the SDK answers %s", answered.result, shown)


def serialize_message(session_message: SessionMessage) -> bytes:
    """One message as UTF-8 JSON; a lone surrogate, which UTF-8 cannot carry, goes out as a ``\\u`` escape."""
    message = session_message.message
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode()
    except PydanticSerializationError:
        plain = message.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return json.dumps(plain, separators=(",", ":")).encode()


@asynccontextmanager
async def stdio_transport(
    wire: Wire, handover: HandOver, fast: FastCalls | None = None
) -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
]:
    """The (read, write) streams `Server.run` expects, over the claimed wire from the hand-over on;
    with `fast`, tools/list and tools/call go on being served on the fast path."""
    inbound_send, inbound_recv = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    outbound_send, outbound_recv = anyio.create_memory_object_stream[SessionMessage](16)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_read_loop, wire.lines, wire.writer, inbound_send, fast, handover)
        tasks.start_soon(_write_loop, outbound_recv, wire.writer, fast, handover.initialize)
        try:
            yield inbound_recv, outbound_send
        finally:
            tasks.cancel_scope.cancel()
