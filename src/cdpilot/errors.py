"""The whole error tree of cdpilot, and the one place that turns an exception into an answer.

Every failure a client can see is one of six types (`ErrorType`)::

    CdpilotError                      (abstract: carries ErrorInfo)
    ├── BrowserConnectionError        CONNECTION  no browser, browser gone, dead port
    ├── DebuggerDisabledError         DEBUGGER    the debugger is not enabled
    ├── StateError                    STATE       not paused / already paused / not found / dialog open
    │   ├── DialogOpenError                       a dialog keeps the page from answering
    │   ├── ExecutionPausedError                  the page is paused in the debugger
    │   │   └── PausedPageError                   … and was when the call began
    │   └── NoPageError                           the target has no page (a Node.js process, a worker)
    ├── ArgumentError                 VALIDATION  arguments off-schema, or a value refused
    ├── ExecutionError                EXECUTION   the browser failed the operation
    │   ├── CdpCommandError                       a CDP command answered with an error
    │   ├── CdpTimeoutError                       a CDP command or a wait ran out of time
    │   ├── SourceMapError                        a source map that cannot be used
    │   └── RateLimitedError                      too many calls of one tool
    └── (anything else)               UNKNOWN     a bug: never raised on purpose

This module imports nothing of cdpilot: an error that tells of a fact (a dialog, a pause)
names the few fields its message reads in a protocol of its own here, and the facts modules
give the fact back typed (`page_facts.dialog_of`, `debugger_facts.pause_of`).

Lower layers raise these classes; websockets and CDP failures are translated into them in
`cdp/` with ``raise ... from exc``. Only the MCP boundary (`registry.py`) catches,
classifies (`classify`), logs (`ErrorLog`) and formats the error result.

Messages, suggestions and every answer may name tools with ``{tool:<granular_tool_name>}``;
the registry renders each reference, on its success and its error path alike, in the syntax of
the active mode (``chrome(action="launch")`` in smart mode, ``chrome_launch()`` in legacy mode),
so the layers below never need to know the mode. Parameters are named the same way:
``{param:<name>}`` of the tool that was called, ``{param:<granular_tool>.<name>}`` of another.
A smart tool does not take every parameter of the granular tools it serves, so a sentence that
names one the active mode's tool does not take is left out (`render_parameter_references`):
write such advice as a sentence of its own, after the advice that holds in every mode.
"""

from __future__ import annotations

import enum
import re
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol, TextIO


class ErrorType(enum.StrEnum):
    """The six types a client sees, each with what it means and whether a retry can help;
    the docs site's error table is made from these members."""

    meaning: str
    recoverable: str  # "yes", "no" or "case by case"

    def __new__(cls, value: str, meaning: str, recoverable: str) -> ErrorType:
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        member.recoverable = recoverable
        return member

    CONNECTION = "CONNECTION", "no browser, browser gone, dead port", "yes"
    DEBUGGER = "DEBUGGER", "the debugger is not enabled", "yes"
    STATE = (
        "STATE",
        "wrong state: not paused, already paused, element not found or not visible, dialog open",
        "yes",
    )
    VALIDATION = (
        "VALIDATION",
        "arguments do not match the schema, or a value is refused (URL scheme, path, size)",
        "yes",
    )
    EXECUTION = "EXECUTION", "the operation failed in the browser (JS exception, CDP error, timeout)", "case by case"
    UNKNOWN = "UNKNOWN", "anything else (a bug)", "no"


@dataclass(frozen=True)
class FieldProblem:
    """One offending argument: where it is, what was expected, what was given (type only)."""

    field: str
    expected: str
    given: str

    def render(self) -> str:
        return f"{self.field}: expected {self.expected}, got {self.given}"


class ConfigError(Exception):
    """A setting that cannot be honoured; the message names its source and what is allowed. It
    stops start-up before any layer runs, so it is no tool error."""


