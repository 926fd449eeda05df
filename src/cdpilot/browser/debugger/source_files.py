"""Finding code in the page: its scripts with their original sources, a source's lines, and a
search across all of them, original sources first.

A file is named as a breakpoint names it: an original source by its project path or a suffix
of it (``src/cart.ts``, ``cart.ts``), a script by its URL or the end of it (``app.js``).
cdpilot's own scripts are never listed or searched.
"""

from __future__ import annotations

import re

from cdpilot.browser.debugger.breakpoint_requests import url_ends_with
from cdpilot.browser.debugger.mapped_scripts import MappedScript, MappedScripts, module_key
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.debugger.source_facts import (
    FunctionPlace,
    ScriptEntry,
    SearchFindings,
    SearchHit,
    SourceFile,
    SourceText,
)
from cdpilot.browser.sourcemaps.sourcemap_facts import SourceEntry, split_lines
from cdpilot.errors import ArgumentError, FieldProblem, StateError

MAX_HITS_COUNTED = 1000  # a search stops counting here and says so


class SourceFiles:
    """Reads the page's scripts and original sources for the list, read and search tools."""

    def __init__(self, scripts: ScriptSources, maps: MappedScripts) -> None:
        self._scripts = scripts
        self._maps = maps

    async def scripts(self) -> list[ScriptEntry]:
        """Every loaded script (the newest of each URL), in load order, with its map's sources."""
        newest = self._current_scripts()
        entries = []
        for url, script_id in newest.items():
            source_map = await self._maps.map_for(script_id)
            failure = self._maps.failure(script_id)
            if source_map is not None:
                files = tuple(SourceFile(e.name, e.ignored) for e in _distinct(source_map.sources))
                entries.append(ScriptEntry(url, "loaded", _notes_text(source_map.notes()), files))
            elif failure is not None:
                entries.append(ScriptEntry(url, "failed", failure, ()))
            else:
                entries.append(ScriptEntry(url, "none", "", ()))
        return entries

    async def read(self, name: str) -> SourceText:
        """The whole text of the original source or script that `name` names."""
        originals = await self._originals(name)
        if len({entry.url for _, entry in originals}) > 1:
            raise _ambiguous(name, sorted({entry.name for _, entry in originals}))
        if originals:
            script, entry = originals[-1]
            text = await self._maps.source_text(entry)
            if text is None:
                raise StateError(
                    f"The source map names {entry.name} but carries no text of it (no sourcesContent), "
                    f"and {entry.url} could not be fetched.",
                    suggestion="Read the generated script instead: {tool:debugger_list_scripts} lists them.",
                )
            return SourceText(entry.name, True, tuple(split_lines(text)), self._maps.versions(script.url))
        urls = [url for url in self._scripts.urls() if url == name or url_ends_with(url, name)]
        if len(urls) > 1:
            raise _ambiguous(name, urls)
        if not urls:
            raise StateError(
                f"No loaded script or original source is named {name!r}.",
                suggestion="See what the page has with {tool:debugger_list_scripts}.",
            )
        script_id = [sid for sid, info in self._scripts.items() if info.url == urls[0]][-1]
        return SourceText(urls[0], False, tuple(await self._scripts.lines_of(script_id)))

    async def search(self, pattern: re.Pattern[str], *, limit: int) -> SearchFindings:
        """Lines that `pattern` (from `search_pattern`) finds."""
        files = await self._files()
        searched = {file for file, original, _ in files if original}
        without_text = sorted(
            {
                entry.name
                for s in await self._maps.mapped()
                for entry in s.source_map.sources
                if entry.name not in searched
            }
        )
        hits: list[SearchHit] = []
        total = 0
        for file, original, lines in files:
            for number, line in enumerate(lines, 1):
                if pattern.search(line):
                    total += 1
                    if len(hits) < limit:
                        hits.append(SearchHit(file, number, line, original))
                    if total >= MAX_HITS_COUNTED:
                        return SearchFindings(tuple(hits), total, False, len(files), tuple(without_text))
        return SearchFindings(tuple(hits), total, True, len(files), tuple(without_text))

    async def find_function(self, name: str) -> FunctionPlace:
        """Where function `name` is declared (a function, a method, or a function assigned to
        a name), original sources first; for ``Cart.total`` the method ``total``."""
        pattern = _declaration(name.rsplit(".", 1)[-1])
        found: list[tuple[str, int, list[str]]] = []
        bundles = {script.url for script in await self._maps.mapped()}
        for file, original, lines in await self._files():
            if found and not original and file in bundles:
                continue  # the bundle of an original found already: the same function, generated
            found += [(file, number, lines) for number, line in enumerate(lines, 1) if pattern.search(line)]
        if not found:
            raise StateError(
                f"No function named {name!r} is declared in the loaded sources.",
                suggestion="Look for it with {tool:debugger_search_sources}, then set a breakpoint by line.",
            )
        file, number, lines = found[0]
        opened = lines[number - 1].split("{", 1)
        body_line = number if len(opened) > 1 and opened[1].strip() not in ("", "}") else number + 1
        others = tuple(f"{other}:{line}" for other, line, _ in found[1:])
        return FunctionPlace(file, number, min(body_line, len(lines)), others)

    async def _files(self) -> list[tuple[str, bool, list[str]]]:
        """(name, original?, lines) of every original source with text, then every script."""
        files: list[tuple[str, bool, list[str]]] = []
        seen: set[str] = set()
        for script in reversed(await self._maps.mapped()):  # the newest version of a file first
            for entry in _distinct(script.source_map.sources):
                text = await self._maps.source_text(entry) if entry.url not in seen else None
                if text is not None:
                    seen.add(entry.url)
                    files.append((entry.name, True, split_lines(text)))
        files.reverse()  # back in load order
        for url, script_id in self._current_scripts().items():
            files.append((url, False, await self._scripts.lines_of(script_id)))
        return files

    def _current_scripts(self) -> dict[str, str]:
        """URL → id of the current version of each loaded script, in load order: a module a
        dev server replaced by a hot update (``cart.ts?t=…``) shows as its newest version."""
        newest: dict[str, tuple[str, str]] = {}
        for script_id, info in self._scripts.items():
            newest.pop(module_key(info.url), None)
            newest[module_key(info.url)] = (info.url, script_id)
        return dict(newest.values())

    async def _originals(self, name: str) -> list[tuple[MappedScript, SourceEntry]]:
        """The original sources `name` names, with the script of each, in load order."""
        return [
            (script, entry) for script in await self._maps.mapped() for entry in script.source_map.find_sources(name)
        ]


