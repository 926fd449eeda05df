"""What a source map answers, as plain frozen data, and the one error it raises.

Every line and column here is 0-based, as in the map itself and in CDP; columns count UTF-16
code units, as both of them do. Converting to the 1-based places that answers show is the
caller's business, where the browser's positions are converted too.

A source is known by its index in the map (what the mappings refer to), its resolved URL (its
identity: two maps naming the same URL name the same file) and its display name (a
project-relative path for people and for matching what they type, see `source_names`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# JavaScript's line terminators, which maps and CDP count lines by (str.splitlines knows more).
LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """`text` cut into lines the way a map's line numbers count them."""
    return LINE_BREAK.split(text)


@dataclass(frozen=True)
class SourceEntry:
    """One original source the map names."""

    index: int  # position in the map's sources, as the mappings refer to it
    url: str  # resolved against sourceRoot and the map's URL: the identity
    name: str  # project-relative display name, e.g. "src/cart.ts"
    content: str | None = field(repr=False)  # from sourcesContent, when the map carries it
    ignored: bool  # ignore-listed by the map, or a library under node_modules/

    @property
    def line_count(self) -> int | None:
        """How many lines the original source has, when the map carries its text."""
        if self.content is None:
            return None
        return len(LINE_BREAK.findall(self.content)) + 1


@dataclass(frozen=True)
class OriginalPosition:
    """Where a generated position came from in an original source."""

    source: SourceEntry
    line: int
    column: int
    name: str | None  # the map's names entry for the segment, often the original identifier


@dataclass(frozen=True)
class GeneratedPosition:
    """A position in the generated script."""

    line: int
    column: int


@dataclass(frozen=True)
class GeneratedLookup:
    """The generated positions of an original line.

    `line` is the original line the positions belong to: the requested one, or the next line
    with code when the requested one has none (so a caller can say "no code on line 12;
    bound on line 14")."""

    source: SourceEntry
    requested_line: int
    line: int
    runs: tuple[tuple[GeneratedPosition, ...], ...]  # each copy of the line's code, in generated order

    @property
    def moved(self) -> bool:
        return self.line != self.requested_line

    @property
    def positions(self) -> tuple[GeneratedPosition, ...]:
        """Every position of the line, in generated order."""
        return tuple(position for run in self.runs for position in run)


@dataclass(frozen=True)
class NamedPosition:
    """A generated position whose segment carries a names entry: the original name of the
    identifier that starts there."""

    line: int
    column: int
    name: str


@dataclass(frozen=True)
class SourceMapLocation:
    """Where a script's source map is: inline text to parse, or an absolute URL to fetch.

    Sources of the map resolve against `base_url`: the map's own URL, or the script's URL for
    an inline map (a data: URL has no directory of its own)."""

    url: str  # the absolute URL of the map, or the data: URL itself
    text: str | None  # the decoded map when it is inline; None when it must be fetched
    base_url: str

    @property
    def inline(self) -> bool:
        return self.text is not None


@dataclass(frozen=True)
class OriginalPlace:
    """Where a place the browser reports came from in the author's source, as answers show it:
    1-based, like an editor (unlike the 0-based positions above)."""

    source: str  # the project-relative display name, e.g. src/cart.ts
    url: str  # the source's resolved URL: its identity
    line: int
    column: int
    name: str | None = None  # the original identifier that starts there, when the map names it
    library: bool = False  # ignore-listed by the map, or under node_modules/

    @property
    def label(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


def utf16_index(text: str, column: int) -> int:
    """The index in `text` of a column counted in UTF-16 code units (its end, past the last)."""
    if text.isascii():
        return min(column, len(text))
    units = 0
    for index, char in enumerate(text):
        if units >= column:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def utf16_column(text: str, index: int) -> int:
    """The column, counted in UTF-16 code units, of index `index` in `text`."""
    if text.isascii():
        return index
    return index + sum(1 for char in text[:index] if ord(char) > 0xFFFF)
