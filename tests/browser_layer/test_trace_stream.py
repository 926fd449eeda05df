"""The browser's stream of a recorded trace is closed however saving it ends.

A page session that never answers `IO.read` stands in for a slow browser. The test cancels
the save as an MCP client's cancellation reaches a handler: through an anyio cancel scope,
which cancels every await inside it again, the clean-up's too. `IO.close` must still be
answered (this fake records a command once it is answered).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import anyio
import pytest

from cdpilot.browser.performance import tracing

pytestmark = pytest.mark.anyio


class _SlowStream:
    def __init__(self) -> None:
        self.answered: list[str] = []
        self.reading = anyio.Event()

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if method == "IO.read":
            self.reading.set()
            await asyncio.Event().wait()  # never answered
        await asyncio.sleep(0)  # a round trip to the browser
        self.answered.append(method)
        return {}


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_cancelled_save_still_closes_the_browsers_stream(anyio_backend: str) -> None:
    page = _SlowStream()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(tracing._stream, page, "stream-1", io.BytesIO())  # type: ignore[arg-type]
        await page.reading.wait()
        tasks.cancel_scope.cancel()
    for _ in range(5):  # the close finishes in the background
        await asyncio.sleep(0)
    assert page.answered == ["IO.close"]