def _notes_text(notes: tuple[str, ...]) -> str:
    """What was wrong in a map that still loaded (dropped mappings, say): the first, and how
    many more."""
    if not notes:
        return ""
    return notes[0] + (f" (and {len(notes) - 1} more notes)" if len(notes) > 1 else "")


def _distinct(entries: tuple[SourceEntry, ...]) -> list[SourceEntry]:
    """One entry per source URL (an index map may name a file in several sections)."""
    return list({entry.url or f"#{entry.index}": entry for entry in entries}.values())


def _declaration(name: str) -> re.Pattern[str]:
    """A line that declares function `name`: ``function name(``, ``name(…) {`` (a method),
    ``name = (…) =>`` / ``name = function``, ``name: function``."""
    n = re.escape(name)
    return re.compile(
        rf"\bfunction\s*\*?\s*{n}\s*[(<]"
        rf"|^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*{n}\s*(?:<[^>]*>)?\([^)]*\)[^;=]*\{{"
        rf"|\b{n}\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[A-Za-z_$][\w$]*\s*=>)"
    )


def search_pattern(query: str, regex: bool) -> re.Pattern[str]:
    """What `search` looks for: `query` as text (case-insensitive) or as a regex, refused if invalid."""
    if not regex:
        return re.compile(re.escape(query), re.IGNORECASE)
    try:
        return re.compile(query)
    except re.error as exc:
        raise ArgumentError(
            "query is not a valid regular expression.",
            problems=[FieldProblem("query", "a regular expression", f"one that fails: {exc}")],
        ) from exc


def _ambiguous(name: str, candidates: list[str]) -> StateError:
    return StateError(
        f"{name!r} names {len(candidates)} files: {', '.join(candidates[:8])}.",
        suggestion="Give more of the path, e.g. the folder too.",
    )
