"""Every way a map can be wrong, and the exact words the user reads: refused maps raise
`SourceMapError`; a map with a few bad mappings is kept, those mappings dropped with a note."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cdpilot.browser.sourcemaps import parse_source_map
from cdpilot.browser.sourcemaps.vlq_mappings import MAX_NOTED
from cdpilot.errors import SourceMapError
from tests.sourcemaps.map_builder import Segment, encode_mappings, map_json

URL = "http://h/dist/app.js.map"
WHO = f"source map {URL}"
INNER = {"version": 3, "sources": ["a.js"], "names": [], "mappings": "AAAA"}


def _index(*sections: dict[str, Any]) -> str:
    return json.dumps({"version": 3, "sections": list(sections)})


def _section(line: int, column: int = 0, **fields: Any) -> dict[str, Any]:
    return {"offset": {"line": line, "column": column}, **fields}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 3,', "not JSON (Expecting property name enclosed in double quotes at line 1 column 15)"),
        ("", "not JSON (Expecting value at line 1 column 1)"),
        ("[3]", "not a JSON object"),
        ('{"version": 2, "sources": [], "mappings": ""}', "version 2; only version 3 is supported"),
        ('{"version": "3", "sources": [], "mappings": ""}', "version '3'; only version 3 is supported"),
        ('{"sources": [], "mappings": ""}', "no version; only version 3 is supported"),
        ('{"version": 3, "sources": "a.js", "mappings": ""}', "sources is not a list"),
        ('{"version": 3, "mappings": ""}', "sources is not a list"),
        ('{"version": 3, "sources": [7], "mappings": ""}', "source #0 is not a string"),
        ('{"version": 3, "sources": [], "mappings": 5}', "mappings is not a string"),
        ('{"version": 3, "sources": [], "sourceRoot": 1, "mappings": ""}', "sourceRoot is not a string"),
        ('{"version": 3, "sources": [], "names": {}, "mappings": ""}', "names is not a list"),
        ('{"version": 3, "sections": [], "mappings": ""}', "an index map (with sections) cannot have mappings too"),
        ('{"version": 3, "sections": {}}', "sections is not a list"),
        (
            _index(_section(0, url="other.js.map")),
            "section #0 refers to another map by url (other.js.map); that is not supported",
        ),
        (_index(_section(0, url="app.js.map")), "section #0 refers to the map itself (a cycle)"),
        (_index(_section(0, map=INNER), _section(5, url=URL)), "section #1 refers to the map itself (a cycle)"),
        (
            _index(_section(0, map=INNER), _section(4, map=json.loads(_index(_section(0, map=INNER))))),
            "section #1 is itself an index map; nested index maps are not supported",
        ),
        (_index(_section(0)), "section #0 has no map"),
        (_index({"map": INNER}), "section #0 has no offset"),
        (_index(_section(-1, map=INNER)), "section #0 offset is not a line and column from 0"),
        (
            _index(_section(3, 4, map=INNER), _section(3, 4, map=INNER)),
            "sections are out of order: section #1 starts at line 4 column 5, not after section #0",
        ),
        (_index(_section(0, map={**INNER, "version": 2})), "section #0: version 2; only version 3 is supported"),
        (_index(_section(0, map=[])), "section #0: not a JSON object"),
    ],
)
def test_refused_maps(text: str, message: str) -> None:
    with pytest.raises(SourceMapError) as caught:
        parse_source_map(text, URL)
    assert str(caught.value) == f"{WHO}: {message}"


def test_size_limit() -> None:
    text = map_json([[(0, 0, 0, 0)]])
    with pytest.raises(SourceMapError) as caught:
        parse_source_map(text, URL, max_bytes=50)
    assert str(caught.value) == f"{WHO}: {len(text)} bytes, over the 50-byte limit"
    with pytest.raises(SourceMapError, match="1,234,567 bytes, over the 1,000,000-byte limit"):
        parse_source_map(b" " * 1_234_567, URL, max_bytes=1_000_000)
    assert parse_source_map(text, URL, max_bytes=len(text)).sources


def test_text_that_is_not_utf8() -> None:
    with pytest.raises(SourceMapError, match=r"^source map http://h/dist/app\.js\.map: not UTF-8 text \("):
        parse_source_map(b'{"version": 3, "sources": ["\xff"]}', URL)


@pytest.mark.parametrize(
    ("mappings", "message"),
    [
        ("AAAA;AA*A", "mappings unreadable at generated line 2: '*' is not a base64 digit"),
        ("AAAA,Ag", "mappings unreadable at generated line 1: the last value is cut off"),
        (";;gggggggB", "mappings unreadable at generated line 3: a value is longer than 32 bits"),
    ],
)
def test_unreadable_mappings_fail_at_the_first_lookup(mappings: str, message: str) -> None:
    source_map = parse_source_map(json.dumps({**INNER, "mappings": mappings}), URL)
    with pytest.raises(SourceMapError) as caught:
        source_map.original_position(0, 0)
    assert str(caught.value) == f"{WHO}: {message}"


def test_a_mapping_to_a_missing_source_is_dropped_with_a_note() -> None:
    text = map_json([[(0, 0, 0, 0)], [], [(0, 9, 0, 0), (4, 1, 0, 0)]], sources=["a.js", "b.js"])
    source_map = parse_source_map(text, URL)
    assert source_map.notes() == (
        f"{WHO}: mapping at generated line 3 refers to source #9, the map has 2 sources; that mapping is dropped",
    )
    assert source_map.original_position(2, 2) is None
    kept = source_map.original_position(2, 4)
    assert kept is not None and kept.source.name == "b.js"


@pytest.mark.parametrize(
    ("segments", "note"),
    [
        (
            [(0, 0, -1, 0)],
            "mapping at generated line 1 refers to an original line before the first; that mapping is dropped",
        ),
        (
            [(0, 0, 0, -2)],
            "mapping at generated line 1 refers to an original column before the first; that mapping is dropped",
        ),
        ([(0, 0, 0, 0, 3)], "a mapping refers to name #3, the map has 1 name; that name is dropped"),
        (
            [(0, -1, 0, 0)],
            "mapping at generated line 1 refers to source #-1, the map has 1 source; that mapping is dropped",
        ),
        ([(0, 0)], "a segment at generated line 1 has 2 fields; that mapping is dropped"),
        ([(0, 0, 0)], "a segment at generated line 1 has 3 fields; that mapping is dropped"),
        ([(0, 0, 0, 0, 0, 0)], "a segment at generated line 1 has 6 fields; that mapping is dropped"),
    ],
)
def test_bad_segments_are_noted(segments: list[tuple[int, ...]], note: str) -> None:
    source_map = parse_source_map(map_json([segments], names=["n"]), URL)
    assert source_map.notes() == (f"{WHO}: {note}",)


def test_a_name_out_of_range_keeps_the_position() -> None:
    source_map = parse_source_map(map_json([[(0, 0, 3, 1, 3)]], names=["n"]), URL)
    position = source_map.original_position(0, 0)
    assert position is not None and (position.line, position.column, position.name) == (3, 1, None)


def test_many_bad_segments_are_counted_not_listed() -> None:
    bad: list[list[Segment]] = [[(column, 5, 0, 0) for column in range(0, 40, 4)]]
    source_map = parse_source_map(map_json(bad), URL)
    notes = source_map.notes()
    assert len(notes) == MAX_NOTED + 1
    assert notes[-1] == f"{WHO}: {10 - MAX_NOTED} more bad segments dropped"


def test_columns_out_of_order_are_sorted_and_negative_ones_dropped() -> None:
    unordered = encode_mappings([[(10, 0, 1, 0), (4, 0, 2, 0)], [(0, 0, 3, 0)]])
    source_map = parse_source_map(json.dumps({**INNER, "mappings": unordered}), URL)
    lines = [(p.line if (p := source_map.original_position(0, column)) else None) for column in (3, 4, 9, 10)]
    assert lines == [None, 2, 2, 1]
    assert source_map.notes() == (f"{WHO}: generated line 1 has mappings out of column order; sorted",)

    negative = encode_mappings([[(-3, 0, 1, 0), (2, 0, 2, 0)], [(0, 0, 3, 0)]])
    source_map = parse_source_map(json.dumps({**INNER, "mappings": negative}), URL)
    assert source_map.notes() == (f"{WHO}: generated line 1 has 1 mapping before column 1, dropped",)
    assert source_map.original_position(0, 1) is None
    assert source_map.mapped_lines(source_map.sources[0]) == (2, 3)
    after = source_map.original_position(1, 0)  # the later line still finds its segment once one is dropped
    assert after is not None and after.line == 3

    both = encode_mappings([[(5, 0, 1, 0), (-3, 0, 2, 0), (1, 0, 3, 0)]])
    source_map = parse_source_map(json.dumps({**INNER, "mappings": both}), URL)
    assert source_map.notes() == (
        f"{WHO}: generated line 1 has mappings out of column order; sorted and 1 mapping before column 1, dropped",
    )


def test_overlapping_sections_keep_the_later_one() -> None:
    long_map = {**INNER, "mappings": encode_mappings([[(0, 0, 0, 0)], [(0, 0, 1, 0), (20, 0, 1, 5)], [(0, 0, 2, 0)]])}
    other = {**INNER, "sources": ["b.js"]}
    source_map = parse_source_map(_index(_section(0, map=long_map), _section(1, 10, map=other)), URL)
    assert source_map.notes() == (f"{WHO}: sections overlap; 2 mappings after generated line 2 column 11 are dropped",)
    found = [
        (p.source.name, p.line) if (p := source_map.original_position(*place)) else None
        for place in ((1, 5), (1, 25), (2, 0))
    ]
    assert found == [("a.js", 1), ("b.js", 0), None]


def test_bad_entries_of_ignore_list_and_names_are_noted() -> None:
    text = map_json([[(0, 0, 0, 0, 1)]], names=[1, "ok"], ignoreList=[0, 4])
    source_map = parse_source_map(text, URL)
    assert source_map.notes() == (
        f"{WHO}: ignoreList names source #4, the map has 1 source; left out",
        f"{WHO}: names #0 is not a string; it is left out",
    )
    assert source_map.sources[0].ignored
    position = source_map.original_position(0, 0)
    assert position is not None and position.name == "ok"
