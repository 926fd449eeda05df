"""Index maps (``sections``): the fixture's two real bundles concatenated on one line, so the
second section starts at a line and a column; lookups in it are the standalone bundle's, shifted."""

from __future__ import annotations

import json

from cdpilot.browser.sourcemaps import OriginalPosition, parse_source_map, split_lines
from tests.sourcemaps.bundles import DIST, load_bundle


def _same(left: OriginalPosition | None, right: OriginalPosition | None) -> bool:
    if left is None or right is None:
        return left is right
    return (left.source.url, left.line, left.column, left.name) == (
        right.source.url,
        right.line,
        right.column,
        right.name,
    )


def test_the_second_section_is_the_minified_bundle_shifted_by_its_offset() -> None:
    index = load_bundle("index-map")
    minified = load_bundle("esbuild-minified")
    offset = json.loads((DIST / "index-map" / "app.js.map").read_text())["sections"][1]["offset"]
    assert (offset["line"], offset["column"]) == (45, 5)
    minified_line = split_lines(minified.script)[0]
    assert split_lines(index.script)[45][5:] == minified_line
    for column in range(len(minified_line) + 1):
        shifted = index.source_map.original_position(45, 5 + column)
        assert _same(shifted, minified.source_map.original_position(0, column)), column


def test_the_first_section_keeps_its_own_lines() -> None:
    index = load_bundle("index-map").source_map
    last = index.original_position(43, 2)
    assert last is not None and (last.source.name, last.line) == ("app/src/cart.ts", 28)
    assert [index.original_position(45, column) for column in range(5)] == [None] * 5


def test_a_section_cuts_off_the_mapping_before_it() -> None:
    """A lookup after a section's start but before its first segment finds nothing, not the
    previous section's last mapping on that line."""
    text = json.dumps(
        {
            "version": 3,
            "sections": [
                {"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": ["a.js"], "mappings": "AAAA"}},
                {"offset": {"line": 0, "column": 10}, "map": {"version": 3, "sources": ["b.js"], "mappings": "EAAA"}},
            ],
        }
    )
    index = parse_source_map(text, "http://h/m.map")
    names = [
        (p.source.name if (p := index.original_position(0, column)) else None) for column in (0, 9, 10, 11, 12, 99)
    ]
    assert names == ["a.js", "a.js", None, None, "b.js", "b.js"]


def test_a_file_in_both_sections_is_one_source_with_positions_in_both() -> None:
    index = load_bundle("index-map")
    assert [s.name for s in index.source_map.sources].count("app/src/cart.ts") == 2
    (cart,) = index.source_map.find_sources("cart.ts")
    lookup = index.source_map.generated_positions(cart, 19)
    assert lookup is not None
    assert {position.line for position in lookup.positions} == {35, 36, 45}
    assert lookup.positions == tuple(sorted(lookup.positions, key=lambda p: (p.line, p.column)))
    later_mention = index.source_map.sources[3]
    assert later_mention.url == cart.url
    assert index.source_map.generated_positions(later_mention, 19) == lookup.__class__(
        later_mention, 19, 19, lookup.runs
    )


def test_sections_with_a_column_offset_shift_only_their_first_line() -> None:
    inner = {"version": 3, "sources": ["a.js"], "names": [], "mappings": "AAAA;AACA"}
    text = json.dumps(
        {
            "version": 3,
            "sections": [
                {"offset": {"line": 0, "column": 0}, "map": {**inner, "sources": ["first.js"]}},
                {"offset": {"line": 2, "column": 10}, "map": inner},
            ],
        }
    )
    index = parse_source_map(text, "http://h/bundle.js.map")
    first = index.original_position(0, 50)
    assert first is not None and (first.source.name, first.line) == ("first.js", 0)
    assert index.original_position(2, 9) is None  # the gap before section 1 maps to nothing
    start = index.original_position(2, 10)
    assert start is not None and (start.source.url, start.line, start.column) == ("http://h/a.js", 0, 0)
    next_line = index.original_position(3, 0)
    assert next_line is not None and next_line.line == 1
