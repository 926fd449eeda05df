"""JavaScript evaluation in the current page, answered as compact JSON.

Values come back by value (``returnByValue``), so the answer is the page's own JSON view of
the result; what JSON cannot carry (NaN, -0, BigInt, undefined, DOM nodes, functions) is
answered with the value's JS spelling or its description.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import CdpTimeoutError, ExecutionError


async def evaluate(conn: BrowserConnection, expression: str, *, await_promise: bool, timeout_ms: int) -> str:
    """The value of `expression` in the page, as JSON text (or JS spelling when JSON has none)."""
    params = {
        "expression": expression,
        "returnByValue": True,
        # A paused page runs no microtasks, so no promise can settle (and awaiting one never ends).
        "awaitPromise": await_promise and conn.features.debugger.paused is None,
        "userGesture": True,
        "timeout": timeout_ms,  # ends a busy loop in the page, not only our wait
    }
    try:
        async with asyncio.timeout(timeout_ms / 1000):
            reply = await conn.features.unless_blocked(
                conn.page.send("Runtime.evaluate", params, timeout_s=timeout_ms / 1000 + 1)
            )
    except TimeoutError as exc:
        raise CdpTimeoutError(f"The expression did not finish within {timeout_ms} ms.") from exc
    details = reply.get("exceptionDetails")
    if details is not None:
        raise ExecutionError(
            f"The expression threw: {exception_text(details)}",
            suggestion="Fix the expression; it runs in the page as written (wrap statements in an IIFE).",
        )
    return render_value(reply["result"])


def exception_text(details: dict[str, Any]) -> str:
    """The JS error message, as the console would print its first line."""
    exception = details.get("exception") or {}
    description = str(exception.get("description") or details.get("text") or "unknown error")
    return description.splitlines()[0]


def render_value(remote: dict[str, Any]) -> str:
    if "unserializableValue" in remote:
        return str(remote["unserializableValue"])
    if remote.get("type") == "undefined":
        return "undefined"
    if "value" in remote:
        return json.dumps(remote["value"], ensure_ascii=False, separators=(",", ":"))
    return str(remote.get("description") or remote.get("type"))
