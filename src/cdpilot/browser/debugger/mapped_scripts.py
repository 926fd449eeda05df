"""The source maps of the page's scripts: found, fetched through the page, and applied.

A script names its map in ``Debugger.scriptParsed.sourceMapURL`` (which covers both the
``//# sourceMappingURL`` comment and the ``SourceMap`` header). A map is loaded only when
something needs it (a pause to show, a breakpoint on an original file, a list of sources),
then kept in a cache bounded by size, keyed by the map's URL.

Maps are fetched with ``Network.loadNetworkResource`` in the page's main frame, so the page's
cookies and credentials apply (a map behind a login loads as the page's scripts did), it
works while the page is paused in the debugger (the renderer is not involved), and nothing
runs in the page. A map that fails to load or parse is noted once per map, shown in the
answers it touches, and the script is debugged at its generated lines.
"""

from __future__ import annotations

import asyncio
import base64
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from cdpilot import progress
from cdpilot.browser.debugger.debugger_facts import AsyncFrame, Frame, Location, Pause
from cdpilot.browser.debugger.frame_expressions import function_start
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.js_tokens import js_tokens
from cdpilot.browser.observe.console_facts import ConsoleEntry, StackFrame
from cdpilot.browser.sourcemaps.map_cache import SourceMapCache
from cdpilot.browser.sourcemaps.map_parsing import parse_source_map
from cdpilot.browser.sourcemaps.map_urls import label, locate_source_map
from cdpilot.browser.sourcemaps.source_map import SourceMap, function_name
from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace, SourceEntry, SourceMapLocation, split_lines
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpCommandError, CdpTimeoutError, SourceMapError

MAX_MAP_BYTES = 64 * 1024 * 1024  # a larger map is refused, naming the limit
FETCH_TIMEOUT_S = 20.0
READ_CHUNK = 4 * 1024 * 1024
MAX_FETCHED_SOURCES = 64
HOT_STAMP = re.compile(r"t=\d+")  # Vite's cache-busting timestamp of a hot-updated module


@dataclass(frozen=True)
class MappedScript:
    """A loaded script whose map loaded: what a lookup in its original sources needs."""

    script_id: str
    url: str
    source_map: SourceMap


