"""What the debugger knows, as plain data: places in scripts, call frames, pauses,
breakpoints, and the snapshots of a pause that answers show.

The modules that learn these speak CDP; these facts do not, so the answer renderers can
import them without loading the protocol client. Lines and columns are 1-based, like an
editor's (CDP's are 0-based and are converted where the events are read). The browser's own
ids (a call frame's, a scope object's, a breakpoint's) stay inside the facts that need them
for the next command, as plain strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from cdpilot.errors import ExecutionPausedError

if TYPE_CHECKING:  # field types only
    from cdpilot.browser.observe.console_facts import ConsoleEntry
    from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace

ExceptionState = Literal["none", "uncaught", "all"]
RunCommand = Literal["resume", "over", "into", "out"]  # how execution was let go on: resume or a step
StepKind = Literal["over", "into", "out"]
GLOBAL_SCOPES = ("global", "script")  # they hold the whole page: summarised, never listed
# Where a dev server serves third-party scripts: node_modules/, Vite's dependency cache and its
# own runtime modules (/@vite/client, /@react-refresh, /@id/<package>).
LIBRARY_PATHS = ("/node_modules/", "/.vite/deps/", "/@vite/", "/@react-refresh", "/@id/")


@dataclass(frozen=True)
class Location:
    """A place in a script, as the browser runs it, and, when a source map covers it, the
    place in the author's source it came from. The generated place always stays: the
    browser's ids and commands speak of it."""

    script_id: str
    url: str  # "" for a script without one (an evaluated expression)
    line: int
    column: int
    original: OriginalPlace | None = None

    @property
    def generated_label(self) -> str:
        return f"{self.url or '(anonymous script)'}:{self.line}:{self.column}"

    @property
    def label(self) -> str:
        """The original place with the generated one beside it, or the generated place alone."""
        if self.original is None:
            return self.generated_label
        return (
            f"{self.original.label} ({compiled_label(self.url, short_script_name(self.url))}:{self.line}:{self.column})"
        )

    @property
    def library(self) -> bool:
        """Third-party code: a source its map ignore-lists or keeps under node_modules/, or, where
        no map says, a script served from node_modules/ or Vite's dependency cache (.vite/deps/)."""
        if self.original is not None:
            return self.original.library
        return is_library_url(self.url)


@dataclass(frozen=True)
class Scope:
    """One scope of a frame's chain, innermost first: block, local, closure, …, global."""

    kind: str  # as the browser names it: block | local | closure | catch | with | script | global | …
    name: str  # the function a local or closure scope belongs to; "" when it has none
    object_id: str | None  # the browser's handle on the scope's variables
    description: str  # what holds the variables, e.g. "Window" for the global scope
    start: Location | None = None  # the generated code it spans, when the browser says (not global ones)
    end: Location | None = None
    original_name: str | None = None  # the function's name in the original source, when a map renames it

    @property
    def is_global(self) -> bool:
        return self.kind in GLOBAL_SCOPES


@dataclass(frozen=True)
class Frame:
    """One call frame of a pause; frame 0 is where execution stopped."""

    index: int
    function_name: str  # "" for an anonymous function
    location: Location
    function_location: Location | None  # where the function starts, when the browser says
    call_frame_id: str  # the browser's id, for evaluating in this frame; changes with every pause
    scopes: tuple[Scope, ...]
    original_name: str | None = None  # the function's name in the original source, when a map renames it
    return_value: str | None = None  # previewed, when stopped at the function's return (after its last statement)

    @property
    def name(self) -> str:
        return self.function_name or "(anonymous)"


@dataclass(frozen=True)
class AsyncFrame:
    """A frame of an async stack: where code was when it scheduled what runs now. It has
    no call frame id and no scopes, since that call has long returned."""

    function_name: str  # "" for an anonymous function
    location: Location
    original_name: str | None = None  # the function's name in the original source, when a map renames it

    @property
    def name(self) -> str:
        """As the answers show it: its original name where a map renames it (an async frame
        shows no generated side)."""
        return self.original_name or self.function_name or "(anonymous)"


@dataclass(frozen=True)
class AsyncSegment:
    """The stack behind one async boundary (an ``await``, a timer, a promise reaction),
    innermost first, as the browser recorded it when that work was scheduled."""

    description: str  # the boundary, as the browser names it: await | setTimeout | Promise.then | …
    frames: tuple[AsyncFrame, ...]


