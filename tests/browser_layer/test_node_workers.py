"""`NodeWorkers` over a fake parent channel: no Node.js runs.

The parent is a real `CdpSession` (so subscriptions and events behave as in production) over
a channel that records what the process's session sends and answers each command with ``{}``
at once, as Node.js answers ``NodeWorker.sendMessageToWorker`` before the worker has replied.
The worker's replies and events are fed in as the ``NodeWorker.*`` events Node.js sends.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import pytest

from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.cdp.node_workers import NodeWorkers
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

pytestmark = pytest.mark.anyio

WAIT_S = 2.0  # bounds every wait on the fakes: they answer at once, so only a defect takes longer


class ParentChannel:
    """The process's websocket as the parent session sees it: every command is recorded, and
    each message wrapped for a worker is also queued, so a test can read what the worker got."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.to_workers: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

    async def send_command(
        self, method: str, params: Mapping[str, Any] | None, *, session: CdpSession, timeout_s: float
    ) -> dict[str, Any]:
        self.sent.append((method, dict(params or {})))
        if method == "NodeWorker.sendMessageToWorker":
            assert params is not None
            self.to_workers.put_nowait((str(params["sessionId"]), json.loads(params["message"])))
        return {}

    async def next_to_worker(self) -> tuple[str, dict[str, Any]]:
        async with asyncio.timeout(WAIT_S):
            return await self.to_workers.get()


class Family:
    """A process session with its `NodeWorkers`, and the worker sessions handed to `on_attached`."""

    def __init__(self) -> None:
        self.channel = ParentChannel()
        self.parent = CdpSession(self.channel, None, None)
        self.attached: asyncio.Queue[tuple[CdpSession, dict[str, Any]]] = asyncio.Queue()
        self.workers = NodeWorkers(self.parent, self._on_attached)

    async def _on_attached(self, session: CdpSession, info: Mapping[str, Any]) -> None:
        self.attached.put_nowait((session, dict(info)))

    def event(self, method: str, params: dict[str, Any]) -> None:
        self.parent.events.dispatch(CdpEvent(method, params, None))

    async def attach(self, session_id: str, url: str = "file:///app/worker.js") -> CdpSession:
        self.event(
            "NodeWorker.attachedToWorker",
            {
                "sessionId": session_id,
                "workerInfo": {"workerId": session_id, "type": "worker", "title": "worker", "url": url},
                "waitingForDebugger": True,
            },
        )
        async with asyncio.timeout(WAIT_S):
            session, _ = await self.attached.get()
        return session

    def from_worker(self, session_id: str, message: dict[str, Any]) -> None:
        self.event(
            "NodeWorker.receivedMessageFromWorker",
            {"sessionId": session_id, "message": json.dumps(message), "workerId": session_id},
        )


@pytest.fixture
async def family() -> Family:
    started = Family()
    await started.workers.start()
    return started


async def test_start_enables_the_domain_so_new_workers_wait_for_us() -> None:
    """Without waitForDebuggerOnStart a worker's first lines run before its breakpoints bind."""
    family = Family()
    await family.workers.start()
    assert family.channel.sent == [("NodeWorker.enable", {"waitForDebuggerOnStart": True})]


async def test_an_attached_worker_gets_a_session_of_its_own(family: Family) -> None:
    family.event(
        "NodeWorker.attachedToWorker",
        {"sessionId": "w1", "workerInfo": {"url": "file:///app/worker.js"}, "waitingForDebugger": True},
    )
    async with asyncio.timeout(WAIT_S):
        session, info = await family.attached.get()
    assert session is not family.parent
    assert session.session_id == "w1"
    assert session.target_id is None  # a worker's debugger keeps its family's settings, under no target's name
    assert session.ended is None
    assert info == {"url": "file:///app/worker.js"}


async def test_a_command_goes_wrapped_to_its_worker_and_its_reply_resolves_it(family: Family) -> None:
    worker = await family.attach("w1")
    sending = asyncio.create_task(worker.send("Runtime.evaluate", {"expression": "1 + 1"}, timeout_s=WAIT_S))
    session_id, message = await family.channel.next_to_worker()
    assert session_id == "w1"
    assert message == {"id": message["id"], "method": "Runtime.evaluate", "params": {"expression": "1 + 1"}}
    await asyncio.sleep(0)
    assert not sending.done(), "the parent's own {} answer must not count as the worker's reply"

    family.from_worker("w1", {"id": message["id"], "result": {"result": {"type": "number", "value": 2}}})
    async with asyncio.timeout(WAIT_S):
        assert await sending == {"result": {"type": "number", "value": 2}}


async def test_commands_to_two_workers_are_told_apart_by_their_ids(family: Family) -> None:
    """Each reply resolves its own command, whatever order they come back in."""
    first, second = await family.attach("w1"), await family.attach("w2")
    to_first = asyncio.create_task(first.send("Runtime.evaluate", {"expression": "'one'"}, timeout_s=WAIT_S))
    _, first_message = await family.channel.next_to_worker()
    to_second = asyncio.create_task(second.send("Runtime.evaluate", {"expression": "'two'"}, timeout_s=WAIT_S))
    second_session, second_message = await family.channel.next_to_worker()
    assert second_session == "w2" and second_message["id"] != first_message["id"]

    family.from_worker("w2", {"id": second_message["id"], "result": {"value": "two"}})
    family.from_worker("w1", {"id": first_message["id"], "result": {"value": "one"}})
    async with asyncio.timeout(WAIT_S):
        assert await to_first == {"value": "one"}
        assert await to_second == {"value": "two"}


