"""Console messages of the current page, collected from the moment it is attached.

Three sources feed one log: ``Runtime.consoleAPICalled`` (console.log and friends),
``Runtime.exceptionThrown`` (uncaught errors) and ``Log.entryAdded`` (what the browser
itself reports: failed loads, interventions), from the page's session and from those of its
out-of-process frames and workers (`ChildTargets`). Messages cannot be fetched after the fact,
so `BrowserConnection` attaches this log to every page session it makes current.

The entries are held in a `ConsoleBuffer`: errors and warnings apart from log/info/debug,
each bounded, read back merged in arrival order, with what the bounds pushed out counted.
A main-frame navigation starts a new page generation. Entries, stacks and reads of the log
are plain facts (`console_facts`), rendered in `cdpilot.answers.console_answers`.

``Runtime.enable`` and ``Log.enable`` replay what the page logged before they ran, before
they answer. A page seen before (switched away from and back) would replay messages this
log already holds, so replayed messages at or before the newest one seen from that
target are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import deque
from typing import Any

from cdpilot.browser.observe.console_buffer import MAX_ENTRIES, ConsoleBuffer
from cdpilot.browser.observe.console_facts import ConsoleEntry, ConsoleView, StackFrame
from cdpilot.browser.remote_values import render_remote
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.cdp.events import EventHandler
from cdpilot.errors import CdpCommandError
from cdpilot.text import clip

MAX_TEXT_CHARS = 500
API_TEXTS_KEPT = 200
STACK_FRAMES = 5
LEVELS = {"warning": "warning", "error": "error", "assert": "error", "info": "info", "debug": "debug"}
LOG_LEVELS = {"verbose": "debug", "info": "info", "warning": "warning", "error": "error"}
SKIPPED_TYPES = {"endGroup", "clear"}  # carry no message of their own
_FORMAT = re.compile(r"%[sdifoOc%]")


class ConsoleLog:
    """The console of one connection's current page, and of the pages before it (bounded)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._buffer = ConsoleBuffer(max_entries)
        self.generation = 0
        self.page_urls: dict[int, str] = {}  # generation -> URL, for generations that navigated
        self._target_id: str | None = None
        self._seen_until: dict[tuple[str | None, str], float] = {}  # (target, domain) -> newest timestamp
        self._replaying: set[str] = set()  # domains whose enable has not answered yet
        self._subscriptions = Subscriptions()
        self._api_texts: deque[str] = deque(maxlen=API_TEXTS_KEPT)  # console.* texts a stream may repeat

    async def attach(self, session: CdpSession) -> None:
        """Start collecting on a page session (called for every page made current)."""
        if self._target_id is not None and session.target_id != self._target_id:
            self.generation += 1
        self._target_id = session.target_id
        self._replaying = {"runtime", "log"}
        self._subscriptions.replace(
            session, {**self._entry_handlers(), "Page.frameNavigated": self._on_frame_navigated}
        )
        await asyncio.gather(
            self._enable(session, "Runtime.enable", "runtime"), self._enable(session, "Log.enable", "log")
        )

    def record_output(self, stream: str, line: str) -> None:
        """A line a program we run wrote to stdout or stderr (a Node.js program's console), or
        the note of its end (`stream` "exit"). Logged at the level its stream suggests: stderr
        is where Node.js writes warnings and errors. A line that a ``console.*`` call of the
        program wrote is logged once, as that call (with its place): Node.js reports the call
        to the inspector and writes it to the stream too (the caller waits a moment, so that
        the call's report comes first)."""
        if line in self._api_texts:
            self._api_texts.remove(line)
            return
        level = {"stdout": "log", "stderr": "error", "exit": "warning"}.get(stream, "log")
        self._record("output", None, level, f"[{stream}] {line}")

    async def attach_child(self, child: CdpSession) -> None:
        """Also collect from an out-of-process frame or worker of the current page
        (`ChildTargets`); it is held before its first script, so it has nothing to replay."""
        self._subscriptions.add(child, self._entry_handlers())
        await asyncio.gather(child.send("Runtime.enable"), _enable_log(child))

    def _entry_handlers(self) -> dict[str, EventHandler]:
        return {
            "Runtime.consoleAPICalled": self._on_console_api,
            "Runtime.exceptionThrown": self._on_exception,
            "Log.entryAdded": self._on_log_entry,
        }

    async def _enable(self, session: CdpSession, method: str, domain: str) -> None:
        if domain == "log":
            await _enable_log(session)
        else:
            await session.send(method)
        self._replaying.discard(domain)

    def mark(self) -> int:
        """A position in the log; `since(mark)` returns what was logged after it."""
        return self._buffer.mark()

    def since(self, mark: int) -> list[ConsoleEntry]:
        """Entries logged after `mark`, each counting only its repeats after the mark."""
        return self._buffer.since(mark)

    def entries(self, *, include_previous_pages: bool = False) -> list[ConsoleEntry]:
        held = self._buffer.entries()
        return held if include_previous_pages else [e for e in held if e.page_generation == self.generation]

    def read(self, *, include_previous_pages: bool, level: str | None) -> ConsoleView:
        """The entries of the current page (or of every page held) at `level` (None: any),
        with the counts of those of that scope the bounds pushed out."""
        held = self._buffer.entries()
        current = [entry for entry in held if entry.page_generation == self.generation]
        in_scope = held if include_previous_pages else current
        return ConsoleView(
            entries=tuple(entry for entry in in_scope if level is None or entry.level == level),
            level=level,
            include_previous_pages=include_previous_pages,
            generation=self.generation,
            page_urls=dict(self.page_urls),
            earlier_pages=len(held) - len(current),
            dropped=self._buffer.dropped(None if include_previous_pages else self.generation),
            buckets=self._buffer.buckets,
        )

    def _record(
        self,
        domain: str,
        timestamp: float | None,
        level: str,
        text: str,
        *,
        url: str | None = None,
        line: int | None = None,
        stack: tuple[StackFrame, ...] = (),
        place: dict[str, Any] | None = None,
    ) -> None:
        """`place`: the CDP call frame or exception details that say where, for its script id
        and column (which map the entry through a source map)."""
        key = (self._target_id, domain)
        if timestamp is not None:
            if domain in self._replaying and timestamp <= self._seen_until.get(key, float("-inf")):
                return  # replayed by enable, already held from an earlier session of this target
            self._seen_until[key] = max(timestamp, self._seen_until.get(key, float("-inf")))
        text = clip(text, MAX_TEXT_CHARS)
        column = place.get("columnNumber") if place else None
        script_id = str(place.get("scriptId") or "") if place else ""
        entry = ConsoleEntry(
            level,
            text,
            url or None,
            line,
            stack,
            self.generation,
            column=None if column is None else int(column) + 1,
            script_id=script_id,
        )
        self._buffer.add(entry)

    def _on_console_api(self, event: CdpEvent) -> None:
        params = event.params
        kind = str(params.get("type", "log"))
        if kind in SKIPPED_TYPES:
            return
        args = params.get("args") or []
        text = render_args(args) if args else kind
        if kind == "assert":
            text = "Assertion failed: " + (text if args else "console.assert")
        self._api_texts.extend(text.splitlines())
        frames = (params.get("stackTrace") or {}).get("callFrames") or []
        level = LEVELS.get(kind, "log")
        # The call's place: the first frame with a URL. A logpoint logs from its breakpoint's
        # condition, which runs as an anonymous script on top of the code it stops at.
        place = next((frame for frame in frames if frame.get("url")), frames[0] if frames else None)
        self._record(
            "runtime",
            params.get("timestamp"),
            level,
            text,
            url=place.get("url") if place else None,
            line=int(place.get("lineNumber", 0)) + 1 if place else None,
            stack=stack_frames(frames) if level == "error" else (),
            place=place,
        )

    def _on_exception(self, event: CdpEvent) -> None:
        details = event.params.get("exceptionDetails") or {}
        exception = details.get("exception")
        text = str(details.get("text") or "Uncaught")
        if exception is not None:
            text = f"{text} {render_remote(exception).splitlines()[0]}"
        frames = (details.get("stackTrace") or {}).get("callFrames") or []
        line = details.get("lineNumber")
        self._record(
            "runtime",
            event.params.get("timestamp"),
            "error",
            text,
            url=details.get("url") or (frames[0].get("url") if frames else None),
            line=None if line is None else int(line) + 1,
            stack=stack_frames(frames),
            place=details if details.get("scriptId") else (frames[0] if frames else None),
        )

    def _on_log_entry(self, event: CdpEvent) -> None:
        entry = event.params.get("entry") or {}
        if entry.get("source") == "worker":
            return  # the page's copy of a worker's console call: the worker's own session reports it
        frames = (entry.get("stackTrace") or {}).get("callFrames") or []
        line = entry.get("lineNumber")
        level = LOG_LEVELS.get(str(entry.get("level")), "log")
        self._record(
            "log",
            entry.get("timestamp"),
            level,
            str(entry.get("text", "")),
            url=entry.get("url"),
            line=None if line is None else int(line) + 1,
            stack=stack_frames(frames) if level == "error" else (),
        )

    def _on_frame_navigated(self, event: CdpEvent) -> None:
        frame = event.params.get("frame") or {}
        if "parentId" not in frame:
            self.generation += 1
            self.page_urls[self.generation] = str(frame.get("url", ""))


