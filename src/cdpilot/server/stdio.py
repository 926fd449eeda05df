"""A lean asyncio stdio transport for `mcp.server.lowlevel.Server.run`.

Why not the SDK's `stdio_server`: it silently drops a line that is not JSON-RPC (the
client then waits forever for an answer), and it moves every line through a worker
thread. This transport keeps the SDK's guarantees (UTF-8, nothing but JSON-RPC on
stdout) and adds the JSON-RPC error replies the spec asks for:

- a line that is not JSON → ``-32700`` Parse error, ``id: null``; so is a line that is not
  UTF-8 (``json.loads`` would guess UTF-16/32 from the bytes), one with ``NaN`` or
  ``Infinity`` (Python extensions, not JSON), and one nested too deeply to parse;
- JSON that is not a JSON-RPC message (wrong types, a batch, no method) → ``-32600``
  Invalid Request, echoing the id when one can be read;
- a line longer than `MAX_LINE_BYTES` → ``-32600``, and the rest of the line is skipped.

Stdout protection: the wire is a private duplicate of fd 1, and fd 1 itself is pointed
at stderr while we serve, so a stray ``print`` or a child process cannot corrupt the
stream. Stdin is likewise read from a duplicate and fd 0 points at /dev/null.

Every reply is written as UTF-8 JSON even when a string in it holds a lone surrogate (an
escaped ``"\\ud800"`` id echoed back, a JavaScript string from the page): such a message is
written with ``\\u`` escapes instead of taking the writer, and with it the server, down.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager, suppress
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from cdpilot.server.fast_path import FastCalls, Tools

MAX_LINE_BYTES = 32 * 1024 * 1024


def _is_request_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def _error_line(request_id: Any, code: int, message: str) -> bytes:
    if not _is_request_id(request_id):
        request_id = None
    envelope = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(envelope, separators=(",", ":")).encode() + b"\n"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_line(line: bytes) -> SessionMessage | bytes | None:
    """A message to serve, or the bytes of the error reply to send instead (None: blank line)."""
    if not line.strip():
        return None
    try:
        payload = json.loads(line.decode("utf-8-sig"), parse_constant=_refuse_constant)
    except RecursionError:
        return _error_line(None, types.PARSE_ERROR, "Parse error: nested too deeply")
    except ValueError as exc:  # not JSON, not UTF-8, or NaN/Infinity
        return _error_line(None, types.PARSE_ERROR, f"Parse error: {exc}")
    request_id = payload.get("id") if isinstance(payload, dict) else None
    if not isinstance(payload, dict):
        kind = "a batch" if isinstance(payload, list) else type(payload).__name__
        return _error_line(None, types.INVALID_REQUEST, f"Invalid Request: expected a JSON-RPC object, got {kind}")
    if "id" in payload and not _is_request_id(request_id):
        # The SDK would read this as a notification and never answer; JSON-RPC says reject it.
        return _error_line(None, types.INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    try:
        message = types.jsonrpc_message_adapter.validate_python(payload, by_name=False)
    except ValidationError:
        return _error_line(request_id, types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")
    return SessionMessage(message)


class _Wire:
    """The claimed stdio descriptors, restored on exit."""

    def __init__(self) -> None:
        self.read_fd = os.dup(0)
        self.write_fd = os.dup(1)
        self._saved = (os.dup(0), os.dup(1))
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        sys.stdout.flush()
        os.dup2(2, 1)

    def restore(self) -> None:
        with suppress(OSError):
            os.dup2(self._saved[0], 0)
            os.dup2(self._saved[1], 1)
        for fd in (*self._saved, self.read_fd, self.write_fd):
            with suppress(OSError):
                os.close(fd)


def _pollable(fd: int) -> bool:
    """Whether epoll can watch fd: pipes, sockets and terminals; not files, not /dev/null
    (registering those fails inside the loop's callback, where nobody could catch it)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)


class _Reader:
    """Lines from the wire. A pipe or tty is watched by the loop; anything else is pumped by a thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self.lines = asyncio.StreamReader(limit=MAX_LINE_BYTES)
        self._transport: asyncio.ReadTransport | None = None

    async def open(self) -> Callable[[], Coroutine[Any, Any, None]] | None:
        """Start reading; returns the pump to run when the loop cannot watch the descriptor."""
        loop = asyncio.get_running_loop()
        protocol = asyncio.StreamReaderProtocol(self.lines, loop=loop)
        pipe = os.fdopen(self._fd, "rb", buffering=0, closefd=False)
        if not _pollable(self._fd):
            return self._pump
        self._transport, _ = await loop.connect_read_pipe(lambda: protocol, pipe)
        return None

    async def _pump(self) -> None:
        while chunk := await asyncio.to_thread(os.read, self._fd, 1 << 16):
            self.lines.feed_data(chunk)
        self.lines.feed_eof()

    def close(self) -> None:
        """Unregister from the loop BEFORE the descriptor is closed, or a later fd reusing its
        number (a browser's pidfd, say) would be shadowed by this stale registration."""
        if self._transport is not None:
            self._transport.close()


class _Writer:
    """Serialised writes to the wire; a pipe that is full parks us in drain, not in a thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = asyncio.Lock()
        self._stream: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        if not _pollable(self._fd):
            return  # a regular file or /dev/null: plain blocking writes are fine
        pipe = os.fdopen(self._fd, "wb", buffering=0, closefd=False)
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop), pipe
        )
        self._stream = asyncio.StreamWriter(transport, protocol, None, loop)

    async def write(self, data: bytes) -> None:
        async with self._lock:
            if self._stream is None:
                os.write(self._fd, data)
                return
            self._stream.write(data)
            await self._stream.drain()

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()


async def _read_loop(
    reader: asyncio.StreamReader,
    writer: _Writer,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    fast: FastCalls | None,
) -> None:
    async with sink:
        while True:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                line = exc.partial
                if not line:
                    if fast is not None:
                        await fast.aclose()
                    return
            except asyncio.LimitOverrunError:
                await _skip_long_line(reader)
                await writer.write(_error_line(None, types.INVALID_REQUEST, "Invalid Request: line too long"))
                continue
            parsed = parse_line(line)
            if isinstance(parsed, SessionMessage):
                if fast is None or not fast.take(parsed.message):
                    await sink.send(parsed)
            elif parsed is not None:
                await writer.write(parsed)


async def _skip_long_line(reader: asyncio.StreamReader) -> None:
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as exc:
            await reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError:
            return


async def _write_loop(
    source: MemoryObjectReceiveStream[SessionMessage], writer: _Writer, fast: FastCalls | None
) -> None:
    async with source:
        async for session_message in source:
            if fast is not None:
                fast.seen_outgoing(session_message.message)
            await writer.write(serialize_message(session_message) + b"\n")


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
    tools: Tools | None = None,
) -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
]:
    """Claim stdin/stdout and yield the (read, write) streams `Server.run` expects; with
    `tools`, tools/list and tools/call are served on the fast path (`cdpilot.server.fast_path`)."""
    wire = _Wire()
    writer = _Writer(wire.write_fd)
    reader = _Reader(wire.read_fd)
    fast = FastCalls(tools, writer.write) if tools is not None else None
    try:
        await writer.open()
        pump = await reader.open()
        inbound_send, inbound_recv = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        outbound_send, outbound_recv = anyio.create_memory_object_stream[SessionMessage](16)
        async with anyio.create_task_group() as tasks:
            if pump is not None:
                tasks.start_soon(pump)
            tasks.start_soon(_read_loop, reader.lines, writer, inbound_send, fast)
            tasks.start_soon(_write_loop, outbound_recv, writer, fast)
            try:
                yield inbound_recv, outbound_send
            finally:
                tasks.cancel_scope.cancel()
    finally:
        reader.close()
        writer.close()
        wire.restore()
