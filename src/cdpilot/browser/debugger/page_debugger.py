"""The JavaScript debugger of the current page: breakpoints, pauses, stepping, call frames.

State is kept per target. CDP forgets a session's breakpoints when we detach from it (a
`switch_target` away), so `DebugConfig` (enabled, breakpoints by URL, pause-on-exceptions,
skip-all-pauses) is remembered per target id and re-applied when the target is attached
again. Breakpoints are set by URL or URL regex, never by script id, so the browser keeps
them across reloads and resolves them in scripts parsed later.

Lines and columns are 1-based here and in every answer (CDP's are 0-based), converted at
`Location`. Inline scripts are positioned in their HTML document, so a source line is read
from the script's text shifted by the ``startLine`` its ``Debugger.scriptParsed`` reported.

Whether execution goes on after resume or a step is learnt without sleeping: the command is
followed by a probe (a ``Runtime.evaluate`` of nothing), which the page runs only once the
task it is in finishes or pauses; a pause is reported by ``Debugger.paused`` before that.
A step off the last frame stops at the next statement run anywhere, which is the probe's:
that pause is resumed at once and reported as execution running on.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

from cdpilot.browser.own_scripts import OWN_SCRIPT_PATTERN
from cdpilot.browser.remote_values import preview_value
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import (
    ArgumentError,
    CdpCommandError,
    CdpTimeoutError,
    DebuggerDisabledError,
    ExecutionError,
    FieldProblem,
    StateError,
)

ExceptionState = Literal["none", "uncaught", "all"]
StepKind = Literal["over", "into", "out"]
STEP_COMMANDS: dict[str, str] = {"over": "Debugger.stepOver", "into": "Debugger.stepInto", "out": "Debugger.stepOut"}
PROBE_URL = "cdpilot-probe.js"
PROBE = {"expression": f"0\n//# sourceURL={PROBE_URL}", "silent": True, "returnByValue": True}
MAX_CACHED_SOURCES = 32
MAX_REMEMBERED_FRAMES = 16  # frames whose variables are kept to mark what a step changed
SOURCE_WINDOW_CHARS = 120  # a minified line is shown around the paused column
LOCALS_SCOPES = ("block", "local", "catch", "with")  # innermost scopes: the frame's own variables


@dataclass(frozen=True)
class Location:
    """A place in a script, 1-based like an editor."""

    script_id: str
    url: str
    line: int
    column: int

    @classmethod
    def from_cdp(cls, location: dict[str, Any], url: str) -> Location:
        return cls(
            str(location["scriptId"]), url, int(location["lineNumber"]) + 1, int(location.get("columnNumber", 0)) + 1
        )

    @property
    def label(self) -> str:
        return f"{self.url or '(anonymous script)'}:{self.line}:{self.column}"


@dataclass(frozen=True)
class BreakpointSpec:
    """What the user asked for; re-applied as it is on every attach of its target."""

    id: str  # ours: bp1, bp2, …
    url: str | None
    url_regex: str | None
    line: int
    column: int | None
    condition: str | None

    @property
    def where(self) -> str:
        place = self.url if self.url is not None else f"/{self.url_regex}/"
        return f"{place}:{self.line}" + (f":{self.column}" if self.column is not None else "")


@dataclass
class Breakpoint:
    spec: BreakpointSpec
    cdp_id: str
    resolved: list[Location] = field(default_factory=list)


@dataclass
class DebugConfig:
    """The debugger settings of one target, kept while we are attached elsewhere."""

    enabled: bool = False
    skip_all_pauses: bool = False
    pause_on_exceptions: ExceptionState = "none"
    breakpoints: dict[str, BreakpointSpec] = field(default_factory=dict)
    breakpoints_made: int = 0  # numbers the ids: bp1, bp2, … per target, from 1 again after a disable


@dataclass(frozen=True)
class ScriptInfo:
    url: str
    start_line: int  # 0-based, in the document that holds the script
    start_column: int


@dataclass(frozen=True)
class Pause:
    """One stop of execution, as ``Debugger.paused`` reported it."""

    number: int  # counts pauses on this page; a new pause has a higher number
    reason: str  # breakpoint bp1 | step | exception | promise rejection | debugger statement | pause requested | …
    exception: str | None  # the thrown value's first line, for exception pauses
    call_frames: list[dict[str, Any]]
    after_step: bool

    @property
    def top(self) -> dict[str, Any]:
        return self.call_frames[0]


@dataclass(frozen=True)
class RunOutcome:
    """Where execution got to after resume or a step: a new pause, or running on."""

    pause: Pause | None
    busy: bool  # not paused, and its task had not finished when the wait ended (a long loop?)


class ExecutionPausedError(StateError):
    """The page is paused in the debugger, so what needs it running cannot go on."""

    def __init__(self, pause: Pause, location: str) -> None:
        super().__init__(
            f"Execution is paused ({pause.reason}) at {location}.",
            suggestion="Resume with {tool:debugger_resume} or step with {tool:debugger_step_over}; "
            "{tool:debugger_get_call_stack} shows the frames.",
        )
        self.pause = pause


class PageDebugger:
    """The debugger of the current page session (one per connection, re-attached per page)."""

    def __init__(self) -> None:
        self._session: CdpSession | None = None
        self._configs: dict[str, DebugConfig] = {}
        self._live: dict[str, Breakpoint] = {}  # our id -> live breakpoint of the current session
        self._scripts: dict[str, ScriptInfo] = {}
        self._sources: OrderedDict[str, list[str]] = OrderedDict()
        self.paused: Pause | None = None
        self.pause_count = 0  # number of the newest pause seen
        self._seen_locals: OrderedDict[tuple[str, int], dict[str, str]] = OrderedDict()  # for [CHANGED] marks
        self._stepping = False
        self._pause_requested = False
        self._subscriptions = Subscriptions()

    # --- attachment -------------------------------------------------------------------

    @property
    def config(self) -> DebugConfig:
        target = self._session.target_id if self._session is not None else None
        return self._configs.setdefault(target or "", DebugConfig())

    async def attach(self, session: CdpSession) -> None:
        """Follow a page session; if its target had the debugger on, turn it on again as it was."""
        self._session = session
        self._live.clear()
        self._scripts.clear()
        self._sources.clear()
        self._resumed()
        self._subscriptions.replace(
            session,
            {
                "Debugger.paused": self._on_paused,
                "Debugger.resumed": lambda _: self._resumed(),
                "Debugger.scriptParsed": self._on_script_parsed,
                "Debugger.breakpointResolved": self._on_breakpoint_resolved,
                "Runtime.executionContextsCleared": self._on_contexts_cleared,
            },
        )
        if self.config.enabled:
            await self._apply(self.config)

    async def _apply(self, config: DebugConfig) -> None:
        session = self._require_session()
        await session.send("Debugger.enable")
        await session.send("Debugger.setBlackboxPatterns", {"patterns": [OWN_SCRIPT_PATTERN]})
        await session.send("Debugger.setPauseOnExceptions", {"state": config.pause_on_exceptions})
        await session.send("Debugger.setSkipAllPauses", {"skip": config.skip_all_pauses})
        for spec in config.breakpoints.values():
            await self._set_live(spec)

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

    async def disable(self) -> None:
        """Turn it off: breakpoints and settings are dropped, a paused page resumes."""
        self.require_enabled()
        session = self._require_session()
        for live in self._live.values():  # Debugger.disable alone leaves URL breakpoints in place
            await session.send("Debugger.removeBreakpoint", {"breakpointId": live.cdp_id})
        await session.send("Debugger.disable")
        target = self._require_session().target_id or ""
        self._configs[target] = DebugConfig()
        self._live.clear()
        self._resumed()

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
        self, *, url: str | None, url_regex: str | None, line: int, column: int | None, condition: str | None
    ) -> Breakpoint:
        self.require_enabled()
        if (url is None) == (url_regex is None):
            given = "both" if url is not None else "neither"
            raise ArgumentError(
                "A breakpoint needs a script: url or url_regex.",
                problems=[FieldProblem("url / url_regex", "exactly one of them", given)],
                suggestion="Give the script's URL (from the pause location or the page's <script src>) "
                "or a regex that matches it.",
            )
        if url_regex is not None:
            try:
                re.compile(url_regex)
            except re.error as exc:
                raise ArgumentError(
                    "url_regex is not a valid regular expression.",
                    problems=[FieldProblem("url_regex", "a regular expression", f"one that fails: {exc}")],
                ) from exc
        self.config.breakpoints_made += 1
        spec = BreakpointSpec(f"bp{self.config.breakpoints_made}", url, url_regex, line, column, condition)
        breakpoint_ = await self._set_live(spec)
        self.config.breakpoints[spec.id] = spec
        return breakpoint_

    async def _set_live(self, spec: BreakpointSpec) -> Breakpoint:
        params: dict[str, Any] = {"lineNumber": spec.line - 1}
        if spec.url is not None:
            params["url"] = spec.url
        else:
            params["urlRegex"] = spec.url_regex
        if spec.column is not None:
            params["columnNumber"] = spec.column - 1
        if spec.condition is not None:
            params["condition"] = spec.condition
        try:
            reply = await self._require_session().send("Debugger.setBreakpointByUrl", params)
        except CdpCommandError as exc:
            if "already exists" not in exc.cdp_message:
                raise
            taken = next((b.spec for b in self._live.values() if _same_place(b.spec, spec)), None)
            raise StateError(
                f"A breakpoint is already set at {spec.where}" + (f" ({taken.id})." if taken else "."),
                suggestion="Remove it with {tool:debugger_remove_breakpoint} first to change its condition.",
            ) from exc
        live = Breakpoint(spec, str(reply["breakpointId"]), [self._location(loc) for loc in reply.get("locations", [])])
        self._live[spec.id] = live
        return live

    async def remove_breakpoint(self, breakpoint_id: str) -> BreakpointSpec:
        self.require_enabled()
        live = self._live.get(breakpoint_id)
        if live is None:
            known = ", ".join(self._live) or "none"
            raise StateError(
                f"No breakpoint {breakpoint_id!r} on this page (breakpoints: {known}).",
                suggestion="List them with {tool:debugger_list_breakpoints}.",
            )
        await self._require_session().send("Debugger.removeBreakpoint", {"breakpointId": live.cdp_id})
        del self._live[breakpoint_id]
        self.config.breakpoints.pop(breakpoint_id, None)
        return live.spec

    def script_urls(self) -> list[str]:
        """The distinct URLs of the scripts the page has loaded, in load order."""
        return list(dict.fromkeys(info.url for info in self._scripts.values() if info.url))

    def breakpoints(self) -> list[Breakpoint]:
        self.require_enabled()
        return list(self._live.values())

    # --- execution --------------------------------------------------------------------

    def require_enabled(self) -> None:
        if not self.config.enabled:
            raise DebuggerDisabledError("The debugger is not enabled on this page.")

    def require_paused(self) -> Pause:
        self.require_enabled()
        if self.paused is None:
            raise StateError(
                "Execution is not paused.",
                suggestion="Pause it: set a breakpoint with {tool:debugger_set_breakpoint} and trigger it "
                "(e.g. {tool:click_element}), or call {tool:debugger_pause} while a script runs.",
            )
        return self.paused

    def raise_if_paused(self) -> None:
        """For work that needs the page running (input, waiting on the page)."""
        if self.paused is not None:
            raise ExecutionPausedError(self.paused, self.location(self.paused.top).label)

    def pause_blocking(self, since: int) -> ExecutionPausedError | None:
        """The error for a pause that began after pause number `since`, if one did."""
        pause = self.paused
        if pause is None or pause.number <= since:
            return None
        return ExecutionPausedError(pause, self.location(pause.top).label)

    async def wait_pause(self, since: int) -> Pause:
        """The first pause numbered after `since` (at once if it already happened). Fails with
        the session: a browser that dies while we wait for a pause must not leave us waiting."""
        with self._require_session().listen("Debugger.paused") as pauses:
            while self.paused is None or self.paused.number <= since:
                await pauses.next()  # `_on_paused` has recorded the pause by the time this wakes
        return self.paused

    async def pause(self, timeout_ms: int) -> Pause | None:
        """Ask to pause. A running script stops at once; an idle page stops at the next
        statement it runs. None when nothing ran within `timeout_ms` (the request stands)."""
        self.require_enabled()
        if self.paused is not None:
            raise StateError(
                f"Execution is already paused at {self.location(self.paused.top).label}.",
                suggestion="Resume with {tool:debugger_resume}, or step with {tool:debugger_step_over}.",
            )
        self._pause_requested = True
        before = self.pause_count
        await self._require_session().send("Debugger.pause")
        try:
            async with asyncio.timeout(timeout_ms / 1000):
                return await self.wait_pause(before)
        except TimeoutError:
            return None

    async def resume(self, timeout_ms: int) -> RunOutcome:
        """Resume; reports the next pause if execution stops again before its task ends."""
        self.require_paused()
        return await self._go_on("Debugger.resume", timeout_ms, stepping=False)

    async def step(self, kind: StepKind, timeout_ms: int) -> RunOutcome:
        self.require_paused()
        return await self._go_on(STEP_COMMANDS[kind], timeout_ms, stepping=True)

    async def _go_on(self, command: str, timeout_ms: int, *, stepping: bool) -> RunOutcome:
        session = self._require_session()
        before = self.pause_count
        self._stepping = stepping
        try:
            await session.send(command)
        except CdpCommandError as exc:
            if "while paused" not in exc.cdp_message:
                raise
            self._resumed()  # it resumed without telling us (the page went away)
            self.require_paused()
        self._resumed_from(before)
        probe = asyncio.ensure_future(session.send("Runtime.evaluate", PROBE, timeout_s=timeout_ms / 1000 + 1))
        paused = asyncio.ensure_future(self.wait_pause(before))
        try:
            await asyncio.wait({probe, paused}, timeout=timeout_ms / 1000, return_when=asyncio.FIRST_COMPLETED)
        finally:
            paused.cancel()
            probe.add_done_callback(_consume)
        if self.paused is not None and self.pause_count > before:
            if self.location(self.paused.top).url != PROBE_URL:
                return RunOutcome(self.paused, busy=False)
            # Stepping off the last frame stops at the next statement run anywhere: our probe.
            probe_pause = self.pause_count
            await session.send("Debugger.resume")
            self._resumed_from(probe_pause)
            return RunOutcome(None, busy=False)
        return RunOutcome(None, busy=not probe.done())

    # --- frames -----------------------------------------------------------------------

    def frame(self, reference: int | str) -> tuple[int, dict[str, Any]]:
        """A frame of the current pause by index (0 = top) or CDP call frame id."""
        pause = self.require_paused()
        frames = pause.call_frames
        if isinstance(reference, int) or (isinstance(reference, str) and reference.isdigit()):
            index = int(reference)
            if 0 <= index < len(frames):
                return index, frames[index]
            raise StateError(
                f"There is no frame {index}: the stack has {len(frames)} frames (0 to {len(frames) - 1}).",
                suggestion="See the frames with {tool:debugger_get_call_stack}.",
            )
        for index, frame in enumerate(frames):
            if frame["callFrameId"] == reference:
                return index, frame
        raise StateError(
            "No frame of the current pause has that call frame id (ids change with every pause).",
            suggestion="Use a frame index (0 = top) or an id from {tool:debugger_get_call_stack}.",
        )

    async def evaluate_on_frame(self, reference: int | str, expression: str, timeout_ms: int) -> str:
        """A compact preview of `expression` evaluated in the frame's scope."""
        _, frame = self.frame(reference)
        params = {
            "callFrameId": frame["callFrameId"],
            "expression": expression,
            "generatePreview": True,
            "timeout": timeout_ms,
        }
        try:
            reply = await self._require_session().send(
                "Debugger.evaluateOnCallFrame", params, timeout_s=timeout_ms / 1000 + 1
            )
        except CdpTimeoutError as exc:
            raise CdpTimeoutError(f"The expression did not finish within {timeout_ms} ms.") from exc
        details = reply.get("exceptionDetails")
        if details is not None:
            exception = details.get("exception") or {}
            text = str(exception.get("description") or details.get("text") or "unknown error").splitlines()[0]
            raise ExecutionError(
                f"The expression threw: {text}",
                suggestion="Fix the expression; it sees the frame's variables as they are now.",
            )
        return preview_value(reply["result"], max_chars=1000)

    def location(self, frame: dict[str, Any]) -> Location:
        return self._location(frame["location"], str(frame.get("url") or ""))

    def _location(self, location: dict[str, Any], url: str = "") -> Location:
        script = self._scripts.get(str(location["scriptId"]))
        return Location.from_cdp(location, url or (script.url if script else ""))

    async def source_line(self, location: Location) -> str:
        """The source text at `location`'s line (a window around its column when the line is long)."""
        lines = await self._source(location.script_id)
        script = self._scripts.get(location.script_id)
        index = location.line - 1 - (script.start_line if script else 0)
        if not 0 <= index < len(lines):
            return ""
        line = lines[index].rstrip()
        if len(line) <= SOURCE_WINDOW_CHARS:
            return line.strip()
        column = location.column - 1 - (script.start_column if script and index == 0 else 0)
        start = max(0, column - SOURCE_WINDOW_CHARS // 2)
        window = line[start : start + SOURCE_WINDOW_CHARS]
        return ("…" if start else "") + window + ("…" if start + SOURCE_WINDOW_CHARS < len(line) else "")

    async def _source(self, script_id: str) -> list[str]:
        if script_id in self._sources:
            self._sources.move_to_end(script_id)
            return self._sources[script_id]
        try:
            reply = await self._require_session().send("Debugger.getScriptSource", {"scriptId": script_id})
        except CdpCommandError:
            return []  # a script of a page that is gone
        lines = str(reply.get("scriptSource", "")).splitlines()
        self._sources[script_id] = lines
        if len(self._sources) > MAX_CACHED_SOURCES:
            self._sources.popitem(last=False)
        return lines

    async def scope_variables(self, scope: dict[str, Any], limit: int) -> tuple[list[tuple[str, str]], int]:
        """Up to `limit` (name, preview) pairs of a scope object, and how many it has in all."""
        object_id = (scope.get("object") or {}).get("objectId")
        if object_id is None:
            return [], 0
        reply = await self._require_session().send(
            "Runtime.getProperties", {"objectId": object_id, "ownProperties": True, "generatePreview": True}
        )
        props = [p for p in reply.get("result", []) if "value" in p or not ("get" in p or "set" in p)]
        return [(str(p["name"]), _variable_value(p)) for p in props[:limit]], len(props)

    async def frame_locals(self, frame: dict[str, Any], limit: int) -> list[tuple[str, str]]:
        """The frame's own variables (block and function scopes, innermost first), up to `limit`."""
        found: list[tuple[str, str]] = []
        seen: set[str] = set()
        for scope in frame.get("scopeChain", []):
            if scope.get("type") not in LOCALS_SCOPES:
                break
            variables, _ = await self.scope_variables(scope, limit)
            for name, value in variables:
                if name not in seen and len(found) < limit:
                    seen.add(name)
                    found.append((name, value))
        return found

    def remembered_locals(self, key: tuple[str, int]) -> dict[str, str] | None:
        """The variables last reported for frame `key` (function, stack depth), if any were."""
        return self._seen_locals.get(key)

    def remember_locals(self, key: tuple[str, int], variables: dict[str, str]) -> None:
        self._seen_locals[key] = variables
        self._seen_locals.move_to_end(key)
        if len(self._seen_locals) > MAX_REMEMBERED_FRAMES:
            self._seen_locals.popitem(last=False)

    # --- events -----------------------------------------------------------------------

    def _on_paused(self, event: CdpEvent) -> None:
        params = event.params
        self.pause_count += 1
        data = params.get("data") or {}
        reason = str(params.get("reason", "other"))
        hit = [bp.spec.id for bp in self._live.values() if bp.cdp_id in (params.get("hitBreakpoints") or [])]
        exception: str | None = None
        if reason in ("exception", "promiseRejection"):
            exception = str(data.get("description") or data.get("value") or "").splitlines()[0] if data else None
            kind = "uncaught " if data.get("uncaught") else ""
            label = f"{kind}{'exception' if reason == 'exception' else 'promise rejection'}"
        elif hit:
            label = "breakpoint " + ", ".join(hit)
        elif self._stepping:
            label = "step"
        elif self._pause_requested:
            label = "pause requested"
        elif reason == "other":
            label = "debugger statement"
        else:
            label = reason
        self.paused = Pause(self.pause_count, label, exception, list(params.get("callFrames") or []), self._stepping)
        self._stepping = self._pause_requested = False

    def _resumed(self) -> None:
        self.paused = None

    def _resumed_from(self, number: int) -> None:
        """A resume command was answered: pause `number` is over. ``Debugger.resumed`` may come
        after the answer, and the next ``Debugger.paused`` before it, so only that pause is cleared."""
        if self.paused is not None and self.paused.number == number:
            self.paused = None

    def _on_contexts_cleared(self, _: CdpEvent) -> None:
        """The page navigated: its scripts are gone, and so is a pause in them (no resumed event)."""
        self._scripts.clear()
        self._sources.clear()
        self._resumed()

    def _on_script_parsed(self, event: CdpEvent) -> None:
        params = event.params
        self._scripts[str(params["scriptId"])] = ScriptInfo(
            str(params.get("url") or ""), int(params.get("startLine", 0)), int(params.get("startColumn", 0))
        )

    def _on_breakpoint_resolved(self, event: CdpEvent) -> None:
        cdp_id = event.params.get("breakpointId")
        for live in self._live.values():
            if live.cdp_id == cdp_id:
                live.resolved.append(self._location(event.params["location"]))

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session


def _variable_value(prop: dict[str, Any]) -> str:
    """A scope variable's preview; a `let`/`const` not reached yet has no value (its TDZ)."""
    return preview_value(prop["value"], max_chars=80) if "value" in prop else "(uninitialized)"


def _same_place(a: BreakpointSpec, b: BreakpointSpec) -> bool:
    return (a.url, a.url_regex, a.line, a.column) == (b.url, b.url_regex, b.line, b.column)


def _consume(task: asyncio.Future[Any]) -> None:
    """A probe whose answer nobody waits for any more: read its outcome so none is reported lost."""
    if not task.cancelled():
        task.exception()
