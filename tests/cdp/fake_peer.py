"""A scriptable stand-in for the browser end of a CDP transport, for the protocol client's tests.

The test plays the browser: it reads the commands the client sent and answers them (or
not), emits events, sends garbage, or hangs up. The same peer works over a pipe pair and
over a websocket, so every test of the client runs on both transports.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

from websockets.asyncio.server import ServerConnection, serve

from cdpilot.cdp import MAX_MESSAGE_BYTES, CdpConnection, PipeTransport, Transport, WebSocketTransport

TransportKind = Literal["pipe", "websocket"]
STEP_TIMEOUT_S = 5.0  # a peer step that takes longer means the client under test is broken


class FakePeer:
    """The browser side: `receive`/`send` carry raw text; the helpers speak CDP."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def command(self) -> dict[str, Any]:
        """The next command the client sent."""
        async with asyncio.timeout(STEP_TIMEOUT_S):
            message: dict[str, Any] = json.loads(await self._transport.receive())
        return message

    async def send_raw(self, text: str) -> None:
        await self._transport.send(text)

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    async def reply(self, command: dict[str, Any], result: dict[str, Any] | None = None) -> None:
        await self.send({"id": command["id"], "result": result or {}, **_session_of(command)})

    async def fail(self, command: dict[str, Any], code: int, message: str, data: str | None = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message} | ({"data": data} if data else {})
        await self.send({"id": command["id"], "error": error, **_session_of(command)})

    async def emit(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None) -> None:
        await self.send({"method": method, "params": params or {}} | ({"sessionId": session_id} if session_id else {}))

    async def attach(self, session_id: str, target_id: str) -> None:
        """Answer the next command, which must be Target.attachToTarget, as Chrome does."""
        command = await self.command()
        assert command["method"] == "Target.attachToTarget" and command["params"]["flatten"] is True
        info = {"targetId": target_id, "type": "page", "title": "", "url": "about:blank", "attached": True}
        await self.emit("Target.attachedToTarget", {"sessionId": session_id, "targetInfo": info})
        await self.reply(command, {"sessionId": session_id})

    async def hang_up(self) -> None:
        await self._transport.close()


def _session_of(command: dict[str, Any]) -> dict[str, Any]:
    return {"sessionId": command["sessionId"]} if "sessionId" in command else {}


class _ServerSide:
    """The server end of a websocket, shaped as a `Transport`."""

    def __init__(self, connection: ServerConnection) -> None:
        self._connection = connection

    @property
    def endpoint(self) -> str:
        return "fake-server"

    async def send(self, message: str) -> None:
        await self._connection.send(message)

    async def receive(self) -> str:
        message = await self._connection.recv()
        return message if isinstance(message, str) else message.decode()

    async def close(self) -> None:
        await self._connection.close()


@asynccontextmanager
async def peer_and_client(
    kind: TransportKind, timeout_s: float = 30.0
) -> AsyncIterator[tuple[FakePeer, CdpConnection]]:
    """A fake browser and a `CdpConnection` to it over the given kind of transport."""
    if kind == "pipe":
        command_read, command_write = os.pipe()
        event_read, event_write = os.pipe()
        peer_transport = await PipeTransport.open(command_read, event_write)
        client = await CdpConnection.open(
            await PipeTransport.open(event_read, command_write), default_timeout_s=timeout_s
        )
        try:
            yield FakePeer(peer_transport), client
        finally:
            await client.close()
            await peer_transport.close()
        return
    accepted: asyncio.Queue[ServerConnection] = asyncio.Queue()
    finished = asyncio.Event()

    async def handler(connection: ServerConnection) -> None:
        await accepted.put(connection)
        await finished.wait()

    async with serve(handler, "127.0.0.1", 0, max_size=MAX_MESSAGE_BYTES, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        transport = await WebSocketTransport.open(f"ws://127.0.0.1:{port}/devtools/browser/x", headers={}, timeout_s=5)
        client = await CdpConnection.open(transport, default_timeout_s=timeout_s)
        try:
            yield FakePeer(_ServerSide(await accepted.get())), client
        finally:
            finished.set()
            await client.close()
