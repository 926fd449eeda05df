"""A parsed source map and the questions a debugger asks of it.

Why one object: the sources, the names and the decoded mappings answer in both directions,
generated → original (where did this paused position come from) and original → generated
(where to put a breakpoint for src/cart.ts line 20), and they are decoded once, on the first
lookup, then kept. Everything is 0-based and columns count UTF-16 code units (see
`sourcemap_facts`).

Lookups follow DevTools. Generated → original takes the segment at or before the column on
that generated line, and finds nothing when the line has no segment before it (or the segment
maps to no source). Original → generated gives every generated position of the original line;
with a column, only the segments at the nearest original column at or after it (all of its
generated copies), else those at the line's first column. A line without code answers with
the next line that has some, and says so (`GeneratedLookup.moved`).

An index map can name one file in several sections; each mention is its own `SourceEntry`,
and lookups by any of them cover all of them (the URL is the identity).

The original side has an index of its own (`OriginalIndex`): generated → original bisects one
generated line, but original → generated has to consider every segment. Sorting the slots once
by key (source, then original line; a stable sort keeps generated order within a line) makes
each such question two bisections. Bundles emit a module's lines nearly in order, so the sort
is cheap; it is built on the first original-side question, not before.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence

from cdpilot.browser.sourcemaps.source_names import source_matches
from cdpilot.browser.sourcemaps.sourcemap_facts import (
    GeneratedLookup,
    GeneratedPosition,
    NamedPosition,
    OriginalPosition,
    SourceEntry,
    split_lines,
    utf16_column,
    utf16_index,
)
from cdpilot.browser.sourcemaps.vlq_mappings import KEY_STRIDE, UNMAPPED, MappingColumns, Section

# A JavaScript identifier, as loosely as source maps need: ASCII letters, _ and $, or any
# character past ASCII ([^\x00-\x7f]: the same as a \u0080-\U0010ffff range, which the
# regex compiler takes ~10 ms to build, at every server start).
IDENTIFIER = re.compile(r"(?:[A-Za-z_$]|[^\x00-\x7f])(?:[\w$]|[^\x00-\x7f])*")
# What may stand between a function's name and its parameters: nothing (a declaration, a
# method), or an assignment or property of a function expression or an arrow.
BOUND_TO_FUNCTION = r"\s*(?:[=:]\s*(?:async\b\s*)?(?:function\b\s*)?\*?\s*)?"
FUNCTION_HEAD_CHARS = 200  # how far before its parameters a function's name is looked for


class SourceMap:
    """One source map: its sources and names at once, its mappings decoded when first asked."""

    def __init__(
        self,
        *,
        map_url: str,
        label: str,
        file: str | None,
        sources: tuple[SourceEntry, ...],
        names: tuple[str, ...],
        parts: tuple[tuple[str, Section], ...],
        notes: tuple[str, ...],
        size_bytes: int,
    ) -> None:
        self.map_url = map_url
        self.label = label  # how messages name the map
        self.file = file
        self.sources = sources
        self.names = names
        self.size_bytes = size_bytes  # the map's text length: what a cache counts
        self._parts = parts  # (mappings text, where it goes), dropped once decoded
        self._notes = notes
        self._columns: MappingColumns | None = None
        self._index: OriginalIndex | None = None
        self._mentions: dict[str, list[int]] = {}
        for entry in sources:
            self._mentions.setdefault(_identity(entry), []).append(entry.index)

    def notes(self) -> tuple[str, ...]:
        """What was wrong but kept going: dropped mappings, bad ignoreList entries (decodes)."""
        return self._notes + tuple(self._decoded().notes)

    def find_sources(self, query: str) -> tuple[SourceEntry, ...]:
        """The sources that `query` names (a URL, or a path suffix at a ``/``), one per URL."""
        unique: dict[str, SourceEntry] = {}
        for entry in self.sources:
            if source_matches(entry.name, entry.url, query):
                unique.setdefault(_identity(entry), entry)
        return tuple(unique.values())

    def original_position(self, line: int, column: int) -> OriginalPosition | None:
        """Where the generated `line`/`column` came from, if the map says."""
        columns = self._decoded()
        slot = columns.segment_before(line, column)
        if slot is None or columns.keys[slot] == UNMAPPED:
            return None
        source, original_line = divmod(columns.keys[slot], KEY_STRIDE)
        return OriginalPosition(
            self.sources[source], original_line, columns.original_columns[slot], self._name(columns.names[slot])
        )

    def generated_positions(self, source: SourceEntry, line: int, column: int | None = None) -> GeneratedLookup | None:
        """Where original `line` of `source` runs; the next line with code when it has none.
        None when no line from there to the end of the source has code."""
        index = self._original_index()
        mentions = self._mentions_of(source)
        candidates = [found for found in (index.next_line(mention, line) for mention in mentions) if found is not None]
        if not candidates:
            return None
        used = min(candidates)
        slots = sorted(slot for mention in mentions for slot in index.slots(mention, used))
        columns = self._decoded()
        if column is not None and used == line:
            starts = {columns.original_columns[slot] for slot in slots}
            target = min((start for start in starts if start >= column), default=min(starts))
            slots = [slot for slot in slots if columns.original_columns[slot] == target]
        runs = tuple(
            tuple(GeneratedPosition(columns.slot_line(slot), columns.columns[slot]) for slot in run)
            for run in _runs(slots, {mention * KEY_STRIDE + used for mention in mentions}, columns.keys)
        )
        return GeneratedLookup(source, line, used, runs)

    def mapped_lines(self, source: SourceEntry) -> tuple[int, ...]:
        """The original lines of `source` that have code in the generated script, ascending."""
        index = self._original_index()
        mentions = self._mentions_of(source)
        return tuple(sorted({line for mention in mentions for line in index.lines(mention)}))

    def name_at(self, line: int, column: int) -> str | None:
        """The original name of the identifier whose segment starts exactly at `line`/`column`."""
        columns = self._decoded()
        slot = columns.segment_before(line, column)
        if slot is None or columns.columns[slot] != column:
            return None
        return self._name(columns.names[slot])

    def named_positions(self, start: GeneratedPosition, end: GeneratedPosition) -> tuple[NamedPosition, ...]:
        """Every segment with a name from `start` up to, not including, `end` (a function's
        body, say): the generated places of identifiers and their original names."""
        columns = self._decoded()
        found: list[NamedPosition] = []
        for line in range(start.line, min(end.line, columns.line_count - 1) + 1):
            first, last = columns.line_range(line)
            if line == end.line:
                last = bisect_left(columns.columns, end.column, first, last)
            if line == start.line:
                first = bisect_left(columns.columns, start.column, first, last)
            for slot in range(first, last):
                name = self._name(columns.names[slot])
                if name is not None:
                    found.append(NamedPosition(line, columns.columns[slot], name))
        return tuple(found)

    def _name(self, index: int) -> str | None:
        return (self.names[index] or None) if index != UNMAPPED else None

    def _mentions_of(self, source: SourceEntry) -> list[int]:
        if not (0 <= source.index < len(self.sources) and self.sources[source.index] == source):
            raise ValueError(f"{source.name} is not a source of the {self.label}")
        return self._mentions[_identity(source)]

    def _decoded(self) -> MappingColumns:
        if self._columns is None:
            columns = MappingColumns(lambda: self.label)
            for mappings, section in self._parts:
                columns.add(mappings, section)
            columns.finish()
            self._columns, self._parts = columns, ()
        return self._columns

    def _original_index(self) -> OriginalIndex:
        if self._index is None:
            self._index = OriginalIndex(self._decoded())
        return self._index


class OriginalIndex:
    """The slots of every mapped segment, ordered by source, original line, generated order."""

    def __init__(self, columns: MappingColumns) -> None:
        keys = columns.keys
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self._slots = array("q", order)
        self._keys = array("q", map(keys.__getitem__, order))

    def slots(self, source: int, line: int) -> array[int]:
        """The slots of the segments that map to `line` of `source`, in generated order."""
        key = source * KEY_STRIDE + line
        return self._slots[bisect_left(self._keys, key) : bisect_left(self._keys, key + 1)]

    def next_line(self, source: int, line: int) -> int | None:
        """The first line at or after `line` of `source` that has a mapping."""
        where = bisect_left(self._keys, source * KEY_STRIDE + max(line, 0))
        if where == len(self._keys) or self._keys[where] >= (source + 1) * KEY_STRIDE:
            return None
        return self._keys[where] - source * KEY_STRIDE

    def lines(self, source: int) -> tuple[int, ...]:
        """Every original line of `source` that has a mapping, ascending."""
        low = bisect_left(self._keys, source * KEY_STRIDE)
        high = bisect_left(self._keys, (source + 1) * KEY_STRIDE)
        base = source * KEY_STRIDE
        return tuple(key - base for key in dict.fromkeys(self._keys[low:high]))


def identifier_renames(generated: str, named: Iterable[NamedPosition]) -> dict[str, str]:
    """Generated identifier → original name, read from the `generated` script's text at each
    named position (see `SourceMap.named_positions`). An identifier that stands for two
    different names in the range is left out rather than guessed."""
    lines = split_lines(generated)
    seen: dict[str, set[str]] = {}
    for position in named:
        if position.line >= len(lines):
            continue
        text = lines[position.line]
        match = IDENTIFIER.match(text, utf16_index(text, position.column))
        if match:
            seen.setdefault(match.group(), set()).add(position.name)
    return {identifier: next(iter(names)) for identifier, names in seen.items() if len(names) == 1}


def function_name(
    source_map: SourceMap, lines: Sequence[str], generated_name: str, start: GeneratedPosition
) -> str | None:
    """The original name of the function named `generated_name` where it runs (as the
    browser names it) whose parameters open at `start` in the generated script's `lines`
    (where the browser says the function starts); None when the map does not rename it.

    The map's segment at the generated name decides: the name just before the parameters
    (``function s(``, a method's ``s(``) or bound to the function (``s=function(``,
    ``s=async(…)=>``), which minifiers and bundlers map to the original identifier. A
    function whose name is not found there falls back to the segment covering its ``(``, as
    DevTools reads it. An anonymous function stays anonymous: whatever segment comes before its
    parameters names something else."""
    names = IDENTIFIER.findall(generated_name)  # "obj.method", "get size": the last part is the function's own
    if not names or start.line >= len(lines):
        return None
    text = lines[start.line]
    index = utf16_index(text, start.column)
    head = text[max(0, index - FUNCTION_HEAD_CHARS) : index]
    found = re.search(rf"(?<![\w$]){re.escape(names[-1])}{BOUND_TO_FUNCTION}$", head)
    if found:
        original = source_map.name_at(start.line, utf16_column(text, index - len(head) + found.start()))
    elif text[index : index + 1] == "(":
        position = source_map.original_position(start.line, start.column)
        original = position.name if position is not None else None
    else:
        return None
    return original if original != names[-1] else None


def _identity(entry: SourceEntry) -> str:
    return entry.url or f"#{entry.index}"  # a null source has no URL: its index stands in


def _runs(slots: list[int], line_keys: set[int], keys: Sequence[int]) -> list[list[int]]:
    """`slots` (ascending) cut into runs of the generated code: a run ends where a segment of
    another original line lies between two of them. One run is one copy of the line's code
    (a bundle may hold two: an index map's sections, code a bundler duplicated)."""
    runs: list[list[int]] = []
    for slot in slots:
        if runs and all(
            keys[between] in line_keys or keys[between] == UNMAPPED for between in range(runs[-1][-1] + 1, slot)
        ):
            runs[-1].append(slot)
        else:
            runs.append([slot])
    return runs
