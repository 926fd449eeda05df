"""JavaScript evaluation in the current page.

Values come back by value (``returnByValue``), so the answer can show the page's own JSON
view of the result; for what JSON cannot carry (NaN, -0, BigInt, undefined, DOM nodes,
functions) the browser's JS spelling or description is kept instead.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cdpilot.browser.page.page_facts import EvaluatedValue
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import CdpTimeoutError, ExecutionError


async def evaluate(conn: BrowserConnection, expression: str, *, await_promise: bool, timeout_ms: int) -> EvaluatedValue:
    """The value of `expression` in the page."""
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
    return _evaluated_value(reply["result"])


def exception_text(details: dict[str, Any]) -> str:
    """The JS error message, as the console would print its first line."""
    exception = details.get("exception") or {}
    description = str(exception.get("description") or details.get("text") or "unknown error")
    return description.splitlines()[0]


def _evaluated_value(remote: dict[str, Any]) -> EvaluatedValue:
    """A ``RemoteObject`` returned by value, as a fact."""
    unserializable = remote.get("unserializableValue")
    description = remote.get("description")
    return EvaluatedValue(
        type=str(remote.get("type", "undefined")),
        json_value=remote.get("value"),
        has_json="value" in remote,
        unserializable=None if unserializable is None else str(unserializable),
        description=None if description is None else str(description),
    )
