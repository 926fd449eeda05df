"""CDP over a websocket to a browser that is already running, and how to find its URL.

A browser started with ``--remote-debugging-port`` serves ``/json/version`` over plain HTTP;
its ``webSocketDebuggerUrl`` is the browser-wide endpoint. The HTTP exchange is one GET,
so it is done on asyncio streams rather than pulling in an HTTP client dependency.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect

from cdpilot.cdp.transport import MAX_MESSAGE_BYTES, translating
from cdpilot.errors import BrowserConnectionError

MAX_VERSION_RESPONSE_BYTES = 64 * 1024
CLOSE_TIMEOUT_S = 2.0


class WebSocketTransport:
    """A websocket to a DevTools endpoint, as a `Transport`."""

    def __init__(self, socket: ClientConnection, url: str) -> None:
        self._socket = socket
        self._url = url

    @classmethod
    async def open(cls, url: str, *, headers: Mapping[str, str], timeout_s: float) -> WebSocketTransport:
        """Open the websocket. No proxy: a DevTools endpoint must be reached directly, and a
        proxy from the environment would see every command. No keepalive pings: a busy page
        must not make us drop a healthy connection; a dead peer closes the TCP socket."""
        with translating(f"Cannot open the DevTools websocket at {_printable(url)}"):
            socket = await connect(
                url,
                additional_headers=dict(headers),
                max_size=MAX_MESSAGE_BYTES,
                proxy=None,
                compression=None,
                open_timeout=timeout_s,
                ping_interval=None,
                close_timeout=CLOSE_TIMEOUT_S,
            )
        return cls(socket, url)

    @property
    def endpoint(self) -> str:
        return self._url

    async def send(self, message: str) -> None:
        await self._socket.send(message)

    async def receive(self) -> str:
        message = await self._socket.recv()
        return message if isinstance(message, str) else message.decode()

    async def close(self) -> None:
        await self._socket.close()


def _printable(url: str) -> str:
    """The URL without credentials or query, either of which may carry a secret."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def _host_header(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def discover_websocket_url(host: str, port: int, *, timeout_s: float) -> str:
    """Ask ``http://host:port/json/version`` for the browser's websocket URL.

    The answer's host part is replaced by the host and port we were given: Chrome echoes
    whatever it believes it listens on (0.0.0.0, a container name), while the host we
    were given is the one the caller's policy approved and that is known to be reachable.
    """
    where = f"Cannot reach a browser at {_host_header(host, port)}"
    with translating(where):
        async with asyncio.timeout(timeout_s):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                request = (
                    f"GET /json/version HTTP/1.1\r\nHost: {_host_header(host, port)}\r\n"
                    "Accept: application/json\r\nConnection: close\r\n\r\n"
                )
                writer.write(request.encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                version = json.loads(await reader.readexactly(_content_length(head, where)))
            finally:
                writer.close()
                await writer.wait_closed()
    url = version.get("webSocketDebuggerUrl") if isinstance(version, dict) else None
    if not isinstance(url, str):
        raise BrowserConnectionError(f"{where} (its /json/version has no webSocketDebuggerUrl)")
    return _rehost(url, host, port)


def _content_length(head: bytes, where: str) -> int:
    """Body size of a DevTools HTTP answer; Chrome always sends Content-Length."""
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    if status_line.split(" ")[1:2] != ["200"] or not status_line.startswith("HTTP/1."):
        raise BrowserConnectionError(f"{where} (it answered {status_line!r}, not a DevTools endpoint)")
    for line in header_lines:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value)
            if length <= MAX_VERSION_RESPONSE_BYTES:
                return length
    raise BrowserConnectionError(f"{where} (its /json/version answer has no usable Content-Length)")


def _rehost(url: str, host: str, port: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, _host_header(host, port), parts.path, parts.query, parts.fragment))