class MappedScripts:
    """The maps of the current page's scripts (one per connection, re-attached per page)."""

    def __init__(self, scripts: ScriptSources, *, local_files: bool = False) -> None:
        self._scripts = scripts
        self._local_files = local_files  # read file: URLs from disk (a Node.js process's)
        self._session: CdpSession | None = None
        self._cache = SourceMapCache()
        self._failed: dict[str, str] = {}  # map URL → what went wrong, said once per map
        self._loading: dict[str, asyncio.Future[SourceMap]] = {}
        self._locations: dict[str, SourceMapLocation | None] = {}  # script id → its map's place
        self._said: set[str] = set()  # failures an answer has reported already
        self._fetched: dict[str, str | None] = {}  # original sources fetched by URL, oldest first
        self._missing: dict[str, str] = {}  # original source URL → why it could not be fetched

    def attach(self, session: CdpSession) -> None:
        self._session = session
        self.forget_failures()

    def forget_failures(self) -> None:
        """Try failed maps again (the page reloaded: a fixed build may serve them now); the
        scripts' ids are gone with the page, and so are their maps' places."""
        self._failed.clear()
        self._locations.clear()
        self._said.clear()
        self._missing.clear()
        self._fetched.clear()

    # --- finding and loading -----------------------------------------------------------

    def map_location(self, script_id: str) -> SourceMapLocation | None:
        """Where the script's map is; worked out once per script (every lookup asks)."""
        if script_id in self._locations:
            return self._locations[script_id]
        info = self._scripts.get(script_id)
        if info is None:
            return None  # not reported yet: ask again later
        where = None
        if info.source_map_url:
            try:
                where = locate_source_map(info.url, info.source_map_url)
            except SourceMapError as exc:
                self._failed.setdefault(info.source_map_url, exc.message)
        self._locations[script_id] = where
        return where

    def failure(self, script_id: str) -> str | None:
        """Why the script's map could not be used, once it was tried."""
        info = self._scripts.get(script_id)
        if info is None or not info.source_map_url:
            return None
        where = self.map_location(script_id)
        return self._failed.get(where.url if where is not None else info.source_map_url)

    def failure_once(self, script_id: str) -> str | None:
        """The script's map failure, the first time an answer asks: said once, not at every pause."""
        failure = self.failure(script_id)
        if failure is None or failure in self._said:
            return None
        self._said.add(failure)
        return failure

    def has_map(self, script_id: str) -> bool:
        """Whether the script names a source map (loaded or not, usable or not)."""
        return self.map_location(script_id) is not None

    def loaded(self, script_id: str) -> SourceMap | None:
        """The script's map if it is loaded already (no I/O): for event callbacks."""
        where = self.map_location(script_id)
        return self._cache.get(where.url) if where is not None else None

    async def map_for(self, script_id: str) -> SourceMap | None:
        """The script's map, loading it when needed; None when it has none or it failed."""
        where = self.map_location(script_id)
        if where is None or where.url in self._failed:
            return None
        kept = self._cache.get(where.url)
        if kept is not None:
            return kept
        pending = self._loading.get(where.url)
        if pending is None:
            pending = asyncio.ensure_future(self._load(where))
            self._loading[where.url] = pending
            pending.add_done_callback(lambda _: self._loading.pop(where.url, None))
        try:
            return await asyncio.shield(pending)
        except SourceMapError as exc:
            self._failed.setdefault(where.url, exc.message)
            return None

    async def mapped(self) -> list[MappedScript]:
        """Every loaded script whose map loads, in load order: the current version of each
        module. A module a dev server replaced (a hot update: Vite loads ``cart.ts?t=…``
        beside the old ``cart.ts``, webpack evaluates ``webpack-internal:///./src/x.ts``
        again) is still loaded, but its code is the old one: only the newest counts."""
        found: dict[str, MappedScript] = {}
        for script_id, info in self._scripts.items():
            source_map = await self.map_for(script_id)
            if source_map is not None:
                found.pop(module_key(info.url), None)
                found[module_key(info.url)] = MappedScript(script_id, info.url, source_map)
        return list(found.values())

    def versions(self, url: str) -> int:
        """How many versions of the module at `url` the page loaded in one context: more than
        one after a hot update (or a script loaded twice). A frame that runs the same file has
        a copy of its own, no version of the page's."""
        key = module_key(url)
        per_context = Counter(
            self._scripts.context_of(sid) for sid, info in self._scripts.items() if module_key(info.url) == key
        )
        return max(per_context.values(), default=0)

    def replaced(self, script_id: str) -> bool:
        """Whether a later version of the script's module loaded in its context (a hot update,
        even one of the same text, as a second save pushes): its code no longer runs, so its
        places are stale. The same file in another frame is a copy of its own, still live."""
        info = self._scripts.get(script_id)
        if info is None or not info.url:
            return False
        key, context = module_key(info.url), self._scripts.context_of(script_id)
        versions = [
            sid
            for sid, each in self._scripts.items()
            if module_key(each.url) == key and self._scripts.context_of(sid) == context
        ]
        return bool(versions) and versions[-1] != script_id

    async def _load(self, where: SourceMapLocation) -> SourceMap:
        text = where.text if where.text is not None else await self._fetch(where.url)
        source_map = parse_source_map(text, where.url, base_url=where.base_url, max_bytes=MAX_MAP_BYTES)
        self._cache.put(where.url, source_map)
        return source_map

    async def _fetch(self, url: str) -> str:
        if self._local_files and url.startswith("file:"):
            return await asyncio.to_thread(_read_local_file, url, MAX_MAP_BYTES)
        session = self._require_session()
        params = {
            "frameId": session.target_id,
            "url": url,
            "options": {"disableCache": False, "includeCredentials": True},
        }
        name = label(url)
        await progress.report(f"Loading the source map {name}")
        try:
            reply = await session.send("Network.loadNetworkResource", params, timeout_s=FETCH_TIMEOUT_S)
            resource = reply["resource"]
            if not resource.get("success"):
                status = resource.get("httpStatusCode")
                why = f"HTTP {int(status)}" if status else str(resource.get("netErrorName") or "failed")
                raise SourceMapError(f"{name}: could not be loaded ({why})")
            return await self._read_stream(str(resource["stream"]), name)
        except (CdpCommandError, CdpTimeoutError) as exc:
            raise SourceMapError(f"{name}: could not be loaded ({exc})") from exc

    async def _read_stream(self, handle: str, name: str) -> str:
        session = self._require_session()
        chunks: list[bytes] = []
        size = 0
        try:
            while True:
                chunk = await session.send("IO.read", {"handle": handle, "size": READ_CHUNK})
                data = str(chunk.get("data", ""))
                raw = base64.b64decode(data) if chunk.get("base64Encoded") else data.encode("utf-8")
                size += len(raw)
                if size > MAX_MAP_BYTES:
                    raise SourceMapError(f"{name}: over the {MAX_MAP_BYTES:,}-byte limit")
                chunks.append(raw)
                if chunk.get("eof"):
                    break
        finally:
            await session.send("IO.close", {"handle": handle})
        try:
            return b"".join(chunks).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SourceMapError(f"{name}: not UTF-8 text ({exc})") from exc

    # --- applying ----------------------------------------------------------------------

    async def original(self, location: Location) -> Location:
        """`location` with its original place, when the script's map covers it."""
        if location.original is not None or not location.script_id:
            return location
        source_map = await self.map_for(location.script_id)
        return self.original_loaded(location, source_map)

    def original_loaded(self, location: Location, source_map: SourceMap | None) -> Location:
        if source_map is None:
            return location
        at = self._scripts.position(location)
        found = source_map.original_position(at.line, at.column)
        if found is None:
            return location
        source = found.source
        place = OriginalPlace(source.name, source.url, found.line + 1, found.column + 1, found.name, source.ignored)
        return replace(location, original=place)

    async def annotate(self, pause: Pause) -> Pause:
        """The pause with every frame's location, its async frames' too, in original
        coordinates where a map covers it."""
        frames = [await self._frame(frame) for frame in pause.frames]
        segments = [
            replace(segment, frames=tuple([await self._async_frame(frame) for frame in segment.frames]))
            for segment in pause.async_segments
        ]
        return replace(pause, frames=tuple(frames), async_segments=tuple(segments))

    async def _async_frame(self, frame: AsyncFrame) -> AsyncFrame:
        return replace(frame, location=await self.original(frame.location))

    async def _frame(self, frame: Frame) -> Frame:
        location = await self.original(frame.location)
        start = await self.original(frame.function_location) if frame.function_location else None
        return replace(frame, location=location, function_location=start)

    async def console_entries(self, entries: tuple[ConsoleEntry, ...]) -> tuple[ConsoleEntry, ...]:
        """Console entries with their places, and their stacks' places, in original coordinates
        where a map covers them (scripts the debugger has seen load)."""
        return tuple([await self._console_entry(entry) for entry in entries])

    async def _console_entry(self, entry: ConsoleEntry) -> ConsoleEntry:
        stack = tuple([await self._stack_frame(frame) for frame in entry.stack])
        original = None
        if entry.script_id and entry.line is not None:
            where = Location(entry.script_id, entry.url or "", entry.line, entry.column or 1)
            original = (await self.original(where)).original
        return replace(entry, stack=stack, original=original)

    async def _stack_frame(self, frame: StackFrame) -> StackFrame:
        if not frame.script_id:
            return frame
        where = await self.original(Location(frame.script_id, frame.url, frame.line, frame.column))
        return replace(frame, original=where.original, original_name=await stack_function_name(self, frame, where))

    async def original_source_line(self, location: Location) -> str | None:
        """The text of the original line `location` came from: from the map's sourcesContent,
        else the original file fetched by its URL; None when neither has it."""
        place = location.original
        text = await self.original_text(location)
        if place is None or text is None:
            return None
        lines = split_lines(text)
        return lines[place.line - 1] if 0 < place.line <= len(lines) else None

    async def original_text(self, location: Location) -> str | None:
        """The whole original source `location` came from: the map's sourcesContent, else the
        file fetched by its URL; None when neither has it."""
        place = location.original
        source_map = await self.map_for(location.script_id) if place is not None else None
        entry = _entry(source_map, place.url) if source_map is not None and place is not None else None
        return await self.source_text(entry) if entry is not None else None

    async def source_text(self, entry: SourceEntry) -> str | None:
        """An original source's text: the map's sourcesContent, else fetched by its URL."""
        return entry.content if entry.content is not None else await self._fetched_source(entry.url)

    async def served_without_code(self, url: str) -> bool:
        """Whether the page's server answers `url` with a script that holds no code: what a
        dev server serves for a TypeScript file of types only (Vite: ``export {};``)."""
        text = await self._fetched_source(url)
        if text is None or text.lstrip().startswith("<"):  # nothing, or the app's HTML fallback page
            return False
        return "".join(token.text for token in js_tokens(text)) in ("", "export{}", "export{};")

    async def _fetched_source(self, url: str) -> str | None:
        """An original source the map names without its text, fetched once by its URL (the
        dev servers of Vite and webpack serve them); None when it cannot be, and why is kept
        (`missing_source_once`). A dev server answers a path it does not have with the app's
        HTML page: that is no source either."""
        if url not in self._fetched:
            if len(self._fetched) >= MAX_FETCHED_SOURCES:
                self._fetched.pop(next(iter(self._fetched)))
            text: str | None = None
            try:
                text = await self._fetch(url) if self._fetchable(url) else None
                if text is None:
                    self._missing.setdefault(url, f"{label(url)} is not a web address the page can fetch")
                elif text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
                    self._missing.setdefault(url, f"{label(url)}: the server answered with an HTML page, not the file")
                    text = None
            except SourceMapError as exc:
                self._missing.setdefault(url, exc.message)
            self._fetched[url] = text
        return self._fetched[url]

    def _fetchable(self, url: str) -> bool:
        return url.startswith(("http://", "https://")) or (self._local_files and url.startswith("file:"))

    def missing_source_once(self, url: str) -> str | None:
        """Why an original source named by a map (without its text) could not be fetched, the
        first time an answer asks: a map that points at a missing file says so once."""
        missing = self._missing.get(url)
        if missing is None or missing in self._said:
            return None
        self._said.add(missing)
        return missing

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session


