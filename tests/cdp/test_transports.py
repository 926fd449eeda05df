"""The transports themselves: pipe framing, websocket opening, /json/version discovery, failures."""

from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from cdpilot.cdp import CdpConnection, PipeTransport, WebSocketTransport, discover_websocket_url
from cdpilot.errors import BrowserConnectionError
from tests.support import readable

pytestmark = pytest.mark.anyio

Responder = Callable[[bytes], bytes | None]


def closed_port() -> int:
    """A port of 127.0.0.1 on which nothing listens (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def http_answer(status: str, body: bytes) -> bytes:
    return f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body


@asynccontextmanager
async def http_peer(respond: Responder) -> AsyncIterator[int]:
    """A one-shot HTTP server on 127.0.0.1; `respond` gets the request head (None: stay silent)."""
    requests: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        requests.append(head)
        answer = respond(head)
        if answer is None:
            await reader.read()  # hold the connection open until the client gives up
        else:
            writer.write(answer)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    async with server:
        yield server.sockets[0].getsockname()[1]


async def test_discovery_reads_the_websocket_url_and_keeps_our_host_and_port() -> None:
    body = json.dumps({"Browser": "Chrome/1", "webSocketDebuggerUrl": "ws://0.0.0.0:9222/devtools/browser/abc"})
    seen: list[bytes] = []

    def respond(head: bytes) -> bytes:
        seen.append(head)
        return http_answer("200 OK", body.encode())

    async with http_peer(respond) as port:
        url = await discover_websocket_url("127.0.0.1", port, timeout_s=5)
    assert url == f"ws://127.0.0.1:{port}/devtools/browser/abc"
    assert seen[0].startswith(b"GET /json/version HTTP/1.1\r\n")
    assert f"Host: 127.0.0.1:{port}".encode() in seen[0]


async def test_discovery_on_a_closed_port_fails_fast_naming_host_and_port() -> None:
    port = closed_port()
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(BrowserConnectionError) as caught:
        await discover_websocket_url("127.0.0.1", port, timeout_s=5)
    assert loop.time() - started < 1
    assert caught.value.message == f"Cannot reach a browser at 127.0.0.1:{port} (connection refused)"
    assert isinstance(caught.value.__cause__, ConnectionRefusedError)


@pytest.mark.parametrize(
    ("answer", "complaint"),
    [
        (http_answer("404 Not Found", b"{}"), "it answered 'HTTP/1.1 404 Not Found', not a DevTools endpoint"),
        (http_answer("200 OK", b'{"Browser": "x"}'), "its /json/version has no webSocketDebuggerUrl"),
        (http_answer("200 OK", b"<html>"), "the answer was not JSON"),
        (http_answer("200 OK", b"[]"), "its /json/version has no webSocketDebuggerUrl"),
        (b"HTTP/1.1 200 OK\r\n\r\n{}", "its /json/version answer has no usable Content-Length"),
    ],
)
async def test_discovery_refuses_what_is_not_a_devtools_endpoint(answer: bytes, complaint: str) -> None:
    async with http_peer(lambda _: answer) as port:
        with pytest.raises(BrowserConnectionError) as caught:
            await discover_websocket_url("127.0.0.1", port, timeout_s=5)
    assert caught.value.message == f"Cannot reach a browser at 127.0.0.1:{port} ({complaint})"


async def test_discovery_gives_up_after_its_timeout() -> None:
    async with http_peer(lambda _: None) as port:
        with pytest.raises(BrowserConnectionError, match=r"\(no answer in time\)$"):
            await discover_websocket_url("127.0.0.1", port, timeout_s=0.2)


async def test_opening_a_websocket_on_a_closed_port_is_a_connection_error() -> None:
    port = closed_port()
    with pytest.raises(BrowserConnectionError) as caught:
        await WebSocketTransport.open(f"ws://127.0.0.1:{port}/devtools/browser/x?token=secret", headers={}, timeout_s=5)
    assert caught.value.message == (
        f"Cannot open the DevTools websocket at ws://127.0.0.1:{port}/devtools/browser/x (connection refused)"
    )


async def test_opening_a_websocket_on_a_plain_http_server_says_what_answered() -> None:
    async with http_peer(lambda _: http_answer("404 Not Found", b"{}")) as port:
        with pytest.raises(BrowserConnectionError, match="answered HTTP 404 instead of a websocket"):
            await WebSocketTransport.open(f"ws://127.0.0.1:{port}/x", headers={}, timeout_s=5)


async def test_websocket_sends_the_extra_headers() -> None:
    heads: list[bytes] = []

    def respond(head: bytes) -> bytes:
        heads.append(head)
        return http_answer("403 Forbidden", b"{}")

    async with http_peer(respond) as port:
        with pytest.raises(BrowserConnectionError):
            await WebSocketTransport.open(f"ws://127.0.0.1:{port}/x", headers={"X-Token": "t1"}, timeout_s=5)
    assert b"X-Token: t1\r\n" in heads[0]


async def test_pipe_framing_splits_and_joins_nul_terminated_messages() -> None:
    command_read, command_write = os.pipe()
    event_read, event_write = os.pipe()
    client = await CdpConnection.open(await PipeTransport.open(event_read, command_write))
    try:
        with client.browser.listen("Log.entryAdded") as events:
            os.write(event_write, b'{"method":"Log.entryAdded","params":{"n":1}}\0{"method":"Log.entryAdded",')
            os.write(event_write, b'"params":{"n":2}}\0')
            assert [(await events.next()).params["n"] for _ in range(2)] == [1, 2]
        call = asyncio.create_task(client.browser.send("Browser.getVersion"))
        await readable(command_read)
        sent = os.read(command_read, 65536)
        assert sent.endswith(b"\0") and json.loads(sent[:-1])["method"] == "Browser.getVersion"
        os.close(event_write)  # the browser exits: its end of the pipe closes
        with pytest.raises(BrowserConnectionError, match=r"Lost the connection to the browser \(the browser closed"):
            await call
    finally:
        await client.close()
        os.close(command_read)
