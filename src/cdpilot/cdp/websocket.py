"""CDP over a websocket to a browser that is already running, and how to find its URL.

A browser started with ``--remote-debugging-port`` serves ``/json/version`` over plain HTTP;
its ``webSocketDebuggerUrl`` is the browser-wide endpoint. A Node.js process's inspector
(``--inspect``) serves the same paths, and its one target's websocket is in ``/json/list``.
Each HTTP exchange is one GET, so it is done on asyncio streams rather than pulling in an
HTTP client dependency.

The websockets library is imported when the first websocket opens, not with this module: a
launched browser speaks over the pipe, and a fresh server's first navigate would otherwise
wait for that import (~45 ms, with the package metadata it reads).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket as socket_module
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from cdpilot.cdp.transport import MAX_MESSAGE_BYTES, TransportFailure, translating
from cdpilot.errors import BrowserConnectionError

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

MAX_VERSION_RESPONSE_BYTES = 64 * 1024
QUICKACK: int | None = getattr(socket_module, "TCP_QUICKACK", None)  # Linux only
CLOSE_TIMEOUT_S = 2.0


class WebSocketTransport:
    """A websocket to a DevTools endpoint, as a `Transport`.

    Node.js's inspector writes an answer in small pieces with Nagle's algorithm on, so each
    piece after the first waits for our acknowledgement, which Linux delays by up to 40 ms: every
    command to a Node.js process took 40 ms and more. Acknowledging at once (``TCP_QUICKACK``,
    which the kernel turns off again by itself, so it is set around every message) makes it
    well under a millisecond; a browser's endpoint loses nothing by it."""

    def __init__(self, socket: ClientConnection, url: str) -> None:
        self._socket = socket
        self._url = url
        raw = socket.transport.get_extra_info("socket") if socket.transport is not None else None
        self._quick_ack = raw if QUICKACK is not None and raw is not None else None

    @classmethod
    async def open(cls, url: str, *, headers: Mapping[str, str], timeout_s: float) -> WebSocketTransport:
        """Open the websocket. No proxy: a DevTools endpoint must be reached directly, and a
        proxy from the environment would see every command. No keepalive pings: a busy page
        must not make us drop a healthy connection; a dead peer closes the TCP socket."""
        from websockets.asyncio.client import connect

        with translating(f"Cannot open the DevTools websocket at {_printable(url)}"), _worded_failures():
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
        self._acknowledge_at_once()
        with _worded_failures():
            await self._socket.send(message)

    async def receive(self) -> str:
        with _worded_failures():
            message = await self._socket.recv()
        self._acknowledge_at_once()
        return message if isinstance(message, str) else message.decode()

    def _acknowledge_at_once(self) -> None:
        if self._quick_ack is not None:
            with contextlib.suppress(OSError):
                self._quick_ack.setsockopt(socket_module.IPPROTO_TCP, QUICKACK, 1)

    async def close(self) -> None:
        with _worded_failures():
            await self._socket.close()


@contextmanager
def _worded_failures() -> Iterator[None]:
    """Re-raise the websockets library's own failures as a `TransportFailure` that says what
    happened, which the transport layer turns into the error tree's form."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI, WebSocketException

    try:
        yield
    except ConnectionClosed as exc:
        raise TransportFailure(f"the websocket closed: {exc}") from exc
    except InvalidStatus as exc:
        raise TransportFailure(f"the server answered HTTP {exc.response.status_code} instead of a websocket") from exc
    except InvalidURI as exc:
        raise TransportFailure("not a valid websocket URL") from exc
    except WebSocketException as exc:
        raise TransportFailure(str(exc) or type(exc).__name__) from exc


def _printable(url: str) -> str:
    """The URL without credentials or query, either of which may carry a secret."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def _host_header(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass(frozen=True)
