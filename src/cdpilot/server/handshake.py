"""The first lines of a session, answered before the MCP SDK is loaded.

Why: importing the SDK, and pydantic's models of the protocol beneath it, costs more than a
browser's start, while a client's first requests need none of it. So the server answers
``initialize``, ``ping`` and ``tools/list`` with what codegen serialised through the SDK's own
models (`cdpilot_generated.manifests`), and hands every ``tools/call`` to the fast path
(`cdpilot.server.fast_path`), which serves it as soon as the call layer is loaded; the SDK
is loaded behind them. Every other message waits, in order, for the hand-over (`HandOver`),
and asks for the SDK to be loaded now (``need_sdk``). The first tools/call is told to the
server as it arrives, so that the browser it may need starts meanwhile. Standard library only.

Answered here, exactly as the SDK answers them:

- ``initialize``, when it is the session's first request and its params are of a shape the
  SDK surely accepts (checked strictly: anything unusual, an unknown capability say, waits
  for the SDK, which then answers it), with the version the SDK would negotiate;
- after it, ``ping`` and ``tools/list`` with no params but the ones they define (a
  ``_meta`` waits for the SDK), the latter when the negotiated version sends the tools as
  serialised.

Malformed lines get their JSON-RPC errors at once (`cdpilot.server.wire`). Everything else,
notifications included, goes to the SDK at the hand-over, and so does the ``initialize``
answered here: the SDK must see it to set up its session (negotiated version, client
capabilities), and its own answer to it is then dropped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cdpilot_generated.manifests import HANDSHAKE_VERSIONS, INITIALIZE_RESULTS, LISTED_AS_IS, Mode

from cdpilot.server.fast_path import FastCalls, is_plain_request, only_cursor
from cdpilot.server.wire import parse_payload

Write = Callable[[bytes], Awaitable[None]]
RequestId = int | str

# The client capabilities whose values are objects of objects, with the names each may hold
# (None: any): the ones this side knows the SDK's models take. roots has its own rule.
_NESTED_CAPABILITIES: Mapping[str, frozenset[str] | None] = {
    "sampling": frozenset({"context", "tools"}),
    "elicitation": frozenset({"form", "url"}),
    "experimental": None,
}


class LineSource(Protocol):
    """Where lines come from (`cdpilot.server.wire.Lines`)."""

    async def next(self) -> bytes | None: ...


@dataclass(frozen=True)
class Answered:
    """The ``initialize`` answered before the hand-over: its id and the result sent."""

    request_id: RequestId
    version: str
    result: str


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
        mode: Mode,
        list_json: str,
        write: Write,
        fast: FastCalls,
        *,
        need_sdk: Callable[[], None],
        on_first_call: Callable[[str], None] | None = None,
    ) -> None:
        """`fast` serves the calls; `need_sdk` is called when a message waits for the SDK
        (and when input ends); `on_first_call` is told the tool's name when the first
        tools/call arrives (the server starts the browser a page tool needs meanwhile)."""
        self._mode = mode
        self._list_json = list_json
        self._write = write
        self._fast = fast
        self._need_sdk = need_sdk
        self._on_first_call = on_first_call
        self._early: list[dict[str, Any]] = []
        self._initialize: Answered | None = None
        self._requested = False  # a request came before any initialize: the session is the SDK's
        self._reinitialized = False  # a later initialize went there: the SDK decides everything now

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
        return HandOver(self._early, self._initialize, read)

    async def _take(self, line: bytes) -> None:
        parsed = parse_payload(line)
        if isinstance(parsed, bytes):
            await self._write(parsed)
        elif parsed is not None and not await self._answer(parsed):
            self._note_call(parsed)
            if not self._fast.take(parsed):
                self._early.append(parsed)
                if parsed.get("method") != "notifications/initialized":  # that one the SDK may see later
                    self._need_sdk()

    def _note_call(self, message: dict[str, Any]) -> None:
        params = message.get("params")
        if self._on_first_call is None or message.get("method") != "tools/call" or not isinstance(params, dict):
            return
        name = params.get("name")
        if isinstance(name, str):
            told, self._on_first_call = self._on_first_call, None
            told(name)

    async def _answer(self, message: dict[str, Any]) -> bool:
        """Whether `message` was answered here; the initialize is also kept for the SDK."""
        method, params = message.get("method"), message.get("params")
        plain = is_plain_request(message)
        if self._initialize is None:
            is_request = "id" in message and "method" in message  # even a malformed one: the SDK may take it
            first, self._requested = not self._requested and is_request, self._requested or is_request
            version = _negotiated(params) if plain and first and method == "initialize" else None
            if version is None:
                return False
            self._initialize = Answered(message["id"], version, INITIALIZE_RESULTS[version])
            self._early.append(message)
            self._fast.take(message)
            self._fast.negotiated(version)
            await self._reply(message["id"], INITIALIZE_RESULTS[version])
            return True
        if method == "initialize":
            self._reinitialized = True
        if self._reinitialized or not plain:
            return False
        if method == "ping" and not params:
            await self._reply(message["id"], "{}")
        elif method == "tools/list" and self._lists_as_is() and only_cursor(params):
            await self._reply(message["id"], self._list_json)
        else:
            return False
        return True

    def _lists_as_is(self) -> bool:
        return self._initialize is not None and self._initialize.version in LISTED_AS_IS[self._mode]

    async def _reply(self, request_id: RequestId, result_json: str) -> None:
        head = json.dumps({"jsonrpc": "2.0", "id": request_id}, separators=(",", ":"))
        await self._write(f'{head[:-1]},"result":{result_json}}}\n'.encode())


def _negotiated(params: dict[str, Any] | None) -> str | None:
    """The version the SDK negotiates for these initialize params (the offered one when it
    knows it, else its newest), when they are of a shape it surely accepts; else None."""
    if params is None or set(params) != {"protocolVersion", "capabilities", "clientInfo"}:
        return None
    offered, capabilities, client = params["protocolVersion"], params["capabilities"], params["clientInfo"]
    if not isinstance(offered, str) or not _known_capabilities(capabilities) or not _plain_client(client):
        return None
    return offered if offered in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]


def _known_capabilities(capabilities: Any) -> bool:
    if not isinstance(capabilities, dict):
        return False
    for name, value in capabilities.items():
        if not isinstance(value, dict):
            return False
        if name == "roots":
            known = set(value) <= {"listChanged"} and isinstance(value.get("listChanged", False), bool)
        elif name in _NESTED_CAPABILITIES:
            allowed = _NESTED_CAPABILITIES[name]
            known = (allowed is None or set(value) <= allowed) and all(isinstance(v, dict) for v in value.values())
        else:
            known = False
        if not known:
            return False
    return True


def _plain_client(client: Any) -> bool:
    """A clientInfo of strings only: name and version, perhaps a title."""
    return (
        isinstance(client, dict)
        and {"name", "version"} <= set(client) <= {"name", "version", "title"}
        and all(isinstance(value, str) for value in client.values())
    )