def _read_local_file(url: str, max_bytes: int) -> str:
    """A file of this machine named by a ``file:`` URL, as text (a map, or a source it names)."""
    path = Path(url2pathname(urlsplit(url).path))
    name = label(url)
    try:
        with path.open("rb") as file:
            data = file.read(max_bytes + 1)
    except OSError as exc:
        raise SourceMapError(f"{name}: could not be read ({exc.strerror or exc})") from exc
    if len(data) > max_bytes:
        raise SourceMapError(f"{name}: over the {max_bytes:,}-byte limit")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceMapError(f"{name}: not UTF-8 text ({exc})") from exc


def _entry(source_map: SourceMap, url: str) -> SourceEntry | None:
    return next((entry for entry in source_map.sources if entry.url == url), None)


def module_key(url: str) -> str:
    """A script's URL without the query a dev server adds to load a module again (Vite's
    ``?t=<timestamp>`` and ``import`` flag): the versions of one module share it."""
    base, _, query = url.partition("?")
    kept = [part for part in query.split("&") if part and part != "import" and not HOT_STAMP.fullmatch(part)]
    return base + ("?" + "&".join(kept) if kept else "")


async def stack_function_name(maps: MappedScripts, frame: StackFrame | AsyncFrame, where: Location) -> str | None:
    """The original name of the function a stack frame ran in, at `where` (mapped), as a
    paused frame's is read (`function_name`): a console stack's and an async stack's frames
    say only where they were, so the function's start is found first, from its name."""
    name = frame.function if isinstance(frame, StackFrame) else frame.function_name
    source_map = await maps.map_for(where.script_id) if where.original is not None and name else None
    if source_map is None:
        return None
    lines = await maps._scripts.lines_of(where.script_id)
    at = maps._scripts.position(where)
    start = function_start(lines, name, at.line, at.column)
    return function_name(source_map, lines, name, start) if start is not None else None
