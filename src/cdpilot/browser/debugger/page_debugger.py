"""The JavaScript debugger of the current page: its settings per target, and the parts that
do the work (scripts and their sources, breakpoints, running and pausing, frame variables).

State is kept per target. CDP forgets a session's breakpoints when we detach from it (a
`switch_target` away), so `DebugConfig` (enabled, breakpoints by URL, pause-on-exceptions,
skip-all-pauses) is remembered per target id and re-applied when the target is attached
again. Lines and columns are 1-based here and in every answer (CDP's are 0-based).
"""

from __future__ import annotations

import json
from dataclasses import replace

from cdpilot.browser.debugger.breakpoint_requests import CONDITION_ERRORS, matching_names
from cdpilot.browser.debugger.breakpoints import LiveBreakpoints
from cdpilot.browser.debugger.debugger_facts import (
    BoundTexts,
    Breakpoint,
    BreakpointSpec,
    DebugConfig,
    DisableOutcome,
    DomChange,
    ExceptionState,
    Frame,
    FrameExpression,
    Pause,
    RunOutcome,
    StepKind,
    Trigger,
    TriggerKind,
    TriggerSpec,
)
from cdpilot.browser.debugger.frame_expressions import free_references, rewritten
from cdpilot.browser.debugger.frame_variables import FrameVariables
from cdpilot.browser.debugger.mapped_scripts import MappedScripts
from cdpilot.browser.debugger.original_names import OriginalNames
from cdpilot.browser.debugger.original_stepping import step_in_original
from cdpilot.browser.debugger.run_control import RunControl
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.debugger.source_files import SourceFiles
from cdpilot.browser.debugger.triggers import TriggerBreakpoints
from cdpilot.browser.js_tokens import declared_names, js_tokens
from cdpilot.browser.own_scripts import OWN_SCRIPT_PATTERNS, own_expression
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError, CdpTimeoutError, DebuggerDisabledError, ExecutionPausedError, StateError

MAX_EXTRA_STEPS = 20  # steps taken on our own to reach the next original line, at most
# How many async boundaries a pause reports, as DevTools asks. The answers show a few; the
# rest are counted. The cost is the same for any depth above 0 (the browser records a stack
# at every await, timer and promise reaction either way, in memory it bounds itself).
ASYNC_STACK_DEPTH = 32
STEP_COMMANDS: dict[str, str] = {"over": "Debugger.stepOver", "into": "Debugger.stepInto", "out": "Debugger.stepOut"}


