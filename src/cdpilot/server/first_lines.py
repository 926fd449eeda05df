"""What is answered before the MCP SDK is loaded, and the session's first lines, read and
answered before the event loop even runs.

Why before the loop: a client sends nothing but its ``initialize`` until that is answered,
and its first call (a `navigate` that launches Chromium, say) only then; importing asyncio
costs about as much as the interpreter's own start (50 ms measured, on a machine where
Chromium starts in 240). So the stdio server (`cdpilot.server.start`) reads its first lines
here with blocking reads, answers them, and stops at the first request it does not answer,
telling the caller that request's tool so that the browser it needs starts at once, while
a thread imports the event loop's modules and the call layer. The bytes read and not taken
(that request, and whatever came after it) go to the wire first (`cdpilot.server.wire`), and
the decisions made so far to the handshake (`cdpilot.server.handshake`), which goes on from
there with the same `EarlyAnswers`.

Answered before the SDK, exactly as the SDK answers them:

- ``initialize``, when it is the session's first request and its params are of a shape the
  SDK surely accepts (checked strictly: anything unusual, an unknown capability say, waits
  for the SDK, which then answers it), with the version the SDK would negotiate;
- after it, ``ping`` and ``tools/list`` with no params but the ones they define (a
  ``_meta`` waits for the SDK), the latter when the negotiated version sends the tools as
  serialised.

The SDK must see the answered ``initialize`` to set up its session (negotiated version,
client capabilities): it is kept for it (`EarlyAnswers.early`), and its own answer to it
is then dropped. Standard library (without asyncio) and generated code only.
"""

from __future__ import annotations

import json
import os
import select
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cdpilot_generated.manifests import HANDSHAKE_VERSIONS, INITIALIZE_RESULTS, LISTED_AS_IS, Mode

from cdpilot.server.jsonrpc import is_notification, is_plain_request, only_cursor, parse_payload

RequestId = int | str
# Read ahead before the loop runs, at most, in search of a line's end: a longer first line is
# left to the wire, which bounds lines and answers an overlong one.
MAX_FIRST_READ_BYTES = 1 << 20
# How long stdin may stay silent before the reader calls its `on_quiet`: a client that sends its
# first call right after the handshake does so within a few ms (the SDK's, 1-2 ms measured);
# one that waits longer is thinking (an agent's first turn takes seconds).
QUIET_S = 0.02

# The client capabilities whose values are objects of objects, with the names each may hold
# (None: any): the ones this side knows the SDK's models take. roots has its own rule.
_NESTED_CAPABILITIES: Mapping[str, frozenset[str] | None] = {
    "sampling": frozenset({"context", "tools"}),
    "elicitation": frozenset({"form", "url"}),
    "experimental": None,
}


@dataclass(frozen=True)
class Answered:
    """The ``initialize`` answered before the hand-over: its id and the result sent."""

    request_id: RequestId
    version: str
    result: str


class EarlyAnswers:
    """Decides, message by message, what is answered before the SDK is loaded; keeps, in
    arrival order, the messages the SDK must see among those taken so far (`early`)."""

    def __init__(self, mode: Mode, list_json: str) -> None:
        self._mode = mode
        self.list_json = list_json
        """The session's tools/list result, serialised."""
        self.early: list[dict[str, Any]] = []
        """The answered initialize and every message not answered here, in arrival order."""
        self.initialize: Answered | None = None
        self._requested = False  # a request came before any initialize: the session is the SDK's
        self._reinitialized = False  # a later initialize went there: the SDK decides everything now

    def answer(self, message: dict[str, Any]) -> bytes | None:
        """The reply line to `message` when it is answered here, else None; an answered
        initialize is also kept for the SDK. Asking twice about a message it does not answer
        changes nothing: the first lines' reader leaves such a message to the handshake."""
        method, params = message.get("method"), message.get("params")
        plain = is_plain_request(message)
        if self.initialize is None:
            is_request = "id" in message and "method" in message  # even a malformed one: the SDK may take it
            first, self._requested = not self._requested and is_request, self._requested or is_request
            version = _negotiated(params) if plain and first and method == "initialize" else None
            if version is None:
                return None
            self.initialize = Answered(message["id"], version, INITIALIZE_RESULTS[version])
            self.early.append(message)
            return _reply(message["id"], INITIALIZE_RESULTS[version])
        if method == "initialize":
            self._reinitialized = True
        if self._reinitialized or not plain:
            return None
        if method == "ping" and not params:
            return _reply(message["id"], "{}")
        if method == "tools/list" and self._lists_as_is() and only_cursor(params):
            return _reply(message["id"], self.list_json)
        return None

    def _lists_as_is(self) -> bool:
        return self.initialize is not None and self.initialize.version in LISTED_AS_IS[self._mode]


def called_tool(message: Mapping[str, Any]) -> str | None:
    """The tool a tools/call asks for (None: not a tools/call, or no name)."""
    params = message.get("params")
    if message.get("method") != "tools/call" or not isinstance(params, dict):
        return None
    name = params.get("name")
    return name if isinstance(name, str) else None


@dataclass(frozen=True)
class FirstLines:
    """Where the first lines' reader stopped."""

    unread: bytes
    """Read from stdin and not taken: the wire's first bytes."""
    first_tool: str | None
    """The tool the first request not answered calls (None: it is no tools/call, or input ended)."""


def read_first_lines(
    read_fd: int, write_fd: int, answers: EarlyAnswers, on_quiet: Callable[[], object] | None = None
) -> FirstLines:
    """Read and answer, blocking, until the first message that is neither answered here nor
    the ``notifications/initialized`` that follows an answered initialize (kept for the SDK);
    that message, and everything after it, stays unread. A line that is not a JSON-RPC
    object, input that ends and a reply that cannot be written stop it too: the wire
    answers, ends or fails as it would have. `on_quiet` is called, once, when stdin has
    brought nothing for `QUIET_S` while a line is awaited: the caller's cue that the client is
    not about to send its first call."""
    buffer = b""
    while True:
        end = buffer.find(b"\n")
        if end < 0:
            if on_quiet is not None and not select.select([read_fd], [], [], QUIET_S)[0]:
                on_quiet()
                on_quiet = None
            chunk = os.read(read_fd, 1 << 16) if len(buffer) < MAX_FIRST_READ_BYTES else b""
            if not chunk:
                return FirstLines(buffer, None)
            buffer += chunk
            continue
        message = parse_payload(buffer[: end + 1])
        if message is None:  # a blank line: nothing to answer
            buffer = buffer[end + 1 :]
            continue
        if isinstance(message, bytes):
            return FirstLines(buffer, None)
        reply = answers.answer(message)
        if reply is not None:
            buffer = buffer[end + 1 :]
            try:
                _write_all(write_fd, reply)
            except OSError:
                return FirstLines(buffer, None)
        elif answers.initialize is not None and is_notification(message, "notifications/initialized"):
            answers.early.append(message)
            buffer = buffer[end + 1 :]
        else:
            return FirstLines(buffer, called_tool(message))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _reply(request_id: RequestId, result_json: str) -> bytes:
    head = json.dumps({"jsonrpc": "2.0", "id": request_id}, separators=(",", ":"))
    return f'{head[:-1]},"result":{result_json}}}\n'.encode()


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