class InvalidParamsError(Exception):
    """A request refused with JSON-RPC ``-32602`` (Invalid params), not answered with a tool
    result: a tools/call naming no tool this server serves, a resources/read of no file of the
    session. The fast path writes it as it is; the SDK's side raises it as its own ``MCPError``."""

    code = -32602

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CdpilotError(Exception):
    """Base of every deliberate failure; subclasses fix the type and the default suggestion."""

    error_type: ClassVar[ErrorType]
    recoverable: ClassVar[bool] = True
    default_suggestion: ClassVar[str] = ""

    def __init__(self, message: str, *, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.suggestion = self.default_suggestion if suggestion is None else suggestion


class BrowserConnectionError(CdpilotError):
    error_type = ErrorType.CONNECTION
    default_suggestion = "Launch a browser with {tool:chrome_launch} or attach to one with {tool:chrome_connect}."


class DebuggerDisabledError(CdpilotError):
    error_type = ErrorType.DEBUGGER
    default_suggestion = "Enable the debugger first with {tool:debugger_enable}."


class StateError(CdpilotError):
    error_type = ErrorType.STATE


class ArgumentError(CdpilotError):
    """VALIDATION: names each offending field, what was expected and what was given."""

    error_type = ErrorType.VALIDATION
    default_suggestion = "Fix the arguments named above and call the tool again."

    def __init__(
        self,
        message: str,
        *,
        problems: Sequence[FieldProblem] = (),
        suggestion: str | None = None,
    ) -> None:
        if problems:
            message = message + "\n" + "\n".join(f"- {p.render()}" for p in problems)
        super().__init__(message, suggestion=suggestion)
        self.problems = tuple(problems)


class ExecutionError(CdpilotError):
    error_type = ErrorType.EXECUTION
    default_suggestion = "Check the page state and try again; the browser reported the failure above."


class CdpCommandError(ExecutionError):
    """A CDP command answered with ``{"error": {...}}``."""

    def __init__(self, method: str, code: int, cdp_message: str, *, suggestion: str | None = None) -> None:
        super().__init__(f"{method} failed: {cdp_message} (CDP error {code})", suggestion=suggestion)
        self.method = method
        self.code = code
        self.cdp_message = cdp_message


class CdpTimeoutError(ExecutionError):
    default_suggestion = "Check that the page is not stuck. A higher {param:timeout_ms} gives it more time."


class SourceMapError(ExecutionError):
    """A source map that cannot be used: unreadable, of another version, or malformed.

    The message names the map and says what is wrong in words a user can act on; the script
    itself still runs and can still be debugged at its generated lines."""

    default_suggestion = (
        "Debug the generated script instead (its own lines and columns), or fix the build that wrote the source map."
    )


class RateLimitedError(ExecutionError):
    """Too many calls of one tool: refused before anything reaches the browser. `limit` is
    said as it prints (``200 calls per 10 s``)."""

    def __init__(self, tool: str, limit: object, retry_after_s: float) -> None:
        super().__init__(
            f"{tool} is over its rate limit ({limit}); the call was not run.",
            suggestion=f"Wait {retry_after_s:.1f} s before calling {tool} again, or slow the loop down "
            "(the operator sets the limit with --rate-limit CALLS/SECONDS; 0 turns it off).",
        )


class OpenDialog(Protocol):
    """What a `DialogOpenError` says of a dialog (`page_facts.DialogInfo` is one)."""

    @property
    def type(self) -> str: ...  # alert | confirm | prompt | beforeunload

    @property
    def preview(self) -> str: ...


class DialogOpenError(StateError):
    """A dialog is open (or opened while waiting), so the page cannot answer until it is handled."""

    def __init__(self, dialog: OpenDialog) -> None:
        if dialog.type == "beforeunload":
            super().__init__(
                "The page asks to confirm leaving (its beforeunload dialog is open).",
                suggestion="Answer it with {tool:handle_dialog}: {param:handle_dialog.accept}=true leaves, "
                "false stays.",
            )
        else:
            article = "An" if dialog.type[:1] in ("a", "e", "i", "o", "u") else "A"
            super().__init__(
                f'{article} {dialog.type} dialog is open: "{dialog.preview}".',
                suggestion="Accept or dismiss it with {tool:handle_dialog}.",
            )
        self.dialog = dialog


class _Place(Protocol):
    @property
    def label(self) -> str: ...


class _StoppedFrame(Protocol):
    @property
    def function_name(self) -> str: ...

    @property
    def original_name(self) -> str | None: ...

    @property
    def location(self) -> _Place: ...


class StoppedExecution(Protocol):
    """What a pause error says of a pause (`debugger_facts.Pause` is one)."""

    @property
    def reason(self) -> str: ...

    @property
    def exception(self) -> str | None: ...

    @property
    def top(self) -> _StoppedFrame: ...


def _thrown(pause: StoppedExecution) -> str:
    return f": {pause.exception}" if pause.exception else ""


class ExecutionPausedError(StateError):
    """The page is paused in the debugger, so what needs it running cannot go on."""

    def __init__(self, pause: StoppedExecution) -> None:
        super().__init__(
            f"Execution is paused ({pause.reason}) at {pause.top.location.label}{_thrown(pause)}.",
            suggestion="Resume with {tool:debugger_resume} or step with {tool:debugger_step_over}; "
            "{tool:debugger_get_call_stack} shows the frames.",
        )
        self.pause = pause


RESUME_FIRST = (
    "Resume with {tool:debugger_resume} first, then retry (or step with {tool:debugger_step_over}); "
    "{tool:debugger_get_call_stack} shows the frames."
)


class PausedPageError(ExecutionPausedError):
    """The page was already paused in the debugger when the call began, and the answer depends on
    it running: where it stopped (the top frame, in the original source when a map says), what
    the pause means for this call, and to resume first."""

    def __init__(self, pause: StoppedExecution, consequence: str = "") -> None:
        top = pause.top
        name = top.original_name or top.function_name
        where = top.location.label + (f" in {name}()" if name else "")
        message = f"Execution is paused ({pause.reason}) at {where}{_thrown(pause)}."
        message += f" {consequence}" if consequence else ""
        StateError.__init__(self, message, suggestion=RESUME_FIRST)
        self.pause = pause


class NoPageError(StateError):
    """The target has no page (a Node.js process, a worker: Runtime and Debugger, no DOM), and
    the call needs one."""

    def __init__(self, node_connection: str | None = None) -> None:
        if node_connection is not None:
            super().__init__(
                f"'{node_connection}' is a Node.js process: it has no page, and this call needs one. What works "
                "there: breakpoints ({tool:debugger_set_breakpoint}), {tool:debugger_pause}, "
                "{tool:debugger_wait_for_pause}, {tool:debugger_step_over}, {tool:debugger_get_call_stack}, "
                "{tool:evaluate_js}, {tool:debugger_list_scripts}, {tool:get_console_logs} and "
                "{tool:debugger_sample_cpu}.",
                suggestion="For a page, switch to a browser connection with {tool:chrome_switch_connection} "
                "(see them with {tool:chrome_list_connections}), or give its {param:connection_id}.",
            )
            return
        super().__init__(
            "This target has no page (it runs JavaScript only, like a Node.js process or a worker); "
            "this call needs one.",
            suggestion="List the targets with {tool:list_targets} and switch to a page with {tool:switch_target}.",
        )


@dataclass(frozen=True)
class ErrorInfo:
    """The classified form of any exception, as the boundary reports it."""

    error_type: ErrorType
    recoverable: bool
    message: str
    suggestion: str


UNKNOWN_SUGGESTION = "This is a bug in cdpilot; please report it with the server's stderr log."


def classify(exc: BaseException) -> ErrorInfo:
    """Map any exception onto the taxonomy; everything undeliberate is UNKNOWN."""
    if isinstance(exc, CdpilotError):
        return ErrorInfo(exc.error_type, exc.recoverable, exc.message, exc.suggestion)
    text = str(exc) or type(exc).__name__
    return ErrorInfo(ErrorType.UNKNOWN, False, f"Internal error: {type(exc).__name__}: {text}", UNKNOWN_SUGGESTION)


_TOOL_REFERENCE = re.compile(r"\{tool:([a-z][a-z0-9_]*)\}")


def render_tool_references(text: str, render_tool: Callable[[str], str]) -> str:
    """Replace every ``{tool:name}`` with the active mode's spelling of that granular tool."""
    return _TOOL_REFERENCE.sub(lambda m: render_tool(m.group(1)), text)


_PARAMETER_REFERENCE = re.compile(r"\{param:(?:([a-z][a-z0-9_]*)\.)?([a-z][a-z0-9_]*)\}")
_SENTENCES = re.compile(r"(?<=[.!?])(\s+)")


def render_parameter_references(text: str, takes: Callable[[str | None, str], bool]) -> str:
    """Replace every ``{param:name}`` (of the tool called: `takes(None, name)`) and
    ``{param:tool.name}`` (of the granular `tool`) with the bare name; a sentence naming one
    that its tool does not take in the active mode is left out, so no advice asks for what
    cannot be given."""
    if "{param:" not in text:
        return text
    pieces = _SENTENCES.split(text)  # sentence, gap, sentence, gap, ..., sentence
    pieces.append("")  # the last sentence's gap
    kept: list[str] = []  # sentence, gap, sentence, gap, ...
    for sentence, gap in zip(pieces[::2], pieces[1::2], strict=True):
        if all(takes(m[1], m[2]) for m in _PARAMETER_REFERENCE.finditer(sentence)):
            kept += [_PARAMETER_REFERENCE.sub(lambda m: m[2], sentence), gap]
        elif kept:  # the gap after a left-out sentence (a line break, say) follows the one before it
            kept[-1] = gap if "\n" in gap or not kept[-1] else kept[-1]
    return "".join(kept).rstrip()


MASKED_MIN_CHARS = 4  # shorter strings carry no secret, and masking them would garble the line


def _masked_values(arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(name, text) of each string argument the log must not show, longest first: top-level
    values and the items one level down (headers, extra_args, texts). ``connection_id`` is
    left out: the log line names the connection by design (``conn=``)."""
    found = []
    for name, value in arguments.items():
        if name == "connection_id":
            continue
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else (value,)
        texts = {item.strip() for item in inner if isinstance(item, str)}
        found += [(name, text) for text in texts if len(text) >= MASKED_MIN_CHARS]
    return sorted(found, key=lambda pair: -len(pair[1]))


def _mask(text: str, values: Sequence[tuple[str, str]]) -> str:
    for name, value in values:
        text = text.replace(value, f"<{name}>")
    return text


@dataclass
class ErrorLog:
    """Writes each error once to stderr, never with argument values::

        <ISO time> [ERROR:<TYPE>] tool=<name> conn=<id> recoverable=<bool> <message>
          Suggestion: <text>

    Messages may quote what the client sent (a refused host, a missing executable, a bad
    selector), which the client should see; the log instead shows ``<host>`` where the
    call's ``arguments`` put a value, traceback included."""

    stream: TextIO = field(default_factory=lambda: sys.stderr)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))

    def write(
        self,
        info: ErrorInfo,
        *,
        tool: str,
        connection_id: str | None,
        exc: BaseException | None = None,
        arguments: Mapping[str, Any] | None = None,
    ) -> None:
        """One line (plus the suggestion); an UNKNOWN error also gets its traceback, it is a bug."""
        hidden = _masked_values(arguments or {})
        stamp = self.clock().isoformat(timespec="milliseconds").replace("+00:00", "Z")
        first_line = info.message.splitlines()[0] if info.message else ""
        line = (
            f"{stamp} [ERROR:{info.error_type}] tool={tool} conn={connection_id or '-'} "
            f"recoverable={str(info.recoverable).lower()} {_mask(first_line, hidden)}"
        )
        if info.suggestion:
            line += f"\n  Suggestion: {_mask(info.suggestion, hidden)}"
        self.stream.write(line + "\n")
        if info.error_type is ErrorType.UNKNOWN and exc is not None:
            self.stream.write(_mask("".join(traceback.format_exception(exc)), hidden))
        self.stream.flush()