class DevToolsEndpoint:
    """What answers on a DevTools HTTP port: a browser, or a Node.js process's inspector."""

    kind: Literal["browser", "node"]
    ws_url: str  # the browser-wide endpoint, or the Node.js process's one target
    product: str  # "Chrome/126.0.6478.126", "node.js/v20.20.2"
    title: str = ""  # a Node.js target's title: "node[1234]", naming its process


async def discover_websocket_url(host: str, port: int, *, timeout_s: float) -> str:
    """The browser-wide websocket URL of the browser at ``http://host:port``."""
    where = f"Cannot reach a browser at {_host_header(host, port)}"
    endpoint = await discover_endpoint(host, port, timeout_s=timeout_s, where=where)
    if endpoint.kind != "browser":
        raise BrowserConnectionError(f"{where} (it is the inspector of a Node.js process, {endpoint.title})")
    return endpoint.ws_url


async def discover_endpoint(host: str, port: int, *, timeout_s: float, where: str | None = None) -> DevToolsEndpoint:
    """Ask ``http://host:port/json/version`` what answers there, the way DevTools tells them apart.

    A browser names its browser-wide ``webSocketDebuggerUrl`` there. A Node.js inspector names
    no websocket there ("Browser": "node.js/v20…"); its one target is in ``/json/list``. The
    answer's host part is replaced by the host and port we were given: Chrome echoes whatever
    it believes it listens on (0.0.0.0, a container name), while the host we were given is the
    one the caller's policy approved and that is known to be reachable."""
    where = where or f"Cannot reach a browser or Node.js inspector at {_host_header(host, port)}"
    version = await _get_json(host, port, "/json/version", timeout_s, where)
    url = version.get("webSocketDebuggerUrl") if isinstance(version, dict) else None
    if isinstance(url, str):
        return DevToolsEndpoint("browser", _rehost(url, host, port), str(version.get("Browser", "unknown")))
    product = str(version.get("Browser", "")) if isinstance(version, dict) else ""
    if not product.lower().startswith("node.js"):
        raise BrowserConnectionError(f"{where} (its /json/version has no webSocketDebuggerUrl)")
    targets = await _get_json(host, port, "/json/list", timeout_s, where)
    for target in targets if isinstance(targets, list) else ():
        if isinstance(target, dict) and isinstance(target.get("webSocketDebuggerUrl"), str):
            ws_url = _rehost(str(target["webSocketDebuggerUrl"]), host, port)
            return DevToolsEndpoint("node", ws_url, product, str(target.get("title", "")))
    raise BrowserConnectionError(f"{where} (the Node.js inspector lists no target: another debugger may hold it)")


async def _get_json(host: str, port: int, path: str, timeout_s: float, where: str) -> Any:
    """One GET of a DevTools HTTP endpoint, parsed."""
    with translating(where):
        async with asyncio.timeout(timeout_s):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                request = (
                    f"GET {path} HTTP/1.1\r\nHost: {_host_header(host, port)}\r\n"
                    "Accept: application/json\r\nConnection: close\r\n\r\n"
                )
                writer.write(request.encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                body = await reader.readexactly(_content_length(head, where, path))
            finally:
                writer.close()
                await writer.wait_closed()
    try:
        return json.loads(body)
    except ValueError as exc:
        raise BrowserConnectionError(f"{where} (the answer was not JSON)") from exc


def _content_length(head: bytes, where: str, path: str) -> int:
    """Body size of a DevTools HTTP answer; Chrome and Node.js always send Content-Length."""
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    if status_line.split(" ")[1:2] != ["200"] or not status_line.startswith("HTTP/1."):
        raise BrowserConnectionError(f"{where} (it answered {status_line!r}, not a DevTools endpoint)")
    for line in header_lines:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value)
            if length <= MAX_VERSION_RESPONSE_BYTES:
                return length
    raise BrowserConnectionError(f"{where} (its {path} answer has no usable Content-Length)")


def _rehost(url: str, host: str, port: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, _host_header(host, port), parts.path, parts.query, parts.fragment))