async def _enable_log(session: CdpSession) -> None:
    """The browser's own reports; a Node.js process has no ``Log`` domain, and nothing is lost."""
    with contextlib.suppress(CdpCommandError):
        await session.send("Log.enable")


def stack_frames(frames: list[dict[str, Any]]) -> tuple[StackFrame, ...]:
    """The top `STACK_FRAMES` of a CDP stack trace, 1-based like an editor."""
    return tuple(
        StackFrame(
            function=str(frame.get("functionName") or ""),
            url=str(frame.get("url") or ""),
            line=int(frame.get("lineNumber", 0)) + 1,
            column=int(frame.get("columnNumber", 0)) + 1,
            script_id=str(frame.get("scriptId") or ""),
        )
        for frame in frames[:STACK_FRAMES]
    )


def render_args(args: list[dict[str, Any]]) -> str:
    """console.log's arguments as one line, with printf-style substitution in the first."""
    rest = list(args[1:])
    first = args[0]
    if first.get("type") == "string" and "%" in str(first.get("value", "")):

        def substitute(match: re.Match[str]) -> str:
            if match.group() == "%%":
                return "%"
            if not rest:
                return match.group()
            value = rest.pop(0)
            return "" if match.group() == "%c" else render_remote(value)

        head = _FORMAT.sub(substitute, str(first["value"]))
    else:
        head = render_remote(first)
    return " ".join([head, *(render_remote(arg) for arg in rest)])
