"""The breakpoints live in the current page session, in generated scripts or original sources.

A breakpoint is set by URL, never by script id, so the browser keeps it across reloads and
binds it in scripts parsed later (``Debugger.breakpointResolved``). What the user wrote picks
how it binds:

- a full URL (``http://…/app.js``) or ``url_regex``: as the browser matches them;
- the end of a URL at a ``/`` (``app.js``, ``dist/app.js``, ``/dist/app.js`` from the site
  root): a URL regex built from it, so every matching script binds, now and later;
- an original source named by a source map (``cart.ts``, ``src/cart.ts``): the first place
  of that line where the browser can stop (a line with calls has several, and stopping at
  each would pause several times per run of the line), in each copy of the line's code in
  every loaded bundle whose map has the file, each set by the bundle's URL. A column picks
  the places of that column. A line without code binds on the next line that has some, and
  says so.

A bundle that loads later (after a navigation, or lazily) is stopped before it runs by the
instrumentation breakpoint ``beforeScriptWithSourceMapExecution``, which is on while a
breakpoint named by file has not yet found a script that has its file: its map is loaded, the
breakpoints bound, then it goes on. So a breakpoint set before the page loads hits on the first
run of that code. Each hold costs the browser about 2 ms, and a dev server's page has a module
with a map per source file, so holding stops once every such breakpoint has found its script:
a reload binds them again by URL at once, and a script that loads later (a hot update, a lazy
chunk) is bound as it is parsed, without a hold (code that runs as it loads may run first).

CDP forgets breakpoints when we detach from the session, so what the user asked for
(`BreakpointSpec`) is kept in the target's `DebugConfig` by `PageDebugger` and set here again
on every attach.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cdpilot.browser.debugger.breakpoint_requests import (
    cdp_condition,
    file_name,
    line_after_edit,
    no_code_error,
    no_runtime_code_error,
    origin_of,
    same_place,
    suffix_regex,
    unmapped_names_error,
    url_ends_with,
    user_expressions,
)
from cdpilot.browser.debugger.condition_names import BreakpointSite, placed
from cdpilot.browser.debugger.debugger_facts import (
    BindKind,
    BoundText,
    BoundTexts,
    Breakpoint,
    BreakpointSpec,
    DebugConfig,
    Location,
    is_library_url,
    short_script_name,
)
from cdpilot.browser.debugger.mapped_scripts import MappedScript, MappedScripts
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.sourcemaps.map_urls import is_absolute_url
from cdpilot.browser.sourcemaps.sourcemap_facts import GeneratedLookup, GeneratedPosition, SourceEntry
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, CdpilotError, StateError

INSTRUMENTATION = "beforeScriptWithSourceMapExecution"
BINDINGS_WAIT_S = 2.0  # a removal of every breakpoint waits this long at most for bindings under way
MAX_ORIGINS_ASKED = 2  # a file of types only is looked for on the first origins the page's scripts came from


class LiveBreakpoints:
    """Our breakpoint ids (bp1, …) and the browser's for the same breakpoints, in this session."""

    def __init__(
        self, scripts: ScriptSources, maps: MappedScripts, config: Callable[[], DebugConfig], bound_texts: BoundTexts
    ) -> None:
        self._scripts = scripts
        self._maps = maps
        self._config = config  # the current target's, where a breakpoint that follows an edit is kept
        self._bound_texts = bound_texts  # the connection's (see `BoundTexts`)
        self._session: CdpSession | None = None
        self._live: dict[str, Breakpoint] = {}
        self._settled: set[str] = set()  # ids of breakpoints named by file that found their script once
        self._instrumentation_id: str | None = None
        self._instrumentation_lock = asyncio.Lock()
        self._removals = 0  # counts removals, so a binding under way learns one happened meanwhile
        self._binding: set[asyncio.Task[Any]] = set()  # bindings in scripts under way

    def attach(self, session: CdpSession) -> None:
        """A new session has none of them yet."""
        self._session = session
        self._live.clear()
        self._settled.clear()
        self._instrumentation_id = None
        self._removals += 1

    def listed(self) -> list[Breakpoint]:
        return [self._pruned(our_id) for our_id in list(self._live)]

    def ids_hit(self, cdp_ids: list[str]) -> list[str]:
        """Our ids of the browser's breakpoints a pause names as hit."""
        return [live.spec.id for live in self._live.values() if set(live.cdp_ids) & set(cdp_ids)]

    def forget_resolved(self) -> None:
        """The page's scripts are gone: their places bind again as the new scripts load."""
        for our_id, live in self._live.items():
            self._live[our_id] = replace(live, resolved=())

    def _text_key(self, breakpoint_id: str, url: str) -> tuple[str, str, str]:
        return (self._require_session().target_id or "", breakpoint_id, url)

    def _forget_texts(self, which: Callable[[tuple[str, str, str]], bool]) -> None:
        """Drop this target's records of the texts its breakpoints were bound in that `which` picks."""
        target = self._require_session().target_id or ""
        for key in [key for key in self._bound_texts if key[0] == target and which(key)]:
            del self._bound_texts[key]

    def _current(self, where: Location) -> bool:
        """Whether a bound place is in code that can still run: its script is loaded and no
        later version of its module replaced it."""
        return self._scripts.alive(where.script_id) and not self._maps.replaced(where.script_id)

    def _pruned(self, our_id: str) -> Breakpoint:
        """The breakpoint without the places of scripts that are gone (a reload, a closed
        frame) or replaced (a hot update): the browser binds it again, by URL, in the scripts
        that replace them."""
        live = self._live[our_id]
        kept = tuple(where for where in live.resolved if self._current(where))
        if kept != live.resolved:
            live = self._live[our_id] = replace(live, resolved=kept)
        return live

    async def add(
        self,
        config: DebugConfig,
        *,
        url: str | None,
        url_regex: str | None,
        line: int,
        column: int | None,
        condition: str | None,
        log_message: str | None = None,
        hit_count: int | None = None,
    ) -> Breakpoint:
        """A new breakpoint, numbered and kept in `config` once the browser took it."""
        taken = next((b.spec for b in self._live.values() if same_place(b.spec, url, url_regex, line, column)), None)
        if taken is not None:
            raise StateError(
                f"A breakpoint is already set at {taken.where} ({taken.id}).",
                suggestion="Remove it with {tool:debugger_remove_breakpoint} first to change its condition.",
            )
        number = config.breakpoints_made + 1
        spec = BreakpointSpec(f"bp{number}", url, url_regex, line, column, condition, log_message, hit_count)
        live = await self.set(spec)
        config.breakpoints_made += 1
        config.breakpoints[spec.id] = spec
        return live

    async def set(self, spec: BreakpointSpec) -> Breakpoint:
        """Give `spec` to the browser (again, on an attach)."""
        if spec.url_regex is not None:
            live = await self._set_by_url(spec, "regex", {"urlRegex": spec.url_regex})
        elif spec.url is not None and is_absolute_url(spec.url):
            live = await self._set_by_url(spec, "url", {"url": spec.url})
        else:
            live = await self._set_by_name(spec, str(spec.url))
        self._live[spec.id] = live
        await self._update_instrumentation()
        return live

    async def _set_by_name(self, spec: BreakpointSpec, name: str) -> Breakpoint:
        """A file name: the original sources it names, else the scripts whose URL ends with it."""
        targets = [
            (script, entry) for script in await self._maps.mapped() for entry in script.source_map.find_sources(name)
        ]
        if targets:
            live = Breakpoint(spec, (), "original")
            try:
                for script, entry in targets:
                    live = await self._bind_original(live, script, entry, refuse_unmapped=True)
            except ArgumentError:
                await self._remove_from_browser(live.cdp_ids)
                raise
            if not live.cdp_ids:
                raise no_code_error(spec, [entry for _, entry in targets])
            self._settled.add(spec.id)
            return live
        if await self._types_only(name):
            raise no_runtime_code_error(name)
        live = await self._set_by_url(spec, "suffix", {"urlRegex": suffix_regex(name)})
        matching = [url for url in self._scripts.urls() if url_ends_with(url, name)]
        return replace(live, sources=tuple(matching))

    async def _types_only(self, path: str) -> bool:
        """Whether `path` (``src/types.ts``), which no loaded script or map knows, is a file
        the page's server compiles to nothing: a TypeScript file of types only never loads
        (imports of types are erased), so a breakpoint would wait for it forever."""
        if not path.endswith((".ts", ".tsx", ".mts", ".cts")) or "://" in path:
            return False
        origins = list(dict.fromkeys(origin_of(url) for url in self._scripts.urls() if origin_of(url)))
        for origin in origins[:MAX_ORIGINS_ASKED]:
            if await self._maps.served_without_code(f"{origin}/{path.removeprefix('./').lstrip('/')}"):
                return True
        return False

    def may_bind_in(self, script_id: str) -> bool:
        """Whether a script held before it runs may hold the file of a breakpoint, decided at
        once, so that a hold that binds nothing ends at once (a dev server's page holds every
        module, 40 of them and more, on every reload). No only when its map is known without
        fetching it (inline, or loaded already) and names none of the files, or, inline, does
        not even mention their file names."""
        names = [str(live.spec.url) for live in self._live.values() if live.kind in ("original", "suffix")]
        loaded = self._maps.loaded(script_id)
        if loaded is not None:
            return any(loaded.find_sources(name) for name in names)
        where = self._maps.map_location(script_id)
        if where is None or where.text is None:
            return True  # not reported yet, or a map to fetch: only loading it tells
        return any(file_name(name) in where.text for name in names)

    def must_hold(self, script_id: str) -> bool:
        """Whether a script about to run is held until its breakpoints bind: when it may hold
        the file of one (`may_bind_in`), unless it is a library's (node_modules/, Vite's
        dependency cache), whose large maps would hold the page while they load: such a one
        runs at once and binds as its map loads."""
        info = self._scripts.get(script_id)
        return self.may_bind_in(script_id) and not (info is not None and is_library_url(info.url))

    async def bind_new_script(self, script_id: str) -> None:
        """A script with a source map is about to run: bind the breakpoints that name one of
        its original files (its map is loaded here, before it runs)."""
        task = asyncio.current_task()
        if task is not None:
            self._binding.add(task)
        try:
            await self._bind_in(script_id)
        finally:
            if task is not None:
                self._binding.discard(task)

    async def _bind_in(self, script_id: str) -> None:
        info = self._scripts.get(script_id)
        named = [live for live in self._live.values() if live.kind in ("original", "suffix")]
        if info is None or not named:
            return
        removals = self._removals  # a removal meanwhile (a turning off) ends this binding
        source_map = await self._maps.map_for(script_id)
        if source_map is None or self._removals != removals:
            return
        script = MappedScript(script_id, info.url, source_map)
        for live in named:
            name = str(live.spec.url)
            if live.kind == "suffix" and url_ends_with(info.url, name) and not source_map.find_sources(name):
                self._settled.add(live.spec.id)  # it names this generated script itself, which its URL binds
            for entry in source_map.find_sources(str(live.spec.url)):
                started = self._live.get(live.spec.id, live)
                current = await self._followed(started, entry, hot=self._maps.versions(info.url) > 1)
                if self._removals != removals:
                    return
                if current.kind == "suffix":
                    # It named no original file when set; now one exists. The URL it was set by
                    # also matches this script (Vite serves src/cart.ts compiled at that URL),
                    # whose lines are generated ones: that binding goes, or it would stop twice.
                    await self._remove_from_browser(current.cdp_ids)
                    current = replace(current, kind="original", cdp_ids=(), resolved=(), sources=())
                bound = await self._bind_original(current, script, entry)
                if self._removals != removals:  # no binding of a removed breakpoint may stay
                    with contextlib.suppress(CdpilotError):
                        await self._remove_from_browser(bound.cdp_ids[len(current.cdp_ids) :])  # the ones it set
                    return
                self._live[live.spec.id] = bound = self._with_places_bound_meanwhile(bound, started)
                if bound.cdp_ids:
                    self._settled.add(live.spec.id)
        await self._update_instrumentation()

    async def _bind_original(
        self, live: Breakpoint, script: MappedScript, entry: SourceEntry, *, refuse_unmapped: bool = False
    ) -> Breakpoint:
        """`live` also bound at its line's places in `script`, its condition and message in the
        script's names. A name they use that the map cannot place is refused while the call
        that sets it can still say so (`refuse_unmapped`), and noted when a later script binds."""
        spec = live.spec
        column = spec.column - 1 if spec.column is not None else None
        lookup = script.source_map.generated_positions(entry, spec.line - 1, column)
        sources = live.sources if entry.name in live.sources else (*live.sources, entry.name)
        if lookup is None and refuse_unmapped and not script.source_map.mapped_lines(entry):
            raise no_runtime_code_error(entry.name)
        if lookup is None:
            return replace(live, sources=sources)
        notes = live.notes
        if lookup.moved:
            note = f"no code on line {spec.line} of {entry.name}; bound on line {lookup.line + 1}"
            notes = notes if note in notes else (*notes, note)
        condition, condition_notes = await self._placed_condition(spec, script, entry, lookup.line, refuse_unmapped)
        notes += tuple(note for note in condition_notes if note not in notes)
        ids, resolved = list(live.cdp_ids), list(live.resolved)
        places = []
        for run in lookup.runs:
            if spec.column is None:
                places += await self._first_stop(script, run, lookup)
            else:
                places += await self._break_locations(script.script_id, run)
        for line, column_number in places:
            params: dict[str, Any] = {"url": script.url, "lineNumber": line, "columnNumber": column_number}
            if condition is not None:
                params["condition"] = condition
            try:
                reply = await self._require_session().send("Debugger.setBreakpointByUrl", params)
            except CdpCommandError as exc:
                if "already exists" in exc.cdp_message:
                    continue  # this place is bound already (the same bundle, loaded again)
                raise
            ids.append(str(reply["breakpointId"]))
            bound_at = [self._scripts.location(raw) for raw in reply.get("locations", [])]
            resolved += bound_at
            for where in bound_at:
                moved = await self._moved_by_browser(where, entry, lookup.line + 1, spec.column)
                notes = notes if moved is None or moved in notes else (*notes, moved)
        text = await self._maps.source_text(entry)
        if text is not None:
            self._bound_texts[self._text_key(spec.id, entry.url)] = BoundText(spec.line, text)
        return replace(live, cdp_ids=tuple(ids), resolved=tuple(resolved), sources=sources, notes=notes)

    def _with_places_bound_meanwhile(self, bound: Breakpoint, before: Breakpoint) -> Breakpoint:
        """`bound` with the places the browser reported while it was being bound (it binds a
        breakpoint set by URL in a script as it loads: `on_resolved` recorded those places in
        the live breakpoint, which `bound` does not have). `before` is the live breakpoint as
        the binding began: its places were dropped or kept by the binding on purpose."""
        latest = self._live.get(bound.spec.id)
        if latest is None:
            return bound
        meanwhile = [where for where in latest.resolved if where not in before.resolved and where not in bound.resolved]
        return replace(bound, resolved=(*bound.resolved, *meanwhile)) if meanwhile else bound

    async def _moved_by_browser(self, where: Location, entry: SourceEntry, line: int, column: int | None) -> str | None:
        """A note when the browser bound a place on another original line than the one asked
        for (no place to stop there, at that column: it moves on to the next one it has)."""
        original = (await self._maps.original(where)).original
        if original is None or original.url != entry.url or original.line == line:
            return None
        asked = f"line {line}" + (f", column {column}," if column is not None else "")
        return f"{asked} of {entry.name} has no place to stop; the browser bound it on line {original.line}"

    async def _followed(self, live: Breakpoint, entry: SourceEntry, *, hot: bool) -> Breakpoint:
        """`live`, moved with its line when `entry`'s text is not the one it was bound in: a
        dev server replaced the module (`hot`: a hot update, the old version still loaded), or
        the file was edited before a reload or a watcher's restart of a program. Its old places
        are dropped (they stop in old code, or at the old line number in the new code) and it
        binds again at the line's place in the new text, and says so."""
        bound = self._bound_texts.get(self._text_key(live.spec.id, entry.url))
        new = await self._maps.source_text(entry) if bound is not None else None
        if bound is None or new is None:
            return live
        spec = live.spec
        if bound.text == new:  # unchanged; another process of the program may have moved it meanwhile
            if bound.line == spec.line:
                return live
            line, same = bound.line, True
        else:
            line, same = line_after_edit(bound.text, new, bound.line)
        moved = replace(spec, line=line)
        if self._config().breakpoints.get(spec.id) is spec:
            self._config().breakpoints[spec.id] = moved
        await self._remove_from_browser(live.cdp_ids)
        how = "was replaced by a hot update" if hot else "changed since the breakpoint was bound"
        if line == spec.line and same:
            note = f"{entry.name} {how}; bound in the new version"
        elif same:
            note = f"{entry.name} {how}; its line {spec.line} is line {line} now"
        else:
            note = f"{entry.name} {how}; its line {spec.line} changed: bound on line {line}"
        return replace(live, spec=moved, cdp_ids=(), resolved=(), notes=(note,))

    async def _placed_condition(
        self, spec: BreakpointSpec, script: MappedScript, entry: SourceEntry, line: int, refuse_unmapped: bool
    ) -> tuple[str | None, tuple[str, ...]]:
        """The breakpoint's condition as `script` runs it (see `condition_names`), and notes on
        what was renamed or could not be."""
        expressions = user_expressions(spec)
        text = await self._maps.source_text(entry) if expressions else None
        if text is None:
            return cdp_condition(spec), ()
        lines = await self._scripts.lines_of(script.script_id)
        site = BreakpointSite(script.source_map, entry, text, line, lines)
        found = {expression: placed(site, expression) for expression in expressions}
        unmapped = list(dict.fromkeys(name for each in found.values() for name in each.unmapped))
        if unmapped and refuse_unmapped:
            raise unmapped_names_error(spec, entry.name, unmapped)
        notes = [
            f"{each.expression.written} runs as {each.expression.evaluated} in {short_script_name(script.url)}"
            for each in found.values()
            if each.expression.renamed
        ]
        if unmapped:
            notes.append(f"{', '.join(unmapped)}: no place in {short_script_name(script.url)}; not defined there")
        return cdp_condition(spec, lambda expression: found[expression].expression.evaluated), tuple(notes)

    async def _remove_from_browser(self, cdp_ids: tuple[str, ...]) -> None:
        for cdp_id in cdp_ids:
            await self._require_session().send("Debugger.removeBreakpoint", {"breakpointId": cdp_id})

    async def _first_stop(
        self, script: MappedScript, run: tuple[GeneratedPosition, ...], lookup: GeneratedLookup
    ) -> list[tuple[int, int]]:
        """The first place in a run of a line's code where the browser can stop and that maps
        back to the line: where a line breakpoint stops once per run of the line, before any
        of it ran. A map often marks a statement where its indentation starts, and its first
        call (``console.log`` of ``console.log(f(x))``) runs after its arguments, so the
        browser's own places are asked for and mapped back, not the map's segments."""
        first, last = self._document_place(script.script_id, run[0]), self._document_place(script.script_id, run[-1])
        for line, column in await self._possible_places(script.script_id, first, (last[0], last[1] + 1)):
            at = self._scripts.position(Location(script.script_id, script.url, line + 1, column + 1))
            found = script.source_map.original_position(at.line, at.column)
            if found is not None and found.source.url == lookup.source.url and found.line == lookup.line:
                return [(line, column)]
        return [first]

    async def _break_locations(self, script_id: str, positions: tuple[GeneratedPosition, ...]) -> list[tuple[int, int]]:
        """The generated places of an original line and column where the browser can stop, in
        the document's coordinates, first to last.

        A map also maps tokens that are no statement (the end of an expression); the browser
        would move a breakpoint there to the next statement, which may belong to another
        original line. So only places the browser lists as possible break locations are kept,
        and the first place when it lists none of them."""
        places = [self._document_place(script_id, p) for p in positions]
        by_line: dict[int, list[int]] = {}
        for line, column in places:
            by_line.setdefault(line, []).append(column)
        possible: set[tuple[int, int]] = set()
        for line, columns in by_line.items():
            possible |= set(await self._possible_places(script_id, (line, min(columns)), (line, max(columns) + 1)))
        kept = sorted(place for place in places if place in possible)
        return kept or sorted(places)[:1]

    def _document_place(self, script_id: str, position: GeneratedPosition) -> tuple[int, int]:
        """A 0-based place in a script's text as the document counts it (an inline script
        starts mid-document)."""
        info = self._scripts.get(script_id)
        if info is None:
            return position.line, position.column
        column = position.column + (info.start_column if position.line == 0 else 0)
        return position.line + info.start_line, column

    async def _possible_places(
        self, script_id: str, start: tuple[int, int], end: tuple[int, int]
    ) -> list[tuple[int, int]]:
        """Where the browser can stop from `start` up to `end` (0-based, document places),
        in order; none when the script is gone."""
        params = {
            "start": {"scriptId": script_id, "lineNumber": start[0], "columnNumber": start[1]},
            "end": {"scriptId": script_id, "lineNumber": end[0], "columnNumber": end[1]},
        }
        try:
            reply = await self._require_session().send("Debugger.getPossibleBreakpoints", params)
        except CdpCommandError:
            return []  # the script is gone: the places stay as the map gives them
        return sorted((int(loc["lineNumber"]), int(loc.get("columnNumber", 0))) for loc in reply["locations"])

    async def _set_by_url(self, spec: BreakpointSpec, kind: BindKind, target: dict[str, str]) -> Breakpoint:
        params: dict[str, Any] = {**target, "lineNumber": spec.line - 1}
        if spec.column is not None:
            params["columnNumber"] = spec.column - 1
        if cdp_condition(spec) is not None:
            params["condition"] = cdp_condition(spec)
        try:
            reply = await self._require_session().send("Debugger.setBreakpointByUrl", params)
        except CdpCommandError as exc:
            if "already exists" not in exc.cdp_message:
                raise
            raise StateError(
                f"A breakpoint is already set at {spec.where}.",
                suggestion="Remove it with {tool:debugger_remove_breakpoint} first to change its condition.",
            ) from exc
        resolved = tuple(self._scripts.location(raw) for raw in reply.get("locations", []))
        return Breakpoint(spec, (str(reply["breakpointId"]),), kind, resolved)

    async def remove(self, config: DebugConfig, breakpoint_id: str) -> BreakpointSpec:
        live = self._live.get(breakpoint_id)
        if live is None:
            known = ", ".join(self._live) or "none"
            raise StateError(
                f"No breakpoint {breakpoint_id!r} on this page (breakpoints: {known}).",
                suggestion="List them with {tool:debugger_list_breakpoints}.",
            )
        for cdp_id in live.cdp_ids:
            await self._require_session().send("Debugger.removeBreakpoint", {"breakpointId": cdp_id})
        del self._live[breakpoint_id]
        self._removals += 1
        self._settled.discard(breakpoint_id)
        config.breakpoints.pop(breakpoint_id, None)
        self._forget_texts(lambda key: key[1] == breakpoint_id)
        await self._update_instrumentation()
        return live.spec

    async def remove_all(self) -> int:
        """Drop every one from the browser (``Debugger.disable`` alone leaves URL breakpoints in
        place); how many there were. The record is emptied before the first await, so a second
        call meanwhile (a turning off that outlived its caller) finds nothing left to remove."""
        session = self._require_session()
        removed = list(self._live.values())
        self._live.clear()
        self._forget_texts(lambda _: True)  # ids count from bp1 again: no new one may inherit a text
        self._removals += 1
        self._settled.clear()
        for live in removed:
            for cdp_id in live.cdp_ids:
                await session.send("Debugger.removeBreakpoint", {"breakpointId": cdp_id})
        # A binding under way may set one more place; it removes it itself on seeing the removal,
        # which it must do while the debugger is still on (turned off, the browser keeps it).
        under_way = [task for task in self._binding if task is not asyncio.current_task()]
        if under_way:
            await asyncio.wait(under_way, timeout=BINDINGS_WAIT_S)
        await self._update_instrumentation()
        return len(removed)

    def on_resolved(self, event: CdpEvent) -> None:
        """A script loaded that one of them binds in."""
        cdp_id = event.params.get("breakpointId")
        for our_id, live in list(self._live.items()):
            if cdp_id in live.cdp_ids:
                where = self._scripts.location(event.params["location"])
                kept = self._pruned(our_id)
                if where not in kept.resolved:
                    self._live[our_id] = replace(kept, resolved=(*kept.resolved, where))

    async def described(self, live: Breakpoint) -> Breakpoint:
        """`live` with its places in original coordinates, for an answer (only those of code
        that can still run)."""
        alive = [location for location in live.resolved if self._current(location)]
        resolved = [await self._maps.original(location) for location in alive]
        return replace(live, resolved=tuple(resolved))

    @property
    def holding(self) -> bool:
        """Whether scripts with a map are held before they run (see the module docstring)."""
        return self._instrumentation_id is not None

    def named_by_file(self) -> bool:
        """Whether a breakpoint names a file, which a script loaded later may hold."""
        return any(live.kind in ("original", "suffix") for live in self._live.values())

    async def _update_instrumentation(self) -> None:
        """Hold scripts with a map before they run while a breakpoint named by file has not
        found its script yet (see the module docstring). One change at a time: a script bound
        as it loads and a call of the user's may both ask, and the browser refuses a second
        instrumentation breakpoint."""
        async with self._instrumentation_lock:
            wanted = any(
                live.kind in ("original", "suffix") and our_id not in self._settled
                for our_id, live in self._live.items()
            )
            session = self._require_session()
            if wanted and self._instrumentation_id is None:
                reply = await session.send(
                    "Debugger.setInstrumentationBreakpoint", {"instrumentation": INSTRUMENTATION}
                )
                self._instrumentation_id = str(reply["breakpointId"])
            elif not wanted and self._instrumentation_id is not None:
                await session.send("Debugger.removeBreakpoint", {"breakpointId": self._instrumentation_id})
                self._instrumentation_id = None

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session