@dataclass(frozen=True)
class Pause:
    """One stop of execution, as ``Debugger.paused`` reported it."""

    number: int  # counts pauses on this page; a new pause has a higher number
    reason: str  # breakpoint bp1 | step | exception | promise rejection | debugger statement | pause requested | …
    exception: str | None  # the thrown value's first line, for exception pauses
    frames: tuple[Frame, ...]  # never empty: the browser pauses in a frame
    after_step: bool
    async_segments: tuple[AsyncSegment, ...] = ()  # what led here across async boundaries, newest first
    async_cut: bool = False  # the chain goes on beyond what the browser sent (its depth, another target)
    thrown: tuple[AsyncFrame, ...] = ()  # for exception pauses: where the thrown Error was made (its own stack)

    @property
    def top(self) -> Frame:
        return self.frames[0]


def thrown_text(pause: Pause) -> str:
    """``: TypeError: x is undefined``: what a pause on an exception stopped for, which every
    answer given while it lasts names."""
    return f": {pause.exception}" if pause.exception else ""


def pause_of(error: ExecutionPausedError) -> Pause:
    """The pause an `ExecutionPausedError` tells of, typed (errors.py, a leaf, knows it by a protocol)."""
    pause = error.pause
    assert isinstance(pause, Pause), pause
    return pause


@dataclass(frozen=True)
class FrameExpression:
    """An expression as the agent wrote it, and as the paused frame evaluates it."""

    written: str
    evaluated: str
    renamed: tuple[tuple[str, str], ...] = ()  # (original name, generated name), in order of first use


@dataclass(frozen=True)
class BreakpointSpec:
    """What the user asked for; re-applied as it is on every attach of its target."""

    id: str  # ours: bp1, bp2, …
    url: str | None
    url_regex: str | None
    line: int
    column: int | None
    condition: str | None
    log_message: str | None = None  # a logpoint: logs this instead of pausing
    hit_count: int | None = None  # pauses on this hit only, counted since the page loaded

    @property
    def where(self) -> str:
        place = self.url if self.url is not None else f"/{self.url_regex}/"
        return f"{place}:{self.line}" + (f":{self.column}" if self.column is not None else "")


@dataclass(frozen=True)
class BoundText:
    """The text of an original file a breakpoint was last bound in, and its line in that text:
    an edit of the file is measured against it (`breakpoints.LiveBreakpoints._followed`)."""

    line: int
    text: str


# (target id, breakpoint id, original file's URL) → where it was last bound. One per connection:
# a page's targets, or every process and worker of a Node.js program (none has a target id), so
# that a program its watcher restarted still knows the text its breakpoints were bound in.
BoundTexts = dict[tuple[str, str, str], BoundText]


TriggerKind = Literal["xhr", "event", "dom"]
DomChange = Literal["subtree_modified", "attribute_modified", "node_removed"]


@dataclass(frozen=True)
class TriggerSpec:
    """A breakpoint on something the page does rather than on a line: a request sent (xhr),
    a listener or timer run (event), an element changed (dom)."""

    id: str  # ours, numbered with the line breakpoints: bp1, bp2, …
    kind: TriggerKind
    value: str  # the URL text, the event name, or the selector
    dom_change: DomChange | None = None

    @property
    def where(self) -> str:
        if self.kind == "xhr":
            return f'requests whose URL contains "{self.value}"'
        if self.kind == "event":
            return f"event {self.value}"
        change = (self.dom_change or "").replace("_", " ")
        return f"{change} of {self.value}"


@dataclass(frozen=True)
class Trigger:
    """A trigger breakpoint live in the current page session."""

    spec: TriggerSpec
    bound: bool  # False: a DOM breakpoint whose selector matched nothing (it binds on none later)


BindKind = Literal["url", "regex", "suffix", "original"]


@dataclass(frozen=True)
class Breakpoint:
    """A breakpoint live in the current page session, and where the browser bound it.

    How it binds (`kind`): ``url`` by a full script URL, ``regex`` by url_regex, ``suffix`` by
    the end of a script URL (app.js, dist/app.js), ``original`` in original sources through
    their source maps, at every generated place of the line, in every bundle that has it."""

    spec: BreakpointSpec
    cdp_ids: tuple[str, ...]
    kind: BindKind
    resolved: tuple[Location, ...] = ()  # one per bound place; grows as matching scripts load
    sources: tuple[str, ...] = ()  # original: the files it binds in; suffix: the scripts it matches
    notes: tuple[str, ...] = ()  # e.g. no code on the asked line, the next one used
    failure: str | None = None  # what its condition or message last threw (it then counts as false)


