"""Progress notifications through the real server: what a client that sends a progressToken
gets while navigate and wait_for run, what one that does not gets, and cancelling such calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cdpilot_generated.manifests import MODES, Mode

from tests.e2e.harness import RawServer, mcp_client, spelled
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = SITE
Progress = tuple[float, float | None, str | None]


class Collected:
    """A progress callback that keeps what it is given."""

    def __init__(self) -> None:
        self.received: list[Progress] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.received.append((progress, total, message))

    def check(self) -> None:
        """At least one notification, each with a message, numbered upwards."""
        assert self.received, "no progress notification"
        assert all(message for _, _, message in self.received), self.received
        numbers = [progress for progress, _, _ in self.received]
        assert numbers == sorted(set(numbers)), numbers


@pytest.mark.parametrize("mode", MODES)
async def test_navigate_and_wait_for_report_progress_to_a_client_that_asks(mode: Mode, site_url: str) -> None:
    async with mcp_client(mode) as client:
        for tool, arguments in (("navigate", {"url": f"{site_url}/slow"}), ("wait_for", {"selector": "#late"})):
            collected = Collected()
            name, args = spelled(mode, tool, arguments)
            result = await client.call_tool(name, args, progress_callback=collected)
            assert not result.is_error, result
            collected.check()


async def messages_until_reply(server: RawServer, request_id: int | str) -> list[dict[str, Any]]:
    """Every message the server writes up to and including its reply to `request_id`."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1].get("id") != request_id or "method" in seen[-1]:
        seen.append(await server.read_message())
    return seen


def call_line(request_id: int, mode: Mode, tool: str, meta: dict[str, Any], **arguments: Any) -> bytes:
    name, args = spelled(mode, tool, arguments)
    params = {"name": name, "arguments": args, **({"_meta": meta} if meta else {})}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}).encode() + b"\n"


@pytest.mark.parametrize("mode", MODES)
async def test_a_client_without_a_token_sees_no_progress(mode: Mode, site_url: str) -> None:
    server = await RawServer.start(mode)
    try:
        await server.initialize()
        await server.send_raw(call_line(1, mode, "navigate", {}, url=f"{site_url}/slow"))
        seen = await messages_until_reply(server, 1)
        assert [message.get("method") for message in seen] == [None], seen
        assert "result" in seen[0]
    finally:
        await server.kill()


@pytest.mark.parametrize("meta", [{"progressToken": "wait"}, {}], ids=["with-token", "without-token"])
@pytest.mark.parametrize("mode", MODES)
async def test_a_cancelled_wait_for_is_never_answered(mode: Mode, meta: dict[str, Any], site_url: str) -> None:
    """The cancelled call would time out after 1 s; a second one, not cancelled, after 1.5 s: when
    its answer arrives the first would have had to answer too."""
    server = await RawServer.start(mode)
    try:
        await server.initialize()
        await server.send_raw(call_line(1, mode, "navigate", {}, url=f"{site_url}/"))
        await messages_until_reply(server, 1)
        await server.send_raw(call_line(2, mode, "wait_for", meta, selector="#never", timeout_ms=1000))
        if meta:  # a progress notification says the call is under way
            first = await server.read_message()
            assert first["method"] == "notifications/progress" and first["params"]["progressToken"] == "wait"
        await server.send_raw(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n')
        await server.send_raw(call_line(3, mode, "wait_for", {}, selector="#never", timeout_ms=1500))
        seen = await messages_until_reply(server, 3)
        assert all(message.get("id") != 2 for message in seen), seen
        assert seen[-1]["result"]["isError"] is True  # the second one timed out: the server went on serving
    finally:
        await server.kill()
