"""The answer of page_outline: one line per landmark, heading, table row and control, indented by structure.

A line reads ``role "name" = "value" [states] selector``, each part only when there is one; a
table reads as its caption and row count, its column headers and its rows' cells.

An outline that does not fit `max_chars` whole is a map first: every landmark, frame, heading
and table line is kept, and the details (controls, rows) fill what is left in document order.
In that map a long run of like controls (a nav of 120 links) is one line with its count and
first names, and a table shows its first rows, unless that run or table is the part asked for.
Whatever is left out is counted where it was, and the last line names the smallest parts that
hold it, never the part just outlined, and, for what those parts do not hold, the `offset` that
continues in page order, so the next call always shows something new.

An outline from an `offset` on is the entries from there in page order, whole, as many as fit:
its last line gives the offset that continues it, or says that it reached the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from cdpilot.browser.outline.outline_facts import PART_KINDS, OutlineEntry, PageOutline
from cdpilot.text import clip, one_line, plural

NAME_CHARS = 60
VALUE_CHARS = 40
URL_CHARS = 80
CELL_CHARS = 30
ROW_CHARS = 160
MOST_PARTS = 4  # parts named in the hint to narrow down
RUN_MIN = 8  # this many like controls in a row are one line in a map
RUN_NAMES = 5  # names a run's line shows
CUT_LINE_CHARS = 20  # a continuation's one entry, cut, keeps at least this much
TABLE_ROWS = 3  # rows a table shows in a map, unless it is the part asked for
TOP = -1  # the owner of what no part holds
# Above an outline holding a frame of another origin: its selectors are frame-scoped, as every element tool takes them.
FRAME_NOTE = (
    "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed."
)
SCOPE_CHARS = 200  # a longer selector asked for is shortened in the header and not repeated in the hint


def entry_line(entry: OutlineEntry) -> str:
    """``  checkbox "Remember me" [checked] #remember``; a table's ``table "Orders" #orders (200 rows)``;
    a row's ``row: "A-1" | "Ada"``."""
    indent = "  " * entry.depth
    if entry.kind == "row":
        return indent + clip("row: " + " | ".join(f'"{clip(c, CELL_CHARS)}"' for c in entry.cells), ROW_CHARS)
    parts = [indent + entry.role]
    if entry.name:
        parts.append(f'"{clip(entry.name, NAME_CHARS)}"')
    if entry.value:
        parts.append(f'= "{clip(entry.value, VALUE_CHARS)}"')
    if entry.states:
        parts.append(f"[{', '.join(entry.states)}]")
    if entry.selector:
        parts.append(entry.selector)
    if entry.kind == "table":
        parts.append(f"({plural(entry.rows, 'row')})")
    if entry.frame_url:
        parts.append(f"(cross-origin: {clip(one_line(entry.frame_url), URL_CHARS)})")
    if entry.not_outlined:
        parts.append(f"(cross-origin, not outlined: {entry.not_outlined})")
    return " ".join(parts)


def _entry_lines(entry: OutlineEntry) -> list[str]:
    """The entry's line; a table's column headers under it."""
    if entry.kind == "table" and entry.cells:
        headers = " | ".join(f'"{clip(c, CELL_CHARS)}"' for c in entry.cells)
        return [entry_line(entry), "  " * (entry.depth + 1) + clip("columns: " + headers, ROW_CHARS)]
    return [entry_line(entry)]


def _what(outline: PageOutline) -> str:
    """What the outline is of: ``"#orders"``, the page's title, or "the page"."""
    if outline.scope:
        what = f'"{clip(outline.scope, SCOPE_CHARS)}"'
    else:
        what = f'"{outline.title}"' if outline.title else "the page"
    if outline.scope_frame:
        what += f" in {clip(one_line(outline.scope_frame), URL_CHARS)}"
    return what


def _header(outline: PageOutline, span: str = "") -> str:
    """The first line (with `span`, e.g. `` from item 30 of 401``), and the notes on frames."""
    what = _what(outline) + span
    first = f"first of {outline.match_count} matches; " if outline.match_count > 1 else ""
    if not outline.entries:
        return f"Outline of {what}{f' ({first[:-2]})' if first else ''}: no landmarks, headings or controls."
    line = f'Outline of {what} ({first}{plural(outline.controls, "control")}; role "name" = value [state] selector):'
    if outline.cross_origin_frames or outline.scope_frame:
        line += f"\n{FRAME_NOTE}"
    if outline.not_outlined:
        line += f"\n{plural(outline.not_outlined, 'cross-origin iframe')} not outlined (reasons on their lines)."
    return line