@dataclass
class DebugConfig:
    """The debugger settings of one target, kept while we are attached elsewhere."""

    enabled: bool = False
    skip_all_pauses: bool = False
    pause_on_exceptions: ExceptionState = "none"
    breakpoints: dict[str, BreakpointSpec] = field(default_factory=dict)
    triggers: dict[str, TriggerSpec] = field(default_factory=dict)
    breakpoints_made: int = 0  # numbers the ids: bp1, bp2, … per target, from 1 again after a disable


@dataclass(frozen=True)
class ScriptInfo:
    url: str
    start_line: int  # 0-based, in the document that holds the script (an inline script's offset)
    start_column: int
    source_map_url: str = ""  # as the script or its SourceMap header names it; "" when it has none


def short_script_name(url: str) -> str:
    """A script's URL without its origin and query, for places shown beside an original one:
    ``http://127.0.0.1:8000/dist/app.js?v=3`` → ``dist/app.js``."""
    without_query = url.split("?", 1)[0].split("#", 1)[0]
    if without_query.startswith("file://"):
        return without_query.removeprefix("file://")  # a file of this machine: its path, as it is
    if "://" in without_query:
        without_query = without_query.split("://", 1)[1].partition("/")[2]
    return without_query or url or "(anonymous script)"


def is_library_url(url: str) -> bool:
    """Whether a script is third-party by where it is served from (`LIBRARY_PATHS`), or Node.js's
    own (``node:internal/…``)."""
    path = url.split("?", 1)[0]
    return url.startswith("node:") or any(part in path for part in LIBRARY_PATHS)


COMPILED_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".jsx", ".vue", ".svelte")


def compiled_label(url: str, name: str) -> str:
    """`name` (of the script at `url`) as the generated side of a mapped place. A dev server
    serves a module compiled at its source's own path (Vite's ``/src/cart.ts``, webpack's
    ``webpack-internal:///./src/cart.ts``): such a script is called compiled, or its generated
    place would read like the original one."""
    compiled = url.startswith("webpack-internal:") or short_script_name(url).endswith(COMPILED_SUFFIXES)
    return f"compiled {name}" if compiled else name


@dataclass(frozen=True)
class RunOutcome:
    """Where execution got to after resume or a step: a new pause, or running on."""

    pause: Pause | None
    busy: bool  # not paused, and its task had not finished when the wait ended (a long loop?)
    stepped_through: tuple[str, ...] = ()  # library files a step went through without stopping


@dataclass(frozen=True)
class DisableOutcome:
    breakpoints_removed: int
    resumed: bool  # the page was paused, and runs on now


@dataclass(frozen=True)
class Variable:
    """A variable as an answer shows it: its name and a compact preview of its value."""

    name: str  # as the code runs: what an expression evaluated in the frame uses
    value: str  # "(uninitialized)" for a `let`/`const` not reached yet
    changed: bool = False  # a step changed it (same function at the same depth as last reported)
    original_name: str | None = None  # its name in the original source, when a map renames it


@dataclass(frozen=True)
class ThrownAt:
    """The frame of the user's code that made the thrown Error, when a pause on it stopped in
    library code (a framework that caught it and threw it again): from the Error's own stack."""

    frame: AsyncFrame  # in original coordinates where a map covers it
    source_line: str  # "" when the text cannot be had


@dataclass(frozen=True)
class PauseSnapshot:
    """A pause with what an agent needs to decide its next step, read when it was reported."""

    pause: Pause
    source_line: str  # the text at the pause's line; "" when the script's source is gone
    full: bool  # include the frames, the top frame's variables and the console (else the short form)
    locals: tuple[Variable, ...]  # the top frame's own variables
    console: tuple[ConsoleEntry, ...]  # logged since the action that led here; empty when not asked
    map_failure: str | None = None  # why the paused script's source map could not be used (said once)
    thrown_at: ThrownAt | None = None  # a pause on an exception in library code: the user's frame that threw
    source_missing: str | None = None  # why the original file's text could not be had (said once per file)
    owner: str | None = None  # which process or thread paused, for a target of several (a Node.js program)


@dataclass(frozen=True)
class ScopeVariables:
    scope: Scope
    variables: tuple[Variable, ...]  # up to the asked limit; none read for a global scope
    total: int  # how many the scope has in all


@dataclass(frozen=True)
class FrameDetail:
    frame: Frame
    source_line: str
    scopes: tuple[ScopeVariables, ...]


@dataclass(frozen=True)
class CallStack:
    """The frames of a pause (up to a limit) with their source lines and scope variables."""

    pause: Pause
    frames: tuple[FrameDetail, ...]  # the frames shown (library ones below the top are left out, folded)
    thrown_at: ThrownAt | None = None  # a pause on an exception in library code: the user's frame that threw
