"""Small helpers for the browser layer's tests."""

from __future__ import annotations

from typing import Any

from cdpilot.browser.session.browser_connection import BrowserConnection


async def run(conn: BrowserConnection, expression: str) -> Any:
    reply = await conn.page.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True})
    return reply["result"].get("value")
