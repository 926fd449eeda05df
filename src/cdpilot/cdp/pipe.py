"""CDP over the pipe pair of ``--remote-debugging-pipe``: no TCP port, and no thread.

Chromium started with that flag reads commands from its fd 3 and writes replies and events
to its fd 4, each message a JSON text terminated by a NUL byte. Nothing else on the machine
can reach a browser driven this way, and closing our end makes Chromium exit, so the
browser cannot outlive the server by accident.

Both ends run on the event loop (``connect_read_pipe`` / ``connect_write_pipe``), which
keeps the single-reader design of `connection.py` without threads.
"""

from __future__ import annotations

import asyncio
import os

from cdpilot.cdp.transport import MAX_MESSAGE_BYTES

MESSAGE_END = b"\0"


class _WriteFlow(asyncio.BaseProtocol):
    """Flow control for the command pipe: lets `send` wait while the pipe buffer is full."""

    def __init__(self) -> None:
        self._can_write = asyncio.Event()
        self._can_write.set()
        self._lost: BaseException | None = None

    def pause_writing(self) -> None:
        self._can_write.clear()

    def resume_writing(self) -> None:
        self._can_write.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = exc or BrokenPipeError("the pipe to the browser is closed")
        self._can_write.set()

    async def drain(self) -> None:
        await self._can_write.wait()
        if self._lost is not None:
            raise self._lost


class PipeTransport:
    """The two ends of the browser's debugging pipes, as a `Transport`."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        read_end: asyncio.ReadTransport,
        write_end: asyncio.WriteTransport,
        write_flow: _WriteFlow,
    ) -> None:
        self._reader = reader
        self._read_end = read_end
        self._write_end = write_end
        self._write_flow = write_flow

    @classmethod
    async def open(cls, read_fd: int, write_fd: int) -> PipeTransport:
        """Take ownership of our ends: `read_fd` is the browser's fd 4, `write_fd` its fd 3."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES, loop=loop)
        read_end, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), os.fdopen(read_fd, "rb", buffering=0)
        )
        write_end, write_flow = await loop.connect_write_pipe(_WriteFlow, os.fdopen(write_fd, "wb", buffering=0))
        return cls(reader, read_end, write_end, write_flow)

    @property
    def endpoint(self) -> str:
        return "pipe"

    async def send(self, message: str) -> None:
        if self._write_end.is_closing():
            raise BrokenPipeError("the pipe to the browser is closed")
        self._write_end.write(message.encode() + MESSAGE_END)
        await self._write_flow.drain()

    async def receive(self) -> str:
        frame = await self._reader.readuntil(MESSAGE_END)
        return frame[: -len(MESSAGE_END)].decode()

    async def close(self) -> None:
        """Close both ends. Closing the command pipe is also Chromium's signal to exit."""
        self._write_end.close()
        self._read_end.close()