@dataclass(frozen=True)
class _Unit:
    """Entries `first`..`end` (exclusive) of the outline as the lines a map gives them.

    A structure unit (landmark, frame, heading, table) is always in a map; a detail unit
    (a control, a run of like controls, a row with its controls) only while it fits. A run's
    line leaves out all but the names of its first controls: `summary`."""

    first: int
    end: int
    lines: tuple[str, ...]
    owner: int  # the innermost part holding it, or TOP
    structure: bool
    summary: bool = False


def _owners(entries: tuple[OutlineEntry, ...]) -> list[int]:
    """The innermost part holding each entry (TOP for none)."""
    owners: list[int] = []
    open_parts: list[int] = []
    for index, entry in enumerate(entries):
        while open_parts and open_parts[-1] + entries[open_parts[-1]].inside < index:
            open_parts.pop()
        owners.append(open_parts[-1] if open_parts else TOP)
        if entry.kind in PART_KINDS:
            open_parts.append(index)
    return owners


def _root(outline: PageOutline) -> int | None:
    """The part the outline was asked for, when it is its first entry and holds all the rest."""
    entries = outline.entries
    whole = bool(entries) and entries[0].kind in PART_KINDS and entries[0].inside == len(entries) - 1
    return 0 if outline.scope and whole else None


def _run_line(entries: tuple[OutlineEntry, ...]) -> str:
    """``  120 links: "Home", "Products", … (+115)``."""
    first = entries[0]
    names = ", ".join(f'"{clip(e.name, NAME_CHARS)}"' if e.name else "(no name)" for e in entries[:RUN_NAMES])
    roles = first.role + ("es" if first.role.endswith(("x", "s")) else "s")
    return "  " * first.depth + f"{plural(len(entries), first.role, roles)}: {names} … (+{len(entries) - RUN_NAMES})"


def _units(outline: PageOutline, owners: list[int], root: int | None) -> tuple[list[_Unit], set[int]]:
    """The outline as a map's units, and the rows it leaves out whatever the room: a table's past
    its first `TABLE_ROWS` (by the index of their first entry), unless the table is `root`."""
    entries = outline.entries
    units: list[_Unit] = []
    capped: set[int] = set()
    shown_rows: dict[int, int] = {}
    index = 0
    while index < len(entries):
        entry, owner = entries[index], owners[index]
        if entry.kind == "row":
            end = index + 1 + entry.inside
            shown_rows[owner] = shown_rows.get(owner, 0) + 1
            if owner != root and shown_rows[owner] > TABLE_ROWS:
                capped.add(index)
            lines = tuple(line for e in entries[index:end] for line in _entry_lines(e))
            units.append(_Unit(index, end, lines, owner, structure=False))
        elif entry.kind == "control":
            end = index + 1
            while end < len(entries) and _alike(entries[end], entry) and owners[end] == owner:
                end += 1
            if end - index >= RUN_MIN and owner not in (root, TOP):
                units.append(_Unit(index, end, (_run_line(entries[index:end]),), owner, False, summary=True))
            else:
                end = index + 1
                units.append(_Unit(index, end, (entry_line(entry),), owner, structure=False))
        else:
            end = index + 1
            units.append(_Unit(index, end, tuple(_entry_lines(entry)), owner, structure=True))
        index = end
    return units, capped


def _alike(entry: OutlineEntry, first: OutlineEntry) -> bool:
    return entry.kind == "control" and entry.role == first.role and entry.depth == first.depth


@dataclass
class _Left:
    """What a map leaves out of one part (or of what no part holds)."""

    items: int = 0
    rows: int = 0
    controls: int = 0

    def add(self, entries: tuple[OutlineEntry, ...]) -> None:
        self.items += len(entries)
        self.rows += sum(1 for e in entries if e.kind == "row")
        self.controls += sum(1 for e in entries if e.kind == "control")

    def marker_text(self, table: bool) -> str:
        """Where a part's entries stop: ``197 more rows (197 controls)`` in a table, else in items."""
        what = plural(self.rows, "more row") if table else plural(self.items, "more item")
        return what + (f" ({plural(self.controls, 'control')})" if self.controls else "")

    def total_text(self) -> str:
        """``509 items (197 rows, 312 controls)``."""
        counts = [plural(n, word) for n, word in ((self.rows, "row"), (self.controls, "control")) if n]
        return plural(self.items, "item") + (f" ({', '.join(counts)})" if counts else "")


