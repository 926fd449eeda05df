"""A Node.js program we debug: its processes and worker threads, debugged as one.

A connection to Node.js is a family of JavaScript threads: the process attached to (or the
first one a launched program started), the Node.js processes it starts (a test runner's
workers, ``npm run``'s node: each announces itself, see `node_program`), and every process's
``worker_threads`` (`NodeWorkers`). Each thread has its own session and its own debugger; the
family has one console. What the debugger tools set (turning it on, breakpoints, exception
pauses) applies to every thread, and to each new one before its first line runs: a new
thread starts from the settings of the family (`PageDebugger.adopt`).

The connection is a `browser.target.Target` without a page. Its session and features are its
current thread's: the one that paused last (which the pause answers name), else the first
process. A pause may come at any time (a request from elsewhere hits a breakpoint between two
tool calls): the family notes it, `wait_pause` waits for the next one, and `pause_news` says
it in the next answer of any tool until a pause answer has shown it.

When the program ends (it exits, it crashes, or the attached process goes away), `ended`
says how, with the last lines of its stderr when we ran it; the manager then drops it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdpilot.browser.observe.console import ConsoleLog
from cdpilot.browser.session.connection_facts import ConnectionKind
from cdpilot.browser.session.features import PageFeatures
from cdpilot.browser.session.node_program import LaunchedProgram, ProgramExit
from cdpilot.cdp import CdpConnection, CdpEvent, CdpSession, Subscriptions, WebSocketTransport
from cdpilot.cdp.node_workers import NodeWorkers
from cdpilot.errors import BrowserConnectionError, CdpCommandError, CdpTimeoutError

if TYPE_CHECKING:  # imported once a program is debugged
    from cdpilot.browser.debugger.debugger_facts import BoundTexts, Pause
    from cdpilot.browser.debugger.page_debugger import PageDebugger

_log = logging.getLogger(__name__)
ATTACH_TIMEOUT_S = 5.0
OUTPUT_DELAY_S = 0.1


@dataclass(eq=False)
class NodeThread:
    """One JavaScript thread of the family: a process, or a worker thread of one."""

    label: str  # "pid 4242 (dist/server.js)", "worker 1 of pid 4242"
    pid: int | None
    session: CdpSession
    features: PageFeatures
    cdp: CdpConnection | None = None  # a process's own websocket; None for a worker
    workers: NodeWorkers | None = None
    script: str = ""
    subscriptions: Subscriptions = field(default_factory=Subscriptions)

    @property
    def debugger(self) -> PageDebugger:
        return self.features.debugger


class NodeConnection:
    """A Node.js program: its threads, its console, how it was reached, and how it ended."""

    def __init__(
        self,
        connection_id: str,
        kind: ConnectionKind,
        product: str,
        endpoint: str,
        program: LaunchedProgram | None = None,
    ) -> None:
        self.id = connection_id
        self.kind = kind
        self.product = product
        self.protocol_version = "1.1"  # what every Node.js inspector reports
        self.endpoint = endpoint
        self.program = program
        self.console = ConsoleLog()
        self.threads: list[NodeThread] = []
        self.ended: str | None = None  # how the program ended, once it has
        self._news: list[str] = []  # a paused thread that went: what the next answer tells first
        self._bound_texts: BoundTexts = {}  # shared by every thread's debugger (see `BoundTexts`)
        self._current: NodeThread | None = None
        self._last_features: PageFeatures | None = None
        self._shown_pauses: dict[int, int] = {}  # id(thread) -> the newest pause number an answer showed
        self._pause_waiters: list[asyncio.Future[NodeThread]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_end: list[Callable[[NodeConnection], None]] = []
        self._closing = False
        if program is not None:
            program.follow_output(self._on_output)
            program.on_exit(self._on_program_exit)

    # --- `browser.target.Target` ------------------------------------------------------------

    @property
    def current(self) -> NodeThread:
        """The thread the tools act on: the one paused first (it stays current while it is
        paused, though others pause meanwhile: its frames are the ones an answer showed), else
        the one that paused last, else the first process."""
        if not self.threads:
            raise BrowserConnectionError(self.ended or f"The Node.js connection '{self.id}' has no process left.")
        if self._current not in self.threads:
            self._current = self.threads[0]
        if self._current is not None and self._current.debugger.paused is None:
            self._current = next((t for t in self.threads if t.debugger.paused is not None), self._current)
        assert self._current is not None
        return self._current

    @property
    def session(self) -> CdpSession:
        return self.current.session

    @property
    def page_session(self) -> CdpSession | None:
        return None  # a Node.js process has no page

    @property
    def features(self) -> PageFeatures:
        """The current thread's; once every thread has gone, the last one's, whose console (the
        family's) still holds what the program wrote."""
        if not self.threads and self._last_features is not None:
            return self._last_features
        return self.current.features

    @property
    def pause_owner(self) -> str | None:
        return f"Node.js {self.current.label}"

    @property
    def alive(self) -> bool:
        return self.ended is None and bool(self.threads)

    @property
    def target_url(self) -> str | None:
        script = self.threads[0].script if self.threads else ""
        return Path(script).as_uri() if script.startswith("/") else (script or None)

    @property
    def target_title(self) -> str | None:
        return self.threads[0].label if self.threads else None

    @property
    def debuggers(self) -> list[PageDebugger]:
        """Every thread's debugger, the current one first: what the debugger tools set applies to all."""
        current = self.current
        return [current.debugger, *(thread.debugger for thread in self.threads if thread is not current)]

    def on_end(self, handler: Callable[[NodeConnection], None]) -> None:
        """Call `handler` once when the program has ended (the manager drops the connection)."""
        self._on_end.append(handler)

    # --- joining ------------------------------------------------------------------------

    async def add_process(
        self, ws_url: str, *, pid: int | None, script: str, timeout_s: float, first_line: bool = False
    ) -> NodeThread:
        """Attach to one Node.js process's inspector and debug it with the family's settings;
        a process that waits for its debugger (the bootloader's) runs once that is done,
        stopping at its first line if `first_line`."""
        transport = await WebSocketTransport.open(ws_url, headers={}, timeout_s=timeout_s)
        cdp = await CdpConnection.open(transport)
        session = cdp.browser  # a Node.js websocket is its one target's session
        try:
            facts = await _process_facts(session, timeout_s)
            pid = pid or facts.get("pid")
            script = script or str(facts.get("script") or "")
            if facts.get("version") and not self.threads:
                self.product = f"node.js/{facts['version']}"
            name = Path(script).name if script else ""
            label = f"pid {pid}" + (f" ({name})" if name else "")
            thread = NodeThread(label, pid, session, self._new_features(), cdp=cdp, script=script)
            thread.workers = NodeWorkers(session, lambda worker, info: self._add_worker(thread, worker, info))
            await self._join(thread, timeout_s)
            await thread.workers.start()
            with contextlib.suppress(CdpCommandError):  # an old Node.js without it exits without waiting
                await session.send("NodeRuntime.notifyWhenWaitingForDisconnect", {"enabled": True})
            if first_line:
                await thread.debugger.enable()
                await self.pause_at_first_line(thread)
            await session.send("Runtime.runIfWaitingForDebugger")
        except BaseException:
            await cdp.close()
            raise
        self._watch_end(thread)
        return thread

    async def _add_worker(self, parent: NodeThread, session: CdpSession, info: Mapping[str, Any]) -> None:
        if str(info.get("url", "")).startswith("node:"):
            # Node.js's own thread (the one that runs module loader hooks, tsx's): no code of the
            # user's. It waits for us like any worker: let it run, and leave it.
            await _quietly(session.send("Runtime.runIfWaitingForDebugger"))
            return
        number = sum(1 for thread in self.threads if thread.label.startswith("worker ")) + 1
        label = f"worker {number} of {parent.label.split(' (')[0]}"
        thread = NodeThread(label, parent.pid, session, self._new_features(), script=str(info.get("url", "")))
        try:
            await self._join(thread, ATTACH_TIMEOUT_S)
            await session.send("Runtime.runIfWaitingForDebugger")
        except (BrowserConnectionError, CdpCommandError, CdpTimeoutError):
            self._leave(thread)  # it ended while we set it up
            return
        self._watch_end(thread)

    def _new_features(self) -> PageFeatures:
        """A thread's features: its own debugger (which reads source maps from disk), the family's
        console and the family's record of the texts its breakpoints were bound in."""
        from cdpilot.browser.debugger.page_debugger import PageDebugger  # imported once a program is debugged

        return PageFeatures(
            console=self.console, new_debugger=lambda: PageDebugger(node=True, bound_texts=self._bound_texts)
        )

    async def _join(self, thread: NodeThread, timeout_s: float) -> None:
        """Debug `thread` with the family's settings: those of the current thread, or, when
        none is left, of the last one that left (a watcher such as ``node --watch`` or ``tsx watch``
        ends the old process before it starts the new one)."""
        family = self.current.features if self.threads else self._last_features
        if family is not None:
            thread.debugger.adopt(family.debugger.config)
        self.threads.append(thread)
        thread.subscriptions.add(
            thread.session,
            {
                "Debugger.paused": lambda event: self._on_paused(thread, event),
                "NodeRuntime.waitingForDisconnect": lambda _: self._let_go(thread),
            },
        )
        async with asyncio.timeout(timeout_s):
            if len(self.threads) == 1:
                await self.console.attach(thread.session)
            else:
                await self.console.attach_child(thread.session)
            await thread.debugger.attach(thread.session)

    # --- pauses ---------------------------------------------------------------------------

    def _on_paused(self, thread: NodeThread, event: CdpEvent) -> None:
        if event.params.get("reason") == "instrumentation":
            return  # a script held for its breakpoints to bind: no pause of the user's
        if event.params.get("reason") == "Break on start":
            # A new worker waited for us before its first line: once its breakpoints bind in
            # the scripts parsed so far, it runs on, as it would undebugged.
            self._spawn(self._run_worker_on(thread))
            return
        if self._current is None or self._current.debugger.paused is None or self._current is thread:
            self._current = thread
        waiters, self._pause_waiters = self._pause_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(thread)

    async def _run_worker_on(self, thread: NodeThread) -> None:
        await thread.debugger.bindings_settled(ATTACH_TIMEOUT_S)
        pause = thread.debugger.paused
        if pause is not None:
            self.pause_shown(pause, thread)
        await _quietly(thread.session.send("Debugger.resume"))

    async def wait_pause(self, timeout_s: float) -> Pause | None:
        """The current pause, or the next pause of any thread within `timeout_s` (None: none came)."""
        if self.current.debugger.paused is not None:
            return self.current.debugger.paused
        waiter: asyncio.Future[NodeThread] = asyncio.get_running_loop().create_future()
        self._pause_waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout_s):
                await waiter
        except TimeoutError:
            return None
        finally:
            if waiter in self._pause_waiters:
                self._pause_waiters.remove(waiter)
        return self.current.debugger.paused

    def pause_shown(self, pause: object, thread: NodeThread | None = None) -> None:
        """An answer showed this pause of the current thread (or of `thread`): it is no news any more."""
        from cdpilot.browser.debugger.debugger_facts import Pause  # in with the debugger that paused

        assert isinstance(pause, Pause)
        key = id(thread or self.current)
        self._shown_pauses[key] = max(pause.number, self._shown_pauses.get(key, 0))

    def unshown_pause(self) -> tuple[NodeThread, Pause] | None:
        """A thread's pause that no answer has shown yet: the news of the next answer."""
        for thread in self.threads:
            pause = thread.debugger.paused
            if pause is not None and pause.number > self._shown_pauses.get(id(thread), 0):
                return thread, pause
        return None

    async def pause_at_first_line(self, thread: NodeThread) -> None:
        """Stop the thread at its main script's first line: a one-time breakpoint, set while
        the process waits for its debugger, removed at the first pause."""
        if not thread.script:
            return
        # Node.js names a module by its real path: a script reached through a link (a project's
        # node_modules linked elsewhere) runs under another name than the one it was started by.
        urls = {Path(thread.script).as_uri(), _real_uri(thread.script)}
        breakpoint_ids = [
            str(
                (await thread.session.send("Debugger.setBreakpointByUrl", {"url": url, "lineNumber": 0}))[
                    "breakpointId"
                ]
            )
            for url in urls
        ]

        def remove(event: CdpEvent) -> None:
            if event.params.get("reason") == "instrumentation":
                return  # a script held for breakpoints to bind: the program has not started yet
            stop()
            for breakpoint_id in breakpoint_ids:
                self._spawn(_quietly(thread.session.send("Debugger.removeBreakpoint", {"breakpointId": breakpoint_id})))

        stop = thread.session.on("Debugger.paused", remove)

    # --- output and ends -----------------------------------------------------------------

    def _on_output(self, stream: str, line: str) -> None:
        """A line of the program's stdout or stderr, logged a moment later: the report of the
        ``console.*`` call that wrote it, if one did, comes through the inspector meanwhile."""
        asyncio.get_running_loop().call_later(OUTPUT_DELAY_S, self.console.record_output, stream, line)

    def _watch_end(self, thread: NodeThread) -> None:
        """Leave the family when the thread's session ends (the process exited, the worker ended)."""

        async def watch() -> None:
            with contextlib.suppress(BrowserConnectionError), thread.session.listen("cdpilot.never") as stream:
                await stream.next()
            self._leave(thread)

        self._spawn(watch())

    def _let_go(self, thread: NodeThread) -> None:
        """The process finished its work and waits for its debugger to go (Node.js does not
        exit while one is attached): let go, so it exits as it would undebugged."""
        if thread.cdp is not None:
            self._spawn(thread.cdp.close())

    def take_news(self) -> list[str]:
        """What happened to the program since the last answer that no answer would show
        otherwise (a paused process that ended: the pause went with it), once each."""
        news, self._news = self._news, []
        return news

    def _leave(self, thread: NodeThread) -> None:
        if thread not in self.threads:
            return
        if thread.features.pause is not None and not self._closing and self.ended is None:
            self._news.append(
                f"Meanwhile the Node.js {thread.label} of '{self.id}', which was paused, ended; "
                "its pause ended with it."
            )
        self.threads.remove(thread)
        self._last_features = thread.features
        thread.subscriptions.clear()
        if thread.workers is not None:
            thread.workers.stop()
        if thread.cdp is not None:
            self._spawn(thread.cdp.close())
        if not self.threads and self.program is None and not self._closing:
            self._end(f"The Node.js process of '{self.id}' ({thread.label}) has gone: its inspector connection closed.")

    def _on_program_exit(self, how: ProgramExit) -> None:
        command = " ".join(self.program.command) if self.program is not None else "the program"
        text = f"The Node.js program of '{self.id}' ({command}) {how.how}."
        if how.stderr_tail:
            text += " Last lines of its stderr:\n" + "\n".join(f"  {line}" for line in how.stderr_tail)
        self.console.record_output("exit", text.split("\n", 1)[0])
        if not self._closing:
            self._end(text)

    def _end(self, text: str) -> None:
        if self.ended is not None:
            return
        self.ended = text
        for thread in list(self.threads):
            self._leave(thread)
        for handler in self._on_end:
            handler(self)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Background work (letting go of a thread, following the program) ended: a failure is
        logged; the threads still there go on."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.warning("Node.js connection '%s': background work failed", self.id, exc_info=task.exception())

    async def follow_program(self, timeout_s: float) -> None:
        """Attach the launched program's later processes as they announce themselves."""
        assert self.program is not None
        program = self.program

        async def follow() -> None:
            while True:
                report = await program.reports.get()
                try:
                    await self.add_process(report.ws_url, pid=report.pid, script=report.script, timeout_s=timeout_s)
                except (BrowserConnectionError, CdpCommandError, CdpTimeoutError, OSError) as exc:
                    # It ended as it started (a short-lived child), or could not be reached.
                    _log.info("Node.js process %s of '%s' was not attached: %s", report.pid, self.id, exc)

        self._spawn(follow())

    async def close(self) -> None:
        """Let go of every thread; a program we ran is ended, with its whole process group."""
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for thread in list(self.threads):
            thread.subscriptions.clear()
            if thread.workers is not None:
                thread.workers.stop()
            if thread.cdp is not None:
                await thread.cdp.close()
        self.threads.clear()
        if self.program is not None:
            await self.program.stop()


async def _process_facts(session: CdpSession, timeout_s: float) -> dict[str, Any]:
    """The process id, main script and Node.js version of an attached process, asked of the
    process itself ({} when it cannot answer: it is paused, or it is not Node.js after all)."""
    expression = "({pid: process.pid, script: process.argv[1] || '', version: process.version})"
    try:
        reply = await session.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "silent": True}, timeout_s=timeout_s
        )
    except (CdpCommandError, CdpTimeoutError):
        return {}
    value = reply.get("result", {}).get("value")
    return value if isinstance(value, dict) else {}


async def _quietly(work: Any) -> None:
    with contextlib.suppress(BrowserConnectionError, CdpCommandError, CdpTimeoutError):
        await work


def _real_uri(path: str) -> str:
    """The file URL of `path` with every link resolved, as Node.js names the module."""
    return Path(path).resolve().as_uri()
