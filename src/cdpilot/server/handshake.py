"""The first lines of a session that the event loop reads, answered before the MCP SDK is loaded.

Why: importing the SDK, and pydantic's models of the protocol beneath it, costs more than a
browser's start, while a client's first requests need none of it. So the server goes on
answering what `cdpilot.server.first_lines.EarlyAnswers` answers (``initialize``, ``ping``,
``tools/list``, with what codegen serialised through the SDK's own models) from where the
reader before the loop stopped, and hands every ``tools/call`` to the fast path
(`cdpilot.server.fast_path`), which serves it as soon as the call layer is loaded; the SDK
is loaded behind them. Every other message waits, in order, for the hand-over (`HandOver`),
and asks for the SDK to be loaded now (``need_sdk``). The first tools/call is told to the
server as it arrives, so that the browser it may need starts meanwhile.

Malformed lines get their JSON-RPC errors at once (`cdpilot.server.jsonrpc`). Everything
else, notifications included, goes to the SDK at the hand-over, and so does the
``initialize`` answered early (see `first_lines`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from cdpilot.server.fast_path import FastCalls
from cdpilot.server.first_lines import Answered, EarlyAnswers, called_tool
from cdpilot.server.jsonrpc import parse_payload

Write = Callable[[bytes], Awaitable[None]]


class LineSource(Protocol):
    """Where lines come from (`cdpilot.server.wire.Lines`)."""

    async def next(self) -> bytes | None: ...


@dataclass(frozen=True)
class HandOver:
    """What the SDK side takes over: the messages it must see, in order, and the read under way."""

    early: list[dict[str, Any]]
    """Every message not answered here, and the answered initialize, in arrival order."""
    initialize: Answered | None
    pending: asyncio.Future[bytes | None]
    """The next line (None: input ended), possibly still being read."""


class Handshake:
    """Answers what it can until the SDK is loaded; keeps the rest for it."""

    def __init__(
        self,
        answers: EarlyAnswers,
        write: Write,
        fast: FastCalls,
        *,
        need_sdk: Callable[[], None],
        on_first_call: Callable[[str], None] | None = None,
    ) -> None:
        """`answers`: the decisions so far (the messages taken before the loop ran are told to
        `fast` now); `fast` serves the calls; `need_sdk` is called when a message waits for the
        SDK (and when input ends); `on_first_call` is told the tool's name when the first
        tools/call arrives (the server starts the browser a page tool needs meanwhile)."""
        self._answers = answers
        self._write = write
        self._fast = fast
        self._need_sdk = need_sdk
        self._on_first_call = on_first_call
        for message in answers.early:
            self._fast.take(message)
        if answers.initialize is not None:
            self._fast.negotiated(answers.initialize.version)

    async def serve(self, lines: LineSource, loaded: asyncio.Future[Any]) -> HandOver:
        """Read and answer until `loaded` is done; if input ends first, wait for it anyway."""
        while True:
            read = asyncio.ensure_future(lines.next())
            await asyncio.wait({read, loaded}, return_when=asyncio.FIRST_COMPLETED)
            if not read.done():
                break  # loaded: the line being read is the SDK side's
            line = read.result()
            if line is None:
                self._need_sdk()  # it ends the session as it would have, answering what waited
                await loaded
                break
            await self._take(line)
        return HandOver(self._answers.early, self._answers.initialize, read)

    async def _take(self, line: bytes) -> None:
        parsed = parse_payload(line)
        if isinstance(parsed, bytes):
            await self._write(parsed)
        elif parsed is None:
            return
        elif (reply := self._answers.answer(parsed)) is not None:
            if parsed.get("method") == "initialize":
                assert self._answers.initialize is not None
                self._fast.take(parsed)
                self._fast.negotiated(self._answers.initialize.version)
            await self._write(reply)
        else:
            self._note_call(parsed)
            if not self._fast.take(parsed):
                self._answers.early.append(parsed)
                if parsed.get("method") != "notifications/initialized":  # that one the SDK may see later
                    self._need_sdk()

    def _note_call(self, message: dict[str, Any]) -> None:
        name = called_tool(message)
        if self._on_first_call is not None and name is not None:
            told, self._on_first_call = self._on_first_call, None
            told(name)