def _map(
    outline: PageOutline, units: list[_Unit], capped: set[int], owners: list[int], *, structure: int, details: int,
    room: int,
) -> list[str]:  # fmt: skip
    """The map: its first `structure` structure units, the first `details` detail units that are
    not capped, each shown part's left-out entries counted after its last line shown, and the
    hint (in at most `room` characters) naming the parts to outline next and the offset that
    continues with the rest."""
    entries = outline.entries
    root = _root(outline)
    left: dict[int, _Left] = {}  # a part shown, or TOP -> what it holds that is not shown
    unseen: list[int] = []  # parts whose own line is not shown, outermost ones only
    hidden: list[range] = []  # the entries not shown, in page order
    lines: list[str] = []
    last_line: dict[int, int] = {}  # a part (or TOP) -> its last line shown
    summarized: set[int] = set()
    total, took_structure, took_details = _Left(), 0, 0
    for unit in units:
        held = entries[unit.first : unit.end]
        outer_unseen = next((p for p in _chain(owners, unit.owner) if p in unseen), None)
        if unit.structure and outer_unseen is None and took_structure < structure:
            took_structure += 1
        elif not unit.structure and outer_unseen is None and unit.first not in capped and took_details < details:
            took_details += 1
        else:
            total.add(held)
            hidden.append(range(unit.first, unit.end))
            if outer_unseen is None and unit.structure and entries[unit.first].kind in PART_KINDS:
                unseen.append(unit.first)
            elif outer_unseen is None:
                left.setdefault(unit.owner, _Left()).add(held)
            continue
        if unit.summary:
            summarized.add(unit.owner)
            total.add(held[RUN_NAMES:])
            hidden.append(range(unit.first + RUN_NAMES, unit.end))
        lines += unit.lines
        own = [unit.first] if entries[unit.first].kind in PART_KINDS else []
        for part in [*own, *_chain(owners, unit.owner)]:
            last_line[part] = len(lines) - 1
    depth = {TOP: -1, **{p: entries[p].depth for p in last_line if p != TOP}}
    for part in sorted(left, key=lambda p: (last_line.get(p, -1), -depth.get(p, -1)), reverse=True):
        at = last_line.get(part, -1) + 1
        if at < len(lines) or part not in (TOP, root):  # at the end, the hint says it
            lines.insert(
                at,
                "  " * (depth.get(part, -1) + 1)
                + f"…{left[part].marker_text(part != TOP and entries[part].kind == 'table')} not shown",
            )
    if total.items:
        short = sorted({*left, *summarized, *unseen} - {root, TOP})
        lines.append(_hint(outline, total, short, owners, hidden, room))
    return lines


def _chain(owners: list[int], part: int) -> list[int]:
    """`part` and the parts holding it, innermost first, then TOP."""
    found = []
    while part != TOP:
        found.append(part)
        part = owners[part]
    return [*found, TOP]


def _hint(
    outline: PageOutline, total: _Left, short: list[int], owners: list[int], hidden: list[range], room: int
) -> str:
    """What is not shown, and where to find it: the parts that left something out (`short`), as
    many as `room` holds, and for what none of those holds, the offset of the first such entry."""
    entries = outline.entries
    text = f"…{total.total_text()} not shown"
    named: list[int] = []
    parts = ""
    for part in (p for p in short if entries[p].selector):
        more = parts + (", " if parts else "") + f'"{entries[part].selector}" ({_size_text(entries[part])})'
        if len(named) == MOST_PARTS or len(text) + len(more) + len(_continue_text(outline, len(entries))) + 60 > room:
            break
        named.append(part)
        parts = more
    if named:
        unnamed = sum(1 for p in short if entries[p].selector) - len(named)
        more = f", and {plural(unnamed, 'more part')}" if unnamed else ""
        text += f". Outline one part with {{param:selector}}: {parts}{more}"
    rest = _first_unreached(entries, owners, hidden, set(named))
    if rest is None:
        return text + "."
    return text + (". Or, in page order, " if named else ": ") + _continue_text(outline, rest)


