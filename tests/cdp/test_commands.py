"""Commands over both transports: correlation, errors, deadlines, and the end of the transport."""

from __future__ import annotations

import asyncio
import json

import pytest

from cdpilot.cdp import CdpConnection
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError
from tests.cdp.fake_peer import FakePeer

pytestmark = pytest.mark.anyio

Wire = tuple[FakePeer, CdpConnection]


async def test_replies_are_matched_to_commands_by_id(wire: Wire) -> None:
    peer, client = wire
    first = asyncio.create_task(client.browser.send("Browser.getVersion"))
    second = asyncio.create_task(client.browser.send("Target.getTargets", {"filter": []}))
    commands = [await peer.command(), await peer.command()]
    assert [c["method"] for c in commands] == ["Browser.getVersion", "Target.getTargets"]
    assert commands[1]["params"] == {"filter": []} and commands[0]["id"] != commands[1]["id"]
    for command in reversed(commands):  # answered out of order
        await peer.reply(command, {"answer": command["method"]})
    assert await first == {"answer": "Browser.getVersion"}
    assert await second == {"answer": "Target.getTargets"}


async def test_an_error_reply_raises_cdp_command_error(wire: Wire) -> None:
    peer, client = wire
    call = asyncio.create_task(client.browser.send("DOM.querySelector"))
    await peer.fail(await peer.command(), -32000, "Could not find node with given id", data="nodeId 7")
    with pytest.raises(CdpCommandError) as caught:
        await call
    assert caught.value.method == "DOM.querySelector" and caught.value.code == -32000
    assert (
        caught.value.message
        == "DOM.querySelector failed: Could not find node with given id: nodeId 7 (CDP error -32000)"
    )


async def test_a_command_without_answer_times_out_naming_the_method(wire: Wire) -> None:
    peer, client = wire
    with pytest.raises(CdpTimeoutError, match=r"Runtime\.evaluate got no answer within 0\.2 s"):
        await client.browser.send("Runtime.evaluate", {"expression": "1"}, timeout_s=0.2)
    late = await peer.command()
    await peer.reply(late, {"late": True})  # dropped: its caller gave up
    next_call = asyncio.create_task(client.browser.send("Browser.getVersion"))
    await peer.reply(await peer.command(), {"product": "Chrome/1"})
    assert await next_call == {"product": "Chrome/1"}


async def test_the_default_deadline_applies_to_every_command(wire: Wire) -> None:
    _, client = wire
    client.browser.default_timeout_s = 0.1
    with pytest.raises(CdpTimeoutError, match=r"Page\.enable"):
        await client.browser.send("Page.enable")


async def test_hang_up_fails_every_pending_command_at_once(wire: Wire) -> None:
    peer, client = wire
    await _attach(peer, client)
    page = client.session("S1")
    calls = [
        asyncio.create_task(client.browser.send("Browser.getVersion")),
        asyncio.create_task(client.browser.send("Target.getTargets")),
        asyncio.create_task(page.send("Runtime.evaluate")),
    ]
    for _ in calls:
        await peer.command()
    await peer.hang_up()
    async with asyncio.timeout(2):  # promptly, not after the 30 s deadline
        results = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(r, BrowserConnectionError) for r in results), results
    assert all("connection to the browser" in str(r) for r in results)
    assert client.closed
    with pytest.raises(BrowserConnectionError):
        await page.send("Page.reload")
    with pytest.raises(BrowserConnectionError):
        await client.browser.wait_for_event("Target.targetCreated", timeout_s=5)


async def test_close_fails_pending_commands_and_is_idempotent(wire: Wire) -> None:
    peer, client = wire
    call = asyncio.create_task(client.browser.send("Browser.getVersion"))
    await peer.command()
    await client.close()
    with pytest.raises(BrowserConnectionError, match="was closed"):
        await call
    await client.close()
    with pytest.raises(BrowserConnectionError, match="was closed"):
        await client.browser.send("Browser.getVersion")


async def test_a_message_that_is_not_json_ends_the_connection(wire: Wire) -> None:
    peer, client = wire
    call = asyncio.create_task(client.browser.send("Browser.getVersion"))
    await peer.command()
    await peer.send_raw("{not json")
    with pytest.raises(BrowserConnectionError, match=r"Lost the connection to the browser \(the answer was not JSON\)"):
        await call
    assert isinstance((await _cause_of(call)), json.JSONDecodeError)


async def test_malformed_but_valid_json_is_ignored(wire: Wire, caplog: pytest.LogCaptureFixture) -> None:
    peer, client = wire
    call = asyncio.create_task(client.browser.send("Browser.getVersion"))
    command = await peer.command()
    await peer.send_raw("[1, 2]")
    await peer.send({"method": "Target.attachedToTarget", "params": {"no": "session"}})
    await peer.reply(command, {"ok": True})
    assert await call == {"ok": True}
    assert caplog.text.count("Ignoring a malformed CDP message") == 2


async def test_messages_larger_than_one_mebibyte_pass_both_ways(wire: Wire) -> None:
    peer, client = wire
    big = "x" * (3 * 1024 * 1024)
    call = asyncio.create_task(client.browser.send("Runtime.evaluate", {"expression": big}))
    command = await peer.command()
    assert command["params"]["expression"] == big
    await peer.reply(command, {"data": big + "y"})
    assert (await call)["data"] == big + "y"


async def test_cancelling_a_call_forgets_it(wire: Wire) -> None:
    peer, client = wire
    call = asyncio.create_task(client.browser.send("Page.navigate"))
    command = await peer.command()
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    await peer.reply(command, {"frameId": "F"})  # arrives for nobody, changes nothing
    follow_up = asyncio.create_task(client.browser.send("Browser.getVersion"))
    await peer.reply(await peer.command(), {"v": 1})
    assert await follow_up == {"v": 1}


async def _attach(peer: FakePeer, client: CdpConnection, session_id: str = "S1", target_id: str = "T1") -> None:
    attaching = asyncio.create_task(client.attach(target_id))
    await peer.attach(session_id, target_id)
    session = await attaching
    assert session.session_id == session_id and session.target_id == target_id


async def _cause_of(task: asyncio.Task[object]) -> BaseException | None:
    try:
        await task
    except BrowserConnectionError as exc:
        return exc.__cause__
    return None
