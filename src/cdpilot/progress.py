"""Progress of a long call (a launch, a navigation, a wait), for a client that asked for it.

A client asks by sending a ``progressToken`` with its ``tools/call``. The server then runs
that call under `reporting_to`, and any code below it, in whatever layer, reports with
`report` without being handed anything: the sink travels in a context variable, which
asyncio copies into the tasks the call starts. For a call without a token `report` does
nothing, so nothing changes for a client that did not ask.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

ProgressSink = Callable[[str], Awaitable[None]]

_sink: ContextVar[ProgressSink | None] = ContextVar("cdpilot_progress_sink", default=None)


async def report(message: str) -> None:
    """Tell the client what the call is doing now, in a few words ("Launching Chromium")."""
    sink = _sink.get()
    if sink is not None:
        await sink(message)


@contextmanager
def reporting_to(sink: ProgressSink) -> Iterator[None]:
    """Send the `report`s made inside this block (and in tasks started from it) to `sink`."""
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)
