"""Flattened sessions and the event API: fan-out, waits without leaks, detach and crash."""

from __future__ import annotations

import asyncio

import pytest

from cdpilot.cdp import CdpConnection, CdpEvent
from cdpilot.cdp.events import EventHub, Subscriptions
from cdpilot.errors import BrowserConnectionError, CdpTimeoutError
from tests.cdp.fake_peer import FakePeer

pytestmark = pytest.mark.anyio

Wire = tuple[FakePeer, CdpConnection]


async def attached(peer: FakePeer, client: CdpConnection, *pairs: tuple[str, str]) -> None:
    for session_id, target_id in pairs:
        attaching = asyncio.create_task(client.attach(target_id))
        await peer.attach(session_id, target_id)
        await attaching


async def test_events_go_to_the_session_that_sent_them(wire: Wire) -> None:
    peer, client = wire
    await attached(peer, client, ("S1", "T1"), ("S2", "T2"))
    seen: dict[str, list[str]] = {"root": [], "S1": [], "S2": []}
    client.browser.on("Log.entryAdded", lambda e: seen["root"].append(e.params["n"]))
    client.session("S1").on("Log.entryAdded", lambda e: seen["S1"].append(e.params["n"]))
    client.session("S2").on("Log.entryAdded", lambda e: seen["S2"].append(e.params["n"]))
    with client.session("S2").listen("Log.entryAdded") as last:
        await peer.emit("Log.entryAdded", {"n": "a"}, "S1")
        await peer.emit("Log.entryAdded", {"n": "b"})
        await peer.emit("Log.entryAdded", {"n": "c"}, "S2")
        await peer.emit("Log.entryAdded", {"n": "d"}, "S1")
        await peer.emit("Log.entryAdded", {"n": "e"}, "S2")
        assert (await last.next()).params["n"] == "c"
        assert (await last.next()).params["n"] == "e"
    assert seen == {"root": ["b"], "S1": ["a", "d"], "S2": ["c", "e"]}


async def test_a_session_attached_by_the_browser_is_usable(wire: Wire) -> None:
    peer, client = wire
    info = {"targetId": "W1", "type": "worker", "title": "", "url": "http://127.0.0.1/w.js", "attached": True}
    with client.browser.listen("Target.attachedToTarget") as attachments:
        await peer.emit("Target.attachedToTarget", {"sessionId": "SW", "targetInfo": info, "waitingForDebugger": True})
        event = await attachments.next()
    worker = client.session(event.params["sessionId"])
    assert worker.target_id == "W1"
    call = asyncio.create_task(worker.send("Runtime.runIfWaitingForDebugger"))
    command = await peer.command()
    assert command["sessionId"] == "SW"
    await peer.reply(command)
    assert await call == {}


async def test_detach_fails_that_sessions_commands_and_waits_only(wire: Wire) -> None:
    peer, client = wire
    await attached(peer, client, ("S1", "T1"), ("S2", "T2"))
    doomed, survivor = client.session("S1"), client.session("S2")
    doomed_call = asyncio.create_task(doomed.send("Runtime.evaluate"))
    doomed_wait = asyncio.create_task(doomed.wait_for_event("Page.loadEventFired", timeout_s=30))
    survivor_call = asyncio.create_task(survivor.send("Runtime.evaluate"))
    await peer.command()
    survivor_command = await peer.command()
    await peer.emit("Target.detachedFromTarget", {"sessionId": "S1", "targetId": "T1"})
    async with asyncio.timeout(2):
        with pytest.raises(BrowserConnectionError, match=r"closed \(or detached\)"):
            await doomed_call
        with pytest.raises(BrowserConnectionError, match=r"closed \(or detached\)"):
            await doomed_wait
    assert not survivor_call.done()
    await peer.reply(survivor_command, {"alive": True})
    assert await survivor_call == {"alive": True}
    with pytest.raises(BrowserConnectionError, match=r"closed \(or detached\)"):
        await doomed.send("Page.reload")
    with pytest.raises(BrowserConnectionError, match="not attached"):
        client.session("S1")


