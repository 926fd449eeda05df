"""The scripts of the current page: where each sits, its source lines, and the reading of
CDP's places, call frames and async stacks into `Location`, `Frame` and `AsyncSegment`.

A location in CDP names its script by id only; the URL comes from the script's
``Debugger.scriptParsed``. Inline scripts are positioned in their HTML document, so a source
line is read from the script's text shifted by the ``startLine`` that event reported.

Only the scripts of live documents are known: a script is forgotten with its execution
context, when the browser destroys it (a closed or navigated frame), when a new document's
first script arrives in the same frame, or when the page clears them all (a reload). So what
refers to a script (a breakpoint's bound places) can tell whether it still exists.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from cdpilot.browser.debugger.debugger_facts import AsyncFrame, AsyncSegment, Frame, Location, Scope, ScriptInfo
from cdpilot.browser.own_scripts import is_own
from cdpilot.browser.remote_values import preview_value
from cdpilot.browser.sourcemaps.sourcemap_facts import GeneratedPosition, split_lines
from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpCommandError
from cdpilot.text import clip, cut_marker

MAX_CACHED_SOURCES = 32
RETURN_PREVIEW_CHARS = 80
SOURCE_WINDOW_CHARS = 120  # a long (minified) line is shown from a little before the paused column


class ScriptSources:
    """The scripts the page has parsed, and the text of those we have read (a few, newest kept)."""

    def __init__(self) -> None:
        self._session: CdpSession | None = None
        self._scripts: dict[str, ScriptInfo] = {}
        self._sources: OrderedDict[str, list[str]] = OrderedDict()
        self._contexts: dict[str, int] = {}  # script id → the execution context it runs in
        self._documents: dict[str, int] = {}  # frame id → the main context of the document it shows
        self._subscriptions = Subscriptions()

    def attach(self, session: CdpSession) -> None:
        self._session = session
        self._subscriptions.replace(session, {"Runtime.executionContextDestroyed": self._on_context_destroyed})
        self.clear()

    def clear(self) -> None:
        """The page's scripts are gone (a navigation, another page)."""
        self._scripts.clear()
        self._sources.clear()
        self._contexts.clear()
        self._documents.clear()

    def on_script_parsed(self, event: CdpEvent) -> None:
        params = event.params
        script_id = str(params["scriptId"])
        context = params.get("executionContextId")
        if context is not None:
            self._enter_context(script_id, int(context), params.get("executionContextAuxData") or {})
        self._scripts[script_id] = ScriptInfo(
            str(params.get("url") or ""),
            int(params.get("startLine", 0)),
            int(params.get("startColumn", 0)),
            str(params.get("sourceMapURL") or ""),
        )

    def _enter_context(self, script_id: str, context: int, aux: dict[str, Any]) -> None:
        """Keep the script's context. A frame's main context that is new to us means a new
        document there: the scripts of the one it replaced are gone, even if the browser has
        not said so yet."""
        frame = aux.get("frameId")
        if aux.get("isDefault") and frame:
            replaced = self._documents.get(str(frame))
            if replaced is not None and replaced != context:
                self._forget_context(replaced)
            self._documents[str(frame)] = context
        self._contexts[script_id] = context

    def _on_context_destroyed(self, event: CdpEvent) -> None:
        context = event.params.get("executionContextId")
        if context is not None:
            self._forget_context(int(context))

    def _forget_context(self, context: int) -> None:
        for script_id in [sid for sid, owner in self._contexts.items() if owner == context]:
            del self._contexts[script_id]
            self._scripts.pop(script_id, None)
            self._sources.pop(script_id, None)
        self._documents = {frame: main for frame, main in self._documents.items() if main != context}

    def alive(self, script_id: str) -> bool:
        """Whether the script is still loaded (its document not gone)."""
        return script_id in self._scripts

    def context_of(self, script_id: str) -> int | None:
        """The execution context the script runs in (a frame's document, a worker), if known."""
        return self._contexts.get(script_id)

    def urls(self) -> list[str]:
        """The distinct URLs of the page's own scripts (never cdpilot's), in load order."""
        return list(dict.fromkeys(info.url for info in self._scripts.values() if info.url and not is_own(info.url)))

    def get(self, script_id: str) -> ScriptInfo | None:
        return self._scripts.get(script_id)

    def items(self) -> list[tuple[str, ScriptInfo]]:
        """(script id, info) of the page's own scripts with a URL, in load order."""
        return [(sid, info) for sid, info in self._scripts.items() if info.url and not is_own(info.url)]

    def ids_of(self, url: str) -> list[str]:
        """The ids of the loaded scripts with this URL (a reloaded script has a new one)."""
        return [sid for sid, info in self._scripts.items() if info.url == url]

    async def lines_of(self, script_id: str) -> list[str]:
        """The whole text of a loaded script, as lines; [] when it is gone."""
        return await self._source(script_id)

    def location(self, raw: dict[str, Any], url: str = "") -> Location:
        """A CDP ``Debugger.Location``, named by `url` or else by its script's URL."""
        script_id = str(raw["scriptId"])
        script = self._scripts.get(script_id)
        return Location(
            script_id,
            url or (script.url if script else ""),
            int(raw["lineNumber"]) + 1,
            int(raw.get("columnNumber", 0)) + 1,
        )

    def frame(self, index: int, raw: dict[str, Any]) -> Frame:
        """A CDP ``Debugger.CallFrame``, read once when its pause arrives."""
        function_start = raw.get("functionLocation")
        return Frame(
            index=index,
            function_name=str(raw.get("functionName") or ""),
            location=self.location(raw["location"], str(raw.get("url") or "")),
            function_location=self.location(function_start) if function_start else None,
            call_frame_id=str(raw["callFrameId"]),
            scopes=tuple(self._scope(scope) for scope in raw.get("scopeChain", [])),
            return_value=preview_value(raw["returnValue"], max_chars=RETURN_PREVIEW_CHARS)
            if "returnValue" in raw
            else None,
        )

    def position(self, location: Location) -> GeneratedPosition:
        """`location` as a 0-based place in its script's own text, as source maps count: an
        inline script's first line is its line in the document, and starts mid-way along it."""
        script = self._scripts.get(location.script_id)
        line, column = location.line - 1, location.column - 1
        if script is not None:
            column -= script.start_column if line == script.start_line else 0
            line -= script.start_line
        return GeneratedPosition(line, column)

    def async_stack(self, paused: dict[str, Any]) -> tuple[tuple[AsyncSegment, ...], bool]:
        """The async segments of a ``Debugger.paused`` (its ``asyncStackTrace`` and that one's
        parents; a segment without frames has nothing to show and is left out), and whether
        the chain goes on past them: a ``parentId`` stands for a part the browser kept but did
        not send (beyond the depth we asked for, or in another target)."""
        segments: list[AsyncSegment] = []
        cut = bool(paused.get("asyncStackTraceId"))
        raw = paused.get("asyncStackTrace")
        while raw:
            frames = tuple(
                AsyncFrame(str(call.get("functionName") or ""), self.location(call, str(call.get("url") or "")))
                for call in raw.get("callFrames") or []
            )
            if frames:
                segments.append(AsyncSegment(str(raw.get("description") or "async call"), frames))
            cut = cut or bool(raw.get("parentId"))
            raw = raw.get("parent")
        return tuple(segments), cut

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
        skipped = cut_marker(start) if start else ""
        return skipped + clip(line[start:], SOURCE_WINDOW_CHARS - len(skipped))

    async def _source(self, script_id: str) -> list[str]:
        if script_id in self._sources:
            self._sources.move_to_end(script_id)
            return self._sources[script_id]
        assert self._session is not None, "a connection attaches its page before handing it out"
        try:
            reply = await self._session.send("Debugger.getScriptSource", {"scriptId": script_id})
        except CdpCommandError:
            return []  # a script of a page that is gone
        lines = split_lines(str(reply.get("scriptSource", "")))  # as CDP and source maps count lines
        self._sources[script_id] = lines
        if len(self._sources) > MAX_CACHED_SOURCES:
            self._sources.popitem(last=False)
        return lines

    def _scope(self, raw: dict[str, Any]) -> Scope:
        holder = raw.get("object") or {}
        object_id = holder.get("objectId")
        start, end = raw.get("startLocation"), raw.get("endLocation")
        return Scope(
            kind=str(raw.get("type", "scope")),
            name=str(raw.get("name") or ""),
            object_id=str(object_id) if object_id is not None else None,
            description=str(holder.get("description") or ""),
            start=self.location(start) if start else None,
            end=self.location(end) if end else None,
        )