async def test_an_error_reply_raises_a_command_error(family: Family) -> None:
    worker = await family.attach("w1")
    sending = asyncio.create_task(worker.send("Debugger.setBreakpointByUrl", {"lineNumber": 3}, timeout_s=WAIT_S))
    _, message = await family.channel.next_to_worker()
    family.from_worker("w1", {"id": message["id"], "error": {"code": -32602, "message": "Invalid parameters"}})
    with pytest.raises(CdpCommandError, match="Invalid parameters") as caught:
        async with asyncio.timeout(WAIT_S):
            await sending
    assert caught.value.method == "Debugger.setBreakpointByUrl"
    assert caught.value.code == -32602


async def test_a_worker_that_does_not_answer_times_out_and_a_late_reply_is_dropped(family: Family) -> None:
    worker = await family.attach("w1")
    with pytest.raises(CdpTimeoutError, match=r"Runtime\.evaluate got no answer from the worker"):
        await worker.send("Runtime.evaluate", {"expression": "while (true) {}"}, timeout_s=0.05)
    _, message = await family.channel.next_to_worker()
    family.from_worker("w1", {"id": message["id"], "result": {}})  # must neither raise nor resolve anything

    sending = asyncio.create_task(worker.send("Runtime.evaluate", {"expression": "2"}, timeout_s=WAIT_S))
    _, later = await family.channel.next_to_worker()
    family.from_worker("w1", {"id": later["id"], "result": {"value": 2}})
    async with asyncio.timeout(WAIT_S):
        assert await sending == {"value": 2}


async def test_an_event_of_a_worker_reaches_that_worker_session_only(family: Family) -> None:
    """A message without an id is an event: it is dispatched on its worker's session, so the
    debugger and console features work on a worker as on a process."""
    first, second = await family.attach("w1"), await family.attach("w2")
    seen_by_callback: list[CdpEvent] = []
    first.on("Debugger.paused", seen_by_callback.append)
    with first.listen("Debugger.paused") as first_events, second.listen("Debugger.paused") as second_events:
        family.from_worker("w1", {"method": "Debugger.paused", "params": {"reason": "other", "callFrames": []}})
        async with asyncio.timeout(WAIT_S):
            event = await first_events.next()
        assert event.method == "Debugger.paused"
        assert event.params == {"reason": "other", "callFrames": []}
        assert [e.params for e in seen_by_callback] == [event.params]
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await second_events.next()


async def test_a_detached_worker_ends_its_session_and_leaves_the_other_alone(family: Family) -> None:
    gone, staying = await family.attach("w1"), await family.attach("w2")
    on_gone = asyncio.create_task(gone.send("Runtime.evaluate", {"expression": "1"}, timeout_s=WAIT_S))
    await family.channel.next_to_worker()
    on_staying = asyncio.create_task(staying.send("Runtime.evaluate", {"expression": "2"}, timeout_s=WAIT_S))
    _, staying_message = await family.channel.next_to_worker()

    with gone.listen("Debugger.paused") as gone_events:
        family.event("NodeWorker.detachedFromWorker", {"sessionId": "w1"})
        with pytest.raises(BrowserConnectionError, match=r"The worker ended\. \(Runtime\.evaluate got no answer\)"):
            async with asyncio.timeout(WAIT_S):
                await on_gone
        with pytest.raises(BrowserConnectionError, match="The worker ended"):
            async with asyncio.timeout(WAIT_S):
                await gone_events.next()  # a wait on the ended session ends too
    assert gone.ended is not None

    wrapped_before = family.channel.to_workers.qsize()
    with pytest.raises(BrowserConnectionError, match="The worker ended"):
        await gone.send("Runtime.evaluate", {"expression": "3"}, timeout_s=WAIT_S)
    assert family.channel.to_workers.qsize() == wrapped_before, "nothing is sent for an ended worker"

    assert not on_staying.done()
    family.from_worker("w2", {"id": staying_message["id"], "result": {"value": 2}})
    async with asyncio.timeout(WAIT_S):
        assert await on_staying == {"value": 2}
    assert staying.ended is None


async def test_stop_ends_every_worker_and_lets_go_of_the_parent(family: Family) -> None:
    """When the process goes, its workers go with it; no handler stays on its session."""
    first, second = await family.attach("w1"), await family.attach("w2")
    pending = asyncio.create_task(first.send("Runtime.evaluate", {"expression": "1"}, timeout_s=WAIT_S))
    await family.channel.next_to_worker()
    assert family.parent.events.subscriber_count == 3

    family.workers.stop()
    with pytest.raises(BrowserConnectionError, match="The worker's process ended"):
        async with asyncio.timeout(WAIT_S):
            await pending
    assert first.ended is not None and second.ended is not None
    assert family.parent.events.subscriber_count == 0
    with pytest.raises(BrowserConnectionError, match="The worker's process ended"):
        await second.send("Runtime.evaluate", {"expression": "2"}, timeout_s=WAIT_S)
