"""What every transport offers, and the one place where transport failures join the error tree.

The client above (`connection.py`) speaks CDP over any `Transport`: the launcher's pipe or a
websocket to a running browser. Whatever goes wrong underneath — an OSError, a websocket
failure, the peer hanging up, a message that is not JSON — becomes a
`BrowserConnectionError` here and nowhere else, so the layers above see
one exception type for "the browser is unreachable or gone".

No transport's library is imported here: a transport words its library's own failures as a
`TransportFailure`, so launching over the pipe never loads the websocket library.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from cdpilot.errors import BrowserConnectionError

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""Largest message either transport accepts. A full-page screenshot is many MB of base64;
websockets' 1 MiB default would drop the connection on the first one."""


class TransportFailure(Exception):
    """A transport's own failure, already worded for a human ("the websocket closed: …")."""


class Transport(Protocol):
    """A bidirectional channel of whole CDP messages (JSON text, one message per call)."""

    @property
    def endpoint(self) -> str:
        """Where the messages go, for humans: "pipe" or the ws:// URL."""
        ...

    async def send(self, message: str) -> None:
        """Send one message; raises a transport exception if the channel is gone."""
        ...

    async def receive(self) -> str:
        """Next message from the browser; raises EOFError (or a transport exception) at the end."""
        ...

    async def close(self) -> None:
        """Close the channel; idempotent. Pending `receive` calls end with EOF."""
        ...


TRANSPORT_FAILURES: tuple[type[BaseException], ...] = (
    OSError,  # includes TimeoutError and ConnectionRefusedError
    EOFError,  # includes asyncio.IncompleteReadError: the pipe reached its end
    asyncio.LimitOverrunError,
    json.JSONDecodeError,
    UnicodeDecodeError,
    TransportFailure,
)
"""Everything a transport (or parsing what it carries) may raise when the browser side fails."""


def describe_failure(exc: BaseException) -> str:
    """A short human reason for a transport failure, as it goes in parentheses after the context."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, EOFError):
        return "the browser closed the connection"
    if isinstance(exc, asyncio.LimitOverrunError):
        return "a message exceeded the size limit"
    if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
        return "the answer was not JSON"
    if isinstance(exc, TransportFailure):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__


def connection_error(context: str, exc: BaseException) -> BrowserConnectionError:
    """The error tree's form of a transport failure; `context` says what we were doing."""
    error = BrowserConnectionError(f"{context} ({describe_failure(exc)})")
    error.__cause__ = exc
    return error


@contextmanager
def translating(context: str) -> Iterator[None]:
    """Run a transport operation; re-raise its failure as a `BrowserConnectionError`."""
    try:
        yield
    except TRANSPORT_FAILURES as exc:
        raise connection_error(context, exc) from exc
