"""The stdio wire: claimed descriptors, complete lines in, serialised writes out. A line that
is not a JSON-RPC object gets its error from `cdpilot.server.jsonrpc`, and a line longer
than `MAX_LINE_BYTES` gets ``-32600``, the rest of it skipped.

The wire starts with the bytes the server read before its event loop ran
(`cdpilot.server.first_lines`) and did not take: nothing is lost or reordered.

Stdout protection: the wire is a private duplicate of fd 1, and fd 1 itself is pointed
at stderr while we serve, so a stray ``print`` or a child process cannot corrupt the
stream. Stdin is likewise read from a duplicate and fd 0 points at /dev/null.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from cdpilot.server.jsonrpc import INVALID_REQUEST, error_line

MAX_LINE_BYTES = 32 * 1024 * 1024


class _Descriptors:
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


class Writer:
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


class Lines:
    """Complete lines from the wire, in order; an overlong one is answered with ``-32600`` and skipped.

    A pipe or tty is watched by the loop; anything else (a file, /dev/null) is pumped by a thread.
    """

    def __init__(self, fd: int, writer: Writer, first_bytes: bytes = b"") -> None:
        """`first_bytes`: read from `fd` already, and to come first."""
        self._fd = fd
        self._writer = writer
        self._buffer = asyncio.StreamReader(limit=MAX_LINE_BYTES)
        if first_bytes:
            self._buffer.feed_data(first_bytes)
        self._transport: asyncio.ReadTransport | None = None
        self._pump: asyncio.Task[None] | None = None

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        if not _pollable(self._fd):
            self._pump = asyncio.create_task(self._pump_thread(), name="stdin pump")
            return
        protocol = asyncio.StreamReaderProtocol(self._buffer, loop=loop)
        pipe = os.fdopen(self._fd, "rb", buffering=0, closefd=False)
        self._transport, _ = await loop.connect_read_pipe(lambda: protocol, pipe)

    async def _pump_thread(self) -> None:
        while chunk := await asyncio.to_thread(os.read, self._fd, 1 << 16):
            self._buffer.feed_data(chunk)
        self._buffer.feed_eof()

    async def next(self) -> bytes | None:
        """The next line (None once input ends). Cancelling the wait loses nothing, unless it
        falls while an overlong line is being skipped: so a reader hands a pending call on
        rather than cancelling it."""
        while True:
            try:
                return await self._buffer.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                return exc.partial or None
            except asyncio.LimitOverrunError:
                await self._skip_long_line()
                await self._writer.write(error_line(None, INVALID_REQUEST, "Invalid Request: line too long"))

    async def _skip_long_line(self) -> None:
        while True:
            try:
                await self._buffer.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as exc:
                await self._buffer.readexactly(exc.consumed)
            except asyncio.IncompleteReadError:
                return

    async def aclose(self) -> None:
        """Unregister from the loop BEFORE the descriptor is closed, or a later fd reusing its
        number (a browser's pidfd, say) would be shadowed by this stale registration."""
        if self._transport is not None:
            self._transport.close()
        if self._pump is not None:
            self._pump.cancel()
            with suppress(asyncio.CancelledError):
                await self._pump


@dataclass(frozen=True)
class Wire:
    """The claimed stdio, open: lines in, writes out."""

    lines: Lines
    writer: Writer


@asynccontextmanager
async def claimed_stdio(first_bytes: bytes = b"") -> AsyncIterator[Wire]:
    """Claim stdin/stdout for JSON-RPC until the block ends, then give them back; the lines
    start with `first_bytes`, read from stdin before."""
    descriptors = _Descriptors()
    writer = Writer(descriptors.write_fd)
    lines = Lines(descriptors.read_fd, writer, first_bytes)
    try:
        await writer.open()
        await lines.open()
        yield Wire(lines, writer)
    finally:
        await lines.aclose()
        writer.close()
        descriptors.restore()