def _first_unreached(
    entries: tuple[OutlineEntry, ...], owners: list[int], hidden: list[range], named: set[int]
) -> int | None:
    """The first entry not shown that no part in `named` holds: where reading on in page order starts."""
    for span in sorted(hidden, key=lambda r: r.start):
        for index in span:
            holder = index if entries[index].kind in PART_KINDS else owners[index]
            if not named.intersection(_chain(owners, holder)):
                return index
    return None


def _continue_text(outline: PageOutline, offset: int) -> str:
    """``page_outline() with selector="#orders" and offset=29 continues.``"""
    if not outline.scope:
        where = ""
    elif len(outline.scope) > SCOPE_CHARS:
        where = "the same {param:selector} and "
    else:
        where = f"{{param:selector}}={json.dumps(outline.scope, ensure_ascii=False)} and "
    return f"{{tool:page_outline}} with {where}{{param:offset}}={offset} continues."


def _size_text(part: OutlineEntry) -> str:
    """How much a part holds: a table's rows, else its entries."""
    return plural(part.rows, "row") if part.kind == "table" else plural(part.inside, "item")


def outline_answer(outline: PageOutline, *, max_chars: int, offset: int = 0) -> str:
    """The outline in at most `max_chars` characters: from `offset` on, its entries in page order;
    else whole, or a map with as many details as fit, or as much of the map as fits."""
    if offset:
        return _continuation(outline, offset, max_chars)
    header = _header(outline)
    whole = "\n".join([header, *(line for entry in outline.entries for line in _entry_lines(entry))])
    if len(whole) <= max_chars:
        return whole
    owners = _owners(outline.entries)
    units, capped = _units(outline, owners, _root(outline))
    structure = sum(1 for unit in units if unit.structure)
    room = max_chars - len(header) - 1

    def fitting(*, structure: int, details: int) -> list[str] | None:
        lines = _map(outline, units, capped, owners, structure=structure, details=details, room=room)
        return lines if sum(1 + len(line) for line in lines) <= room else None

    # The more is shown, the longer the map: the largest count that fits is found by halving.
    best = fitting(structure=structure, details=0)
    if best is not None:
        details = _largest(len(units) - structure, lambda n: fitting(structure=structure, details=n) is not None)
        best = fitting(structure=structure, details=details) or best
    else:
        shown = _largest(structure, lambda n: fitting(structure=n, details=0) is not None)
        best = fitting(structure=shown, details=0) or _map(
            outline, units, capped, owners, structure=0, details=0, room=room
        )
    return "\n".join([header, *best])


def _largest(most: int, fits: Callable[[int], bool]) -> int:
    """The largest n in 0..`most` that `fits` (which holds up to some n and not past it), else 0."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _continuation(outline: PageOutline, offset: int, max_chars: int) -> str:
    """The entries from `offset` on, whole, as many as fit; the last line says where the next
    call starts, or that this is the end."""
    entries = outline.entries
    if offset >= len(entries):
        if not entries:
            return _header(outline)
        return (
            f"Outline of {_what(outline)}: nothing at {{param:offset}}={offset}, past its end: it has "
            f"{plural(len(entries), 'item')}, the last at {{param:offset}}={len(entries) - 1}."
        )
    blocks = [_entry_lines(entry) for entry in entries[offset:]]
    header = _header(outline, f" from item {offset + 1} of {len(entries)}")
    used = len(header)
    shown = 0
    for block in blocks:
        after = offset + shown + 1
        last = _end_line(outline, after)
        size = sum(1 + len(line) for line in block)
        if used + size + 1 + len(last) > max_chars and shown:
            break
        used += size
        shown += 1
    lines = [line for block in blocks[:shown] for line in block]
    last = _end_line(outline, offset + shown)
    room = max_chars - len(header) - len(last) - 2 - sum(1 + len(line) for line in lines[:-1])
    lines[-1] = clip(lines[-1], max(room, CUT_LINE_CHARS))  # one entry at least, however long
    return "\n".join([header, *lines, last])


def _end_line(outline: PageOutline, shown_to: int) -> str:
    """The last line of an outline from an offset that shows the entries up to `shown_to`."""
    entries = outline.entries
    if shown_to >= len(entries):
        return f"End of the outline: item {len(entries)} was its last."
    left = _Left()
    left.add(entries[shown_to:])
    return f"…{left.total_text()} not shown: {_continue_text(outline, shown_to)}"
