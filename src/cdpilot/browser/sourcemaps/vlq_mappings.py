"""Decoding a map's ``mappings`` (base64 VLQ) into flat columns that lookups can bisect.

Why this shape: a 5 MB map holds a quarter of a million segments, and pure Python pays for
every object it makes. So each segment becomes one slot in four ``array('q')`` columns (its
generated column; its source and original line packed into one sortable key; its original
column; its names index), and each generated line is a range of slots. Decoding memoises whole
segment strings, which repeat a great deal ("AAAA", "CAAC", …), so the characters of a
repeated segment are read once; the loop over segments then only adds deltas.

The mappings of an index map's sections are decoded into the same columns, shifted by each
section's offset and by where its sources and names start in the merged lists.

Bad segments are dropped with a note and the rest of the map is kept, because one wrong index
in a big bundle should not cost the whole map: a source or names index out of range, a
negative original line or column, a segment with 2, 3 or more than 5 fields. A character
outside base64, or a value cut off or longer than 32 bits, means the rest of the text cannot
be read in step, and raises `SourceMapError`.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, count, islice, pairwise, repeat
from operator import gt, lt

from cdpilot.errors import SourceMapError
from cdpilot.text import plural

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
DIGITS = {char: value for value, char in enumerate(BASE64)}
KEY_STRIDE = 1 << 32  # key = source * KEY_STRIDE + original line: sorts by source, then line
UNMAPPED = -1  # the key, original column and name of a segment that maps to no source
MAX_NOTED = 5  # a map with thousands of bad segments gets a count, not thousands of notes


def decode_vlq(text: str) -> list[int]:
    """The signed integers of one VLQ run, e.g. ``"AAgBC"`` → ``[0, 0, 16, 1]``."""
    values: list[int] = []
    value = shift = 0
    for char in text:
        digit = DIGITS.get(char)
        if digit is None:
            raise ValueError(f"{char!r} is not a base64 digit")
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            if shift > 30:
                raise ValueError("a value is longer than 32 bits")
        else:
            values.append(-(value >> 1) if value & 1 else value >> 1)
            value = shift = 0
    if shift:
        raise ValueError("the last value is cut off")
    return values


@dataclass(frozen=True)
class Section:
    """Where one map's mappings go in the merged columns (all zero for a plain map)."""

    line: int = 0  # generated line of the section's start
    column: int = 0  # generated column of its start, on that line only
    source_base: int = 0  # index of its first source in the merged sources
    source_count: int = 0
    name_base: int = 0
    name_count: int = 0


