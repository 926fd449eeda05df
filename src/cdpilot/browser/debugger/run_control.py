"""Pausing, resuming and stepping the current page, and which pause it is in.

Whether execution goes on after resume or a step is learnt without sleeping: the command is
followed by a probe (a ``Runtime.evaluate`` of nothing), which the page runs only once the
task it is in finishes or pauses; a pause is reported by ``Debugger.paused`` before that.
A step off the last frame stops at the next statement run anywhere, which is the probe's:
that pause is resumed at once and reported as execution running on.

Each pause is read into a typed `Pause` the moment it arrives, its frames included: the
browser's call frame ids are only valid while that pause lasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import replace
from typing import Any

from cdpilot.browser.debugger.breakpoints import LiveBreakpoints
from cdpilot.browser.debugger.debugger_facts import AsyncFrame, Frame, Location, Pause, RunOutcome
from cdpilot.browser.debugger.mapped_scripts import MappedScripts
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.debugger.triggers import TriggerBreakpoints
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import CdpCommandError, CdpilotError, StateError

PROBE_URL = "cdpilot-probe.js"
PROBE = {"expression": f"0\n//# sourceURL={PROBE_URL}", "silent": True, "returnByValue": True}
# One line of a V8 stack: "    at handleCheckout (http://…/App.vue:20:9)" or "    at http://…/app.js:3:1".
STACK_LINE = re.compile(r"^\s*at (?:(?P<name>.*?) \()?(?P<url>[^()\s]+):(?P<line>\d+):(?P<column>\d+)\)?$")
THROWN_FRAMES = 30  # of a thrown Error's own stack


class RunControl:
    """The pause the current page is in (if any), and the commands that end or make one."""

    def __init__(
        self,
        scripts: ScriptSources,
        maps: MappedScripts,
        breakpoints: LiveBreakpoints,
        triggers: TriggerBreakpoints,
        *,
        bind_on_parse: bool = False,
    ) -> None:
        """`bind_on_parse`: bind as a script is parsed even while scripts are held. Node.js
        compiles a CommonJS module as a function, which the engine's hold (an instrumentation
        breakpoint) never stops: such a module binds as it is parsed, while its top level may
        already run; a script the hold does stop (an ES module, vitest's) waits for that binding."""
        self._bind_on_parse = bind_on_parse
        self._script_binds: dict[str, asyncio.Future[None]] = {}  # script id → its binding, once started
        self._scripts = scripts
        self._maps = maps
        self._breakpoints = breakpoints
        self._triggers = triggers
        self._session: CdpSession | None = None
        self.paused: Pause | None = None
        self.pause_count = 0  # number of the newest pause seen
        self._stepping = False
        self._pause_requested = False
        self._before_scripts: set[asyncio.Future[None]] = set()

    def attach(self, session: CdpSession) -> None:
        self._session = session
        self.forget_scripts()
        self.resumed()

    def forget_scripts(self) -> None:
        """The scripts are gone (another session, a navigation): so are their bindings."""
        self._script_binds.clear()

    def require_paused(self) -> Pause:
        if self.paused is None:
            raise not_paused_error()
        return self.paused

    async def wait_pause(self, since: int) -> Pause:
        """The first pause numbered after `since` (at once if it already happened). Fails with
        the session: a browser that dies while we wait for a pause must not leave us waiting."""
        with self._require_session().listen("Debugger.paused") as pauses:
            while self.paused is None or self.paused.number <= since:
                await pauses.next()  # `on_paused` has recorded the pause by the time this wakes
        return self.paused

    async def request_pause(self, timeout_ms: int) -> Pause | None:
        """Ask to pause. A running script stops at once; an idle page stops at the next
        statement it runs. None when nothing ran within `timeout_ms` (the request stands)."""
        self._pause_requested = True
        before = self.pause_count
        await self._require_session().send("Debugger.pause")
        try:
            async with asyncio.timeout(timeout_ms / 1000):
                return await self.wait_pause(before)
        except TimeoutError:
            return None

    async def go_on(self, command: str, timeout_ms: int, *, stepping: bool) -> RunOutcome:
        """Send a resume or step `command`; report the next pause if execution stops again
        before its task ends, else whether the task was still running when the wait ended."""
        session = self._require_session()
        before = self.pause_count
        self._stepping = stepping
        try:
            await session.send(command)
        except CdpCommandError as exc:
            if "while paused" not in exc.cdp_message:
                raise
            self.resumed()  # it resumed without telling us (the page went away)
            raise not_paused_error() from exc
        self._resumed_from(before)
        probe = asyncio.ensure_future(session.send("Runtime.evaluate", PROBE, timeout_s=timeout_ms / 1000 + 1))
        paused = asyncio.ensure_future(self.wait_pause(before))
        try:
            await asyncio.wait({probe, paused}, timeout=timeout_ms / 1000, return_when=asyncio.FIRST_COMPLETED)
        finally:
            paused.cancel()
            probe.add_done_callback(_consume)
        if self.paused is not None and self.pause_count > before:
            if self.paused.top.location.url != PROBE_URL:
                return RunOutcome(self.paused, busy=False)
            # Stepping off the last frame stops at the next statement run anywhere: our probe.
            probe_pause = self.pause_count
            await session.send("Debugger.resume")
            self._resumed_from(probe_pause)
            return RunOutcome(None, busy=False)
        busy = not probe.done()
        if not busy:
            self._stepping = False  # the step's task ended without a stop: the next pause is not a step's
        return RunOutcome(None, busy=busy)

    def on_paused(self, event: CdpEvent) -> None:
        params = event.params
        if params.get("reason") == "instrumentation":  # a bundle about to run: not a pause of the user's
            script_id = str((params.get("data") or {}).get("scriptId", ""))
            if self._breakpoints.must_hold(script_id):
                task = asyncio.ensure_future(self._bind_then_run(script_id))
            else:
                task = asyncio.ensure_future(self._let_run())
                self._bind_later(script_id)
            self._before_scripts.add(task)
            task.add_done_callback(self._before_scripts.discard)
            return
        self.pause_count += 1
        frames = tuple(self._frame(i, raw) for i, raw in enumerate(params.get("callFrames") or []))
        exception, reason = _exception(params)
        if reason is None:
            reason = self._reason(
                str(params.get("reason", "other")), list(params.get("hitBreakpoints") or []), params.get("data") or {}
            )
        segments, cut = self._scripts.async_stack(params)
        thrown = self._thrown_frames(params) if exception is not None else ()
        self.paused = Pause(self.pause_count, reason, exception, frames, self._stepping, segments, cut, thrown)
        self._stepping = self._pause_requested = False

    def _thrown_frames(self, params: dict[str, Any]) -> tuple[AsyncFrame, ...]:
        """Where a thrown Error was made: its own stack, which the browser gives as the thrown
        value's description (what its ``stack`` property holds), read line by line. A frame's
        script is the newest loaded at its URL; a value that is no Error has none."""
        data = params.get("data") or {}
        if data.get("subtype") != "error":
            return ()
        frames = []
        for line in str(data.get("description") or "").splitlines()[1:]:
            found = STACK_LINE.match(line)
            if found is None:
                continue
            url = found["url"]
            ids = self._scripts.ids_of(url)
            where = Location(ids[-1] if ids else "", url, int(found["line"]), int(found["column"]))
            name = (found["name"] or "").removeprefix("async ")
            frames.append(AsyncFrame(name, self._maps.original_loaded(where, self._maps.loaded(where.script_id))))
            if len(frames) == THROWN_FRAMES:
                break
        return tuple(frames)

    def on_script_parsed(self, script_id: str) -> None:
        """A script was parsed while no script is held: bind the breakpoints that name its
        files as it loads (see `breakpoints`); it may already be running meanwhile."""
        if (self._bind_on_parse or not self._breakpoints.holding) and self._breakpoints.named_by_file():
            self._bind_later(script_id)

    async def bindings_settled(self, timeout_s: float) -> None:
        if self._before_scripts:
            await asyncio.wait(set(self._before_scripts), timeout=timeout_s)

    def _bind_later(self, script_id: str) -> None:
        """Bind in a script that runs meanwhile, if its map may name a breakpoint's file."""
        if self._breakpoints.may_bind_in(script_id):
            task = (
                self._binding_in(script_id)
                if self._bind_on_parse
                else asyncio.ensure_future(self._bind_unheld(script_id))
            )
            self._before_scripts.add(task)
            task.add_done_callback(self._before_scripts.discard)

    def _binding_in(self, script_id: str) -> asyncio.Future[None]:
        """A Node.js script's binding: started once, whether at its parsing or at its hold."""
        if script_id not in self._script_binds:
            self._script_binds[script_id] = asyncio.ensure_future(self._bind_unheld(script_id))
        return self._script_binds[script_id]

    async def _bind_unheld(self, script_id: str) -> None:
        with contextlib.suppress(CdpilotError):  # the page went away mid-way: nothing is left to bind
            await self._breakpoints.bind_new_script(script_id)

    async def _bind_then_run(self, script_id: str) -> None:
        """Bind the breakpoints that name the script's original files, then let it run. A map
        that fails to load is noted by the maps; the script runs on in any case."""
        if self._bind_on_parse:  # its binding may be under way since it was parsed
            await asyncio.shield(self._binding_in(script_id))
        else:
            with contextlib.suppress(CdpilotError):  # the page went away mid-way: nothing is left to bind
                await self._breakpoints.bind_new_script(script_id)
        await self._let_run()

    async def _let_run(self) -> None:
        """End a hold of a script before it runs."""
        with contextlib.suppress(CdpilotError):  # the page went away, or was resumed some other way
            await self._require_session().send("Debugger.resume")

    def _frame(self, index: int, raw: dict[str, Any]) -> Frame:
        """A frame, in original coordinates already where its script's map is loaded (the
        answers load the others)."""
        frame = self._scripts.frame(index, raw)
        location = frame.location
        return replace(frame, location=self._maps.original_loaded(location, self._maps.loaded(location.script_id)))

    def _reason(self, cdp_reason: str, cdp_hit: list[str], data: dict[str, Any]) -> str:
        hit = self._breakpoints.ids_hit(cdp_hit)
        if hit:
            return "breakpoint " + ", ".join(hit)
        triggered = self._triggers.ids_hit(cdp_reason, data)
        if triggered:
            return (
                f"{TRIGGER_LABELS[cdp_reason]} breakpoint {', '.join(triggered)}: {_trigger_detail(cdp_reason, data)}"
            )
        if self._stepping:
            return "step"
        if self._pause_requested:
            return "pause requested"
        return "debugger statement" if cdp_reason == "other" else cdp_reason

    def resumed(self) -> None:
        self.paused = None

    def _resumed_from(self, number: int) -> None:
        """A resume command was answered: pause `number` is over. ``Debugger.resumed`` may come
        after the answer, and the next ``Debugger.paused`` before it, so only that pause is cleared."""
        if self.paused is not None and self.paused.number == number:
            self.paused = None

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session


TRIGGER_LABELS = {"XHR": "XHR/fetch", "EventListener": "event", "DOM": "DOM"}


def _trigger_detail(cdp_reason: str, data: dict[str, Any]) -> str:
    """What set a trigger breakpoint off: the request's URL, the event, the change."""
    if cdp_reason == "XHR":
        return str(data.get("url", ""))
    if cdp_reason == "EventListener":
        return str(data.get("eventName", "")).split(":", 1)[-1]
    return str(data.get("type", "")).replace("-", " ")


def not_paused_error() -> StateError:
    return StateError(
        "Execution is not paused.",
        suggestion="Pause it: set a breakpoint with {tool:debugger_set_breakpoint} and trigger it "
        "(e.g. {tool:click_element}), or call {tool:debugger_pause} while a script runs.",
    )


def _exception(params: dict[str, Any]) -> tuple[str | None, str | None]:
    """For a pause on a thrown value: the value's first line and the pause's reason."""
    reason = params.get("reason")
    if reason not in ("exception", "promiseRejection"):
        return None, None
    data = params.get("data") or {}
    kind = "uncaught " if data.get("uncaught") else ""
    label = f"{kind}{'exception' if reason == 'exception' else 'promise rejection'}"
    if not data:
        return None, label
    text = str(data.get("description") or data.get("value") or "")
    return (text.splitlines() or [""])[0], label


def _consume(task: asyncio.Future[Any]) -> None:
    """A probe whose answer nobody waits for any more: read its outcome so none is reported lost."""
    if not task.cancelled():
        task.exception()