class PageDebugger:
    """The debugger of the current page session (one per connection, re-attached per page)."""

    def __init__(self, *, node: bool = False, bound_texts: BoundTexts | None = None) -> None:
        """`node`: the debugger of a Node.js process or worker. Its source maps and the sources
        they name are files of this machine (``file:`` URLs, read from disk; a page's are fetched
        through the page), and its modules bind breakpoints as they are parsed too (see
        `RunControl.on_script_parsed`). `bound_texts`: the program's, which all its processes
        and workers share (a page's debugger keeps its own)."""
        self._session: CdpSession | None = None
        self._node = node
        self._configs: dict[str, DebugConfig] = {}
        self.scripts = ScriptSources()
        self.maps = MappedScripts(self.scripts, local_files=node)
        self.names = OriginalNames(self.scripts, self.maps)
        self.variables = FrameVariables(self.names)
        self._breakpoints = LiveBreakpoints(
            self.scripts, self.maps, lambda: self.config, {} if bound_texts is None else bound_texts
        )
        self._triggers = TriggerBreakpoints()
        self._run = RunControl(self.scripts, self.maps, self._breakpoints, self._triggers, bind_on_parse=node)
        self._files = SourceFiles(self.scripts, self.maps)
        self._subscriptions = Subscriptions()

    # --- attachment -------------------------------------------------------------------

    @property
    def config(self) -> DebugConfig:
        target = self._session.target_id if self._session is not None else None
        return self._configs.setdefault(target or "", DebugConfig())

    def adopt(self, config: DebugConfig) -> None:
        """Start from another target's settings, before `attach` applies them: a new process or
        worker of a Node.js program gets the breakpoints and pauses its family has."""
        self._configs[""] = replace(config, breakpoints=dict(config.breakpoints), triggers=dict(config.triggers))

    async def attach(self, session: CdpSession) -> None:
        """Follow a page session; if its target had the debugger on, turn it on again as it was."""
        self.follow(session)
        if self.config.enabled:
            await self._apply(self.config)

    def follow(self, session: CdpSession) -> None:
        """Follow a page session's events, the debugger's settings left as they are (off, for a
        debugger made after its page was attached)."""
        self._session = session
        parts = (self.scripts, self.variables, self.maps, self.names, self._breakpoints, self._triggers, self._run)
        for part in parts:
            part.attach(session)
        self._subscriptions.replace(
            session,
            {
                "Debugger.paused": self._run.on_paused,
                "Debugger.resumed": lambda _: self._run.resumed(),
                "Debugger.scriptParsed": self._on_script_parsed,
                "Debugger.breakpointResolved": self._breakpoints.on_resolved,
                "Runtime.executionContextsCleared": self._on_contexts_cleared,
            },
        )

    async def _apply(self, config: DebugConfig) -> None:
        session = self._require_session()
        await session.send("Debugger.enable")
        await session.send("Debugger.setAsyncCallStackDepth", {"maxDepth": ASYNC_STACK_DEPTH})
        await session.send("Debugger.setBlackboxPatterns", {"patterns": OWN_SCRIPT_PATTERNS})
        await session.send("Debugger.setPauseOnExceptions", {"state": config.pause_on_exceptions})
        await session.send("Debugger.setSkipAllPauses", {"skip": config.skip_all_pauses})
        for spec in config.breakpoints.values():
            await self._breakpoints.set(spec)
        for trigger in config.triggers.values():
            await self._triggers.set(trigger)

    def _on_script_parsed(self, event: CdpEvent) -> None:
        self.scripts.on_script_parsed(event)
        if event.params.get("sourceMapURL"):
            self._run.on_script_parsed(str(event.params["scriptId"]))

    def _on_contexts_cleared(self, _: CdpEvent) -> None:
        """The page navigated: its scripts are gone, and so is a pause in them (no resumed event)."""
        self.scripts.clear()
        self.names.clear()
        self.maps.forget_failures()  # a reload may bring a map that failed before
        self._breakpoints.forget_resolved()
        self._run.forget_scripts()
        self._run.resumed()

    # --- settings ---------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        return self.config.enabled

    async def enable(self) -> bool:
        """Turn the debugger on; False when it already was."""
        if self.config.enabled:
            return False
        self.config.enabled = True
        try:
            await self._apply(self.config)
        except BaseException:
            self.config.enabled = False
            raise
        return True

    async def disable(self) -> DisableOutcome:
        """Turn it off: breakpoints and settings are dropped, a paused page resumes."""
        self.require_enabled()
        was_paused = self.paused is not None
        removed = await self._breakpoints.remove_all() + await self._triggers.remove_all()
        await self._require_session().send("Debugger.disable")
        self._configs[self._require_session().target_id or ""] = DebugConfig()
        self._run.resumed()
        return DisableOutcome(removed, resumed=was_paused)

    async def set_skip_all_pauses(self, skip: bool) -> bool:
        """Ignore every pause (or stop ignoring); enables the debugger first if needed.
        Returns whether this call enabled it."""
        enabled_now = await self.enable()
        await self._require_session().send("Debugger.setSkipAllPauses", {"skip": skip})
        self.config.skip_all_pauses = skip
        return enabled_now

    async def set_pause_on_exceptions(self, state: ExceptionState) -> None:
        self.require_enabled()
        await self._require_session().send("Debugger.setPauseOnExceptions", {"state": state})
        self.config.pause_on_exceptions = state

    # --- breakpoints ------------------------------------------------------------------

    async def set_breakpoint(
        self,
        *,
        url: str | None,
        url_regex: str | None,
        line: int,
        column: int | None,
        condition: str | None,
        log_message: str | None = None,
        hit_count: int | None = None,
    ) -> Breakpoint:
        self.require_enabled()
        live = await self._breakpoints.add(
            self.config,
            url=url,
            url_regex=url_regex,
            line=line,
            column=column,
            condition=condition,
            log_message=log_message,
            hit_count=hit_count,
        )
        return await self._breakpoints.described(live)

    async def set_trigger(self, kind: TriggerKind, value: str, dom_change: DomChange | None = None) -> Trigger:
        """A breakpoint on a request, an event or a change of an element (see `triggers`)."""
        self.require_enabled()
        return await self._triggers.add(self.config, kind, value, dom_change)

    async def remove_breakpoint(self, breakpoint_id: str) -> BreakpointSpec | TriggerSpec:
        self.require_enabled()
        if self._triggers.get(breakpoint_id) is not None:
            return await self._triggers.remove(self.config, breakpoint_id)
        return await self._breakpoints.remove(self.config, breakpoint_id)

    async def breakpoints(self) -> list[Breakpoint | Trigger]:
        """The live breakpoints in the order they were set, line breakpoints' places in
        original coordinates where mapped."""
        self.require_enabled()
        failures = await self._condition_failures()
        found: list[Breakpoint | Trigger] = [
            replace(await self._breakpoints.described(live), failure=failures.get(live.spec.id))
            for live in self._breakpoints.listed()
        ]
        found += self._triggers.listed()
        return sorted(found, key=lambda b: int(b.spec.id.removeprefix("bp")))

    async def _condition_failures(self) -> dict[str, str]:
        """What each breakpoint's condition last threw in the page (kept there by the
        condition itself, see `cdp_condition`); not read while paused, when the page runs
        nothing."""
        if self.paused is not None:
            return {}
        expression = own_expression(f"globalThis[Symbol.for({json.dumps(CONDITION_ERRORS)})] ?? {{}}")
        try:
            reply = await self._require_session().send(
                "Runtime.evaluate", {"expression": expression, "returnByValue": True, "silent": True}, timeout_s=2
            )
        except (CdpCommandError, CdpTimeoutError):
            return {}
        value = reply.get("result", {}).get("value")
        return {str(key): str(error) for key, error in value.items()} if isinstance(value, dict) else {}

    async def same_name(self, name: str) -> list[str]:
        """Loaded scripts and original sources with the file name of `name`: what a breakpoint
        that binds nowhere may have meant."""
        candidates = [entry.url for entry in await self._files.scripts()]
        candidates += [source.name for entry in await self._files.scripts() for source in entry.sources]
        return matching_names(name, candidates)

    # --- finding code -----------------------------------------------------------------

    @property
    def files(self) -> SourceFiles:
        """The page's scripts and original sources (needs the debugger on: it sees them load)."""
        self.require_enabled()
        return self._files

    # --- execution --------------------------------------------------------------------

    @property
    def paused(self) -> Pause | None:
        return self._run.paused

    @property
    def pause_count(self) -> int:
        """The number of the newest pause seen."""
        return self._run.pause_count

    async def bindings_settled(self, timeout_s: float) -> None:
        """Wait (at most `timeout_s`) for the breakpoints under way to bind in the scripts parsed
        so far: a Node.js worker stopped before its first line runs on once they have."""
        await self._run.bindings_settled(timeout_s)

    def require_enabled(self) -> None:
        if not self.config.enabled:
            where = "in this Node.js program" if self._node else "on this page"
            raise DebuggerDisabledError(f"The debugger is not enabled {where}.")

    def require_paused(self) -> Pause:
        self.require_enabled()
        return self._run.require_paused()

    async def in_frame(self, frame: Frame, expression: str) -> FrameExpression:
        """`expression` as `frame` of the current pause must evaluate it: its original names
        replaced by the generated ones where a source map covers the place it paused at."""
        pause = await self.names.annotate(self.require_paused())
        frame = pause.frames[frame.index]
        tokens = js_tokens(expression)
        own = declared_names(tokens)
        references = free_references(tokens, own)
        names = list(dict.fromkeys(found.token.text for found in references))
        if frame.location.original is None or not names:
            return FrameExpression(expression, expression)
        generated = await self.names.generated_names(frame, names, own)
        return rewritten(expression, references, generated)

    def raise_if_paused(self) -> None:
        """For work that needs the page running (input, waiting on the page)."""
        if self.paused is not None:
            raise ExecutionPausedError(self.paused)

    def pause_blocking(self, since: int) -> ExecutionPausedError | None:
        """The error for a pause that began after pause number `since`, if one did."""
        pause = self.paused
        if pause is None or pause.number <= since:
            return None
        return ExecutionPausedError(pause)

    async def wait_pause(self, since: int) -> Pause:
        """The first pause numbered after `since` (at once if it already happened)."""
        return await self._run.wait_pause(since)

    async def pause(self, timeout_ms: int) -> Pause | None:
        """Ask to pause; None when no script ran within `timeout_ms` (the request stands)."""
        self.require_enabled()
        if self.paused is not None:
            raise StateError(
                f"Execution is already paused at {self.paused.top.location.label}.",
                suggestion="Resume with {tool:debugger_resume}, or step with {tool:debugger_step_over}.",
            )
        return await self._run.request_pause(timeout_ms)

    async def resume(self, timeout_ms: int) -> RunOutcome:
        """Resume; reports the next pause if execution stops again before its task ends."""
        self.require_paused()
        return await self._run.go_on("Debugger.resume", timeout_ms, stepping=False)

    async def step(self, kind: StepKind, timeout_ms: int) -> RunOutcome:
        """One step in the code the user wrote (see `original_stepping`)."""
        return await step_in_original(self._run, self.maps, self.require_paused(), kind, timeout_ms)

    # --- frames -----------------------------------------------------------------------

    def frame(self, reference: int | str) -> Frame:
        """A frame of the current pause by index (0 = top) or CDP call frame id."""
        frames = self.require_paused().frames
        if isinstance(reference, int) or reference.isdigit():
            index = int(reference)
            if 0 <= index < len(frames):
                return frames[index]
            raise StateError(
                f"There is no frame {index}: the stack has {len(frames)} frames (0 to {len(frames) - 1}).",
                suggestion="See the frames with {tool:debugger_get_call_stack}.",
            )
        for frame in frames:
            if frame.call_frame_id == reference:
                return frame
        raise StateError(
            "No frame of the current pause has that call frame id (ids change with every pause).",
            suggestion="Use a frame index (0 = top) or an id from {tool:debugger_get_call_stack}.",
        )

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session