async def test_a_crashed_target_fails_pending_work_but_stays_usable(wire: Wire) -> None:
    peer, client = wire
    await attached(peer, client, ("S1", "T1"), ("S2", "T2"))
    page, other = client.session("S1"), client.session("S2")
    call = asyncio.create_task(page.send("Runtime.evaluate"))
    wait = asyncio.create_task(page.wait_for_event("Page.loadEventFired", timeout_s=30))
    other_call = asyncio.create_task(other.send("Runtime.evaluate"))
    await peer.command()
    other_command = await peer.command()
    await peer.emit("Inspector.targetCrashed", {}, "S1")
    async with asyncio.timeout(2):
        for pending in (call, wait):
            with pytest.raises(BrowserConnectionError, match="crashed"):
                await pending
    assert not other_call.done()
    await peer.reply(other_command)
    with pytest.raises(BrowserConnectionError, match="crashed"):  # refused unsent: no renderer would answer
        await page.send("Runtime.evaluate")
    reload = asyncio.create_task(page.send("Page.reload"))
    await peer.reply(await peer.command())
    assert await reload == {} and await other_call == {}
    await peer.emit("Page.frameNavigated", {"frame": {"id": "T1", "url": "http://127.0.0.1/"}}, "S1")
    await round_trip(peer, client)  # the reader has seen the event
    revived = asyncio.create_task(page.send("Runtime.evaluate"))  # a committed document revived the page
    await peer.reply(await peer.command())
    assert await revived == {}


async def test_wait_for_event_skips_events_that_do_not_match(wire: Wire) -> None:
    peer, client = wire
    waiting = asyncio.create_task(
        client.browser.wait_for_event("Target.targetCreated", lambda e: e.params["n"] == 2, timeout_s=5)
    )
    await round_trip(peer, client)
    for n in (1, 2, 3):
        await peer.emit("Target.targetCreated", {"n": n})
    assert (await waiting).params == {"n": 2}
    assert client.browser.events.subscriber_count == 0


async def test_an_event_sent_before_the_wait_starts_is_kept_by_listen(wire: Wire) -> None:
    peer, client = wire
    with client.browser.listen("Page.loadEventFired") as events:
        await peer.emit("Page.loadEventFired", {"timestamp": 1})
        await round_trip(peer, client)  # the reader has delivered it, and nobody awaited yet
        event = await events.next()
    assert event == CdpEvent("Page.loadEventFired", {"timestamp": 1}, None)
    assert client.browser.events.subscriber_count == 0


async def test_a_timed_out_wait_leaves_no_subscriber(wire: Wire) -> None:
    _, client = wire
    with pytest.raises(CdpTimeoutError, match=r"No Page.loadEventFired event arrived within 0.1 s"):
        await client.browser.wait_for_event("Page.loadEventFired", timeout_s=0.1)
    assert client.browser.events.subscriber_count == 0


async def test_a_cancelled_wait_leaves_no_subscriber(wire: Wire) -> None:
    peer, client = wire
    waiting = asyncio.create_task(client.browser.wait_for_event("Page.loadEventFired", timeout_s=30))
    await round_trip(peer, client)
    assert client.browser.events.subscriber_count == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert client.browser.events.subscriber_count == 0


async def test_a_failing_handler_does_not_stop_delivery(wire: Wire, caplog: pytest.LogCaptureFixture) -> None:
    peer, client = wire
    received: list[int] = []

    def broken(event: CdpEvent) -> None:
        raise RuntimeError("handler bug")

    client.browser.on("Log.entryAdded", broken)
    unsubscribe = client.browser.on("Log.entryAdded", lambda e: received.append(e.params["n"]))
    with client.browser.listen("Log.entryAdded") as events:
        await peer.emit("Log.entryAdded", {"n": 1})
        await events.next()
        unsubscribe()
        await peer.emit("Log.entryAdded", {"n": 2})
        await events.next()
    assert received == [1]
    assert "Event handler for Log.entryAdded failed" in caplog.text


async def test_queued_events_are_delivered_before_the_stream_fails(wire: Wire) -> None:
    peer, client = wire
    with client.browser.listen("Log.entryAdded") as events:
        await peer.emit("Log.entryAdded", {"n": 1})
        await peer.hang_up()
        assert (await events.next()).params == {"n": 1}
        with pytest.raises(BrowserConnectionError):
            await events.next()


async def round_trip(peer: FakePeer, client: CdpConnection) -> None:
    """One command answered: everything the peer sent before has been dispatched, and tasks
    created before have run up to their first wait."""
    call = asyncio.create_task(client.browser.send("Browser.getVersion"))
    await peer.reply(await peer.command())
    await call


def test_subscriptions_are_dropped_together() -> None:
    """A collector's handlers go at once when the next page takes over; `add` keeps the rest."""
    page, child = EventHub(), EventHub()
    held = Subscriptions()
    held.replace(page, {"A": lambda _: None, "B": lambda _: None})
    held.add(child, {"A": lambda _: None})
    assert (page.subscriber_count, child.subscriber_count) == (2, 1)
    held.replace(page, {"C": lambda _: None})
    assert (page.subscriber_count, child.subscriber_count) == (1, 0)
    held.clear()
    assert page.subscriber_count == 0
