"""Helpers shared by every test directory: a local page server, test Chromium processes, and
`readable` to wait for a file descriptor without polling."""

from __future__ import annotations

import asyncio


async def readable(fd: int, timeout_s: float = 10.0) -> None:
    """Wait until `fd` has data (or its writer closed), on the event loop; at most `timeout_s`."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def on_readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, on_readable)
    try:
        async with asyncio.timeout(timeout_s):
            await ready
    finally:
        loop.remove_reader(fd)
