"""`notifications/cancelled` stops a long call: the server drops it and answers the next call
at once, over the real stdio wire."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.harness import RawServer
from tests.reliability.conftest import Report
from tests.support.pages import serve_pages
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

WAIT_MS = 2500  # uncancelled, the wait would answer (a timeout error) after this


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


async def messages_for(server: RawServer, seconds: float) -> list[dict[str, Any]]:
    """Every message the server writes within `seconds`."""
    messages: list[dict[str, Any]] = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                messages.append(await server.read_message())
    return messages


async def test_a_cancelled_wait_stops_and_the_next_call_answers_at_once(site: str, report: Report) -> None:
    server = await RawServer.start("legacy")
    try:
        await server.initialize()
        assert "result" in await server.call_tool("chrome_launch", {})
        assert "result" in await server.call_tool("navigate", {"url": site + "/"})
        long_call = {"name": "wait_for", "arguments": {"selector": "#never", "timeout_ms": WAIT_MS}}
        await server.send_raw(
            json.dumps({"jsonrpc": "2.0", "id": 900, "method": "tools/call", "params": long_call}).encode() + b"\n"
        )
        started = time.monotonic()
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 900, "reason": "test"}}
        await server.send_raw(json.dumps(cancel).encode() + b"\n")
        reply = await server.call_tool("evaluate_js", {"expression": "6 * 7"})
        took = time.monotonic() - started
        assert reply["result"]["content"][0]["text"] == "42"
        report.record("cancellation", **{"next call answered after a cancel, seconds": round(took, 2)})
        assert took < 3, "the cancelled wait still held the session"
        # Stopped, not just overtaken: past its own timeout, the wait has still not answered
        # (MCP: the receiver of a cancellation stops the work and sends no reply).
        late = await messages_for(server, WAIT_MS / 1000 + 1 - (time.monotonic() - started))
        assert [m for m in late if m.get("id") == 900] == []
    finally:
        await server.kill()