class MappingColumns:
    """Every segment of a map, in generated order, one slot per segment in each column."""

    def __init__(self, describe: Callable[[], str]) -> None:
        self.line_starts = array("q")  # slot of each generated line's first segment
        self.columns = array("q")
        self.keys = array("q")
        self.original_columns = array("q")
        self.names = array("q")
        self.notes: list[str] = []
        self._describe = describe  # the map's name, for messages
        self._dropped = 0

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line_range(self, line: int) -> tuple[int, int]:
        """The slots of a generated line's segments (empty past the last line)."""
        if not 0 <= line < len(self.line_starts):
            return 0, 0
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.columns)
        return self.line_starts[line], end

    def add(self, mappings: str, section: Section) -> None:
        """Decode `mappings` into the columns, after every segment already there."""
        if self.columns:
            self._cut_at(section)
        while len(self.line_starts) <= section.line:
            self.line_starts.append(len(self.columns))
        if self.columns:
            # The earlier section's last mapping must not reach into this one.
            self._append(section.column, UNMAPPED, UNMAPPED, UNMAPPED)
        memo: dict[str, tuple[int, ...]] = {}
        columns_append, keys_append = self.columns.append, self.keys.append
        original_append, names_append = self.original_columns.append, self.names.append
        source_low, source_high = section.source_base, section.source_base + section.source_count
        name_low, name_high = section.name_base, section.name_base + section.name_count
        source, original_line, original_column, name = section.source_base, 0, 0, section.name_base
        for number, line in enumerate(mappings.split(";")):
            if number:
                self.line_starts.append(len(self.columns))
            if not line:
                continue
            column = section.column if number == 0 else 0
            for segment in line.split(","):
                fields = memo.get(segment)
                if fields is None:
                    fields = memo[segment] = self._segment(segment, section.line + number)
                field_count = len(fields)
                if field_count == 4:
                    column += fields[0]
                    source += fields[1]
                    original_line += fields[2]
                    original_column += fields[3]
                    if source_low <= source < source_high and original_line >= 0 and original_column >= 0:
                        columns_append(column)
                        keys_append(source * KEY_STRIDE + original_line)
                        original_append(original_column)
                        names_append(UNMAPPED)
                        continue
                elif field_count == 5:
                    column += fields[0]
                    source += fields[1]
                    original_line += fields[2]
                    original_column += fields[3]
                    name += fields[4]
                    if source_low <= source < source_high and original_line >= 0 and original_column >= 0:
                        columns_append(column)
                        keys_append(source * KEY_STRIDE + original_line)
                        original_append(original_column)
                        names_append(name if name_low <= name < name_high else self._bad_name(section, name))
                        continue
                elif field_count == 1:
                    column += fields[0]
                    self._append(column, UNMAPPED, UNMAPPED, UNMAPPED)
                    continue
                elif field_count == 0:  # an empty segment ("AAAA,,CAAC", a trailing comma) says nothing
                    continue
                else:  # 2, 3 or more than 5 fields: keep the state moving, drop the segment
                    column += fields[0]
                    source += fields[1]
                    original_line += fields[2] if field_count > 2 else 0
                    original_column += fields[3] if field_count > 3 else 0
                    name += fields[4] if field_count > 4 else 0
                    self._drop(f"a segment at generated line {section.line + number + 1} has {field_count} fields")
                    self._append(column, UNMAPPED, UNMAPPED, UNMAPPED)
                    continue
                self._drop(self._out_of_range(section, number, source, original_line, original_column))
                self._append(column, UNMAPPED, UNMAPPED, UNMAPPED)

    def finish(self) -> None:
        """Put every generated line in column order, as lookups bisect it, and count the drops.

        Encoders write each line in order; a line that is not (a negative delta) is sorted here
        rather than trusted, and a segment before column 0 is dropped."""
        columns, starts = self.columns, self.line_starts
        line_starts = set(starts)
        falls = compress(count(1), map(gt, columns, islice(columns, 1, None)))
        lines = {bisect_right(starts, slot) - 1 for slot in falls if slot not in line_starts}
        if min(columns, default=0) < 0:
            lines.update(bisect_right(starts, slot) - 1 for slot in compress(count(), map(lt, columns, repeat(0))))
        for line in sorted(lines, reverse=True):
            self._repair(line)
        if self._dropped > MAX_NOTED:
            self.notes.append(f"{self._describe()}: {self._dropped - MAX_NOTED} more bad segments dropped")

    def segment_before(self, line: int, column: int) -> int | None:
        """The slot of the last segment of `line` at or before `column`, if any."""
        start, end = self.line_range(line)
        slot = bisect_right(self.columns, column, start, end) - 1
        return slot if slot >= start else None

    def slot_line(self, slot: int) -> int:
        """The generated line a slot belongs to."""
        return bisect_right(self.line_starts, slot) - 1

    def _cut_at(self, section: Section) -> None:
        """Drop an earlier section's segments at or after where `section` starts: sections must
        not overlap, and the later one wins."""
        if len(self.line_starts) - 1 < section.line:
            return
        start, end = self.line_range(section.line)
        first = bisect_left(self.columns, section.column, start, end)
        if first == len(self.columns):
            return
        self.notes.append(
            f"{self._describe()}: sections overlap; {len(self.columns) - first} mappings after generated line "
            f"{section.line + 1} column {section.column + 1} are dropped"
        )
        for column in self._columns():
            del column[first:]
        del self.line_starts[section.line + 1 :]

    def _repair(self, line: int) -> None:
        start, end = self.line_range(line)
        kept = [slot for slot in range(start, end) if self.columns[slot] >= 0]
        problems = []
        if any(self.columns[before] > self.columns[after] for before, after in pairwise(kept)):
            problems.append("mappings out of column order; sorted")
            kept.sort(key=self.columns.__getitem__)
        removed = end - start - len(kept)
        if removed:
            problems.append(f"{plural(removed, 'mapping')} before column 1, dropped")
        for column in self._columns():
            column[start:end] = array("q", [column[slot] for slot in kept])
        for later in range(line + 1, len(self.line_starts)):
            self.line_starts[later] -= removed
        self.notes.append(f"{self._describe()}: generated line {line + 1} has {' and '.join(problems)}")

    def _columns(self) -> tuple[array[int], ...]:
        return self.columns, self.keys, self.original_columns, self.names

    def _append(self, column: int, key: int, original_column: int, name: int) -> None:
        self.columns.append(column)
        self.keys.append(key)
        self.original_columns.append(original_column)
        self.names.append(name)

    def _segment(self, segment: str, line: int) -> tuple[int, ...]:
        try:
            return tuple(decode_vlq(segment))
        except ValueError as exc:
            raise SourceMapError(
                f"{self._describe()}: mappings unreadable at generated line {line + 1}: {exc}"
            ) from exc

    def _drop(self, note: str) -> None:
        self._dropped += 1
        if self._dropped <= MAX_NOTED:
            self.notes.append(f"{self._describe()}: {note}; that mapping is dropped")

    def _out_of_range(self, section: Section, number: int, source: int, line: int, column: int) -> str:
        where = f"mapping at generated line {section.line + number + 1}"
        index = source - section.source_base
        if not 0 <= index < section.source_count:
            return f"{where} refers to source #{index}, the map has {plural(section.source_count, 'source')}"
        if line < 0:
            return f"{where} refers to an original line before the first"
        return f"{where} refers to an original column before the first"

    def _bad_name(self, section: Section, name: int) -> int:
        self._dropped += 1
        if self._dropped <= MAX_NOTED:
            index = name - section.name_base
            self.notes.append(
                f"{self._describe()}: a mapping refers to name #{index}, the map has "
                f"{plural(section.name_count, 'name')}; that name is dropped"
            )
        return UNMAPPED
