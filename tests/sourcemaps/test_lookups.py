"""Lookups on small hand-made maps whose every segment is known: the edges of each question."""

from __future__ import annotations

import pytest

from cdpilot.browser.sourcemaps import GeneratedPosition, parse_source_map
from tests.sourcemaps.map_builder import map_json

# Generated line 0: columns 0, 10, 20 from a.ts lines 0, 2, 2 (line 2 twice, columns 4 and 8);
# generated line 1: column 5 unmapped, column 7 from a.ts line 5, column 30 from b.ts line 0;
# generated line 2: a.ts line 2 column 8 again (duplicated code), then a.ts line 2 column 1.
SMALL = map_json(
    [
        [(0, 0, 0, 0), (10, 0, 2, 4, 0), (20, 0, 2, 8)],
        [(5,), (7, 0, 5, 0, 1), (30, 1, 0, 0)],
        [(3, 0, 2, 8), (9, 0, 2, 1)],
    ],
    sources=["a.ts", "b.ts"],
    names=["first", "second"],
    sourcesContent=["l0\nl1\nl2\nl3\nl4\nl5\nl6\nl7"],
)


def test_generated_to_original_takes_the_segment_at_or_before() -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    found = [
        (p.source.name, p.line, p.column, p.name) if (p := source_map.original_position(0, c)) else None
        for c in (0, 9, 10, 19, 25)
    ]
    assert found == [
        ("a.ts", 0, 0, None),
        ("a.ts", 0, 0, None),
        ("a.ts", 2, 4, "first"),
        ("a.ts", 2, 4, "first"),
        ("a.ts", 2, 8, None),
    ]
    assert source_map.original_position(1, 4) is None  # nothing before column 5
    assert source_map.original_position(1, 6) is None  # an unmapped segment
    position = source_map.original_position(1, 8)
    assert position is not None and (position.line, position.name) == (5, "second")
    assert source_map.original_position(7, 0) is None and source_map.original_position(-1, 0) is None


def test_original_to_generated_gives_every_copy_in_generated_order() -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    (a,) = source_map.find_sources("a.ts")
    lookup = source_map.generated_positions(a, 2)
    assert lookup is not None and not lookup.moved
    assert lookup.positions == (
        GeneratedPosition(0, 10),
        GeneratedPosition(0, 20),
        GeneratedPosition(2, 3),
        GeneratedPosition(2, 9),
    )


@pytest.mark.parametrize(
    ("column", "positions"),
    [
        (0, ((2, 9),)),  # the nearest original column at or after 0 is 1
        (2, ((0, 10),)),  # column 4
        (5, ((0, 20), (2, 3))),  # column 8, both copies
        (9, ((2, 9),)),  # nothing at or after 9: the first column on the line
    ],
)
def test_a_column_prefers_the_nearest_segment_at_or_after_it(
    column: int, positions: tuple[tuple[int, int], ...]
) -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    lookup = source_map.generated_positions(source_map.sources[0], 2, column)
    assert lookup is not None
    assert lookup.positions == tuple(GeneratedPosition(*position) for position in positions)


def test_a_line_without_code_moves_to_the_next_line_with_some() -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    a = source_map.sources[0]
    lookup = source_map.generated_positions(a, 3, column=7)
    assert lookup is not None and lookup.moved and (lookup.requested_line, lookup.line) == (3, 5)
    assert lookup.positions == (GeneratedPosition(1, 7),)
    assert source_map.generated_positions(a, 6) is None  # past the last line with code
    assert source_map.mapped_lines(a) == (0, 2, 5)
    assert a.line_count == 8
    assert source_map.sources[1].line_count is None  # no sourcesContent for it


def test_named_positions_cover_a_range_end_excluded() -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    named = source_map.named_positions(GeneratedPosition(0, 10), GeneratedPosition(1, 7))
    assert [(p.line, p.column, p.name) for p in named] == [(0, 10, "first")]
    everything = source_map.named_positions(GeneratedPosition(0, 0), GeneratedPosition(9, 0))
    assert [p.name for p in everything] == ["first", "second"]
    assert source_map.name_at(0, 10) == "first" and source_map.name_at(0, 11) is None


def test_a_source_of_another_map_is_refused() -> None:
    source_map = parse_source_map(SMALL, "http://h/dist/app.js.map")
    other = parse_source_map(SMALL, "http://h/other/app.js.map")
    with pytest.raises(ValueError, match=r"^a\.ts is not a source of the source map http://h/dist/app\.js\.map$"):
        source_map.generated_positions(other.sources[0], 0)


def test_sources_content_may_be_short_or_null_and_sources_may_be_null() -> None:
    text = map_json([[(0, 0, 0, 0), (4, 2, 0, 0)]], sources=["a.ts", None, "c.ts"], sourcesContent=[None, "x"])
    source_map = parse_source_map(text, "http://h/m.map")
    assert [(s.name, s.url, s.content) for s in source_map.sources] == [
        ("a.ts", "http://h/a.ts", None),
        ("(unnamed source #1)", "", "x"),
        ("c.ts", "http://h/c.ts", None),
    ]
    position = source_map.original_position(0, 5)
    assert position is not None and position.source.name == "c.ts"


@pytest.mark.parametrize(
    ("fields", "ignored"),
    [
        ({"ignoreList": [1]}, [False, True, False]),
        ({"x_google_ignoreList": [0]}, [True, False, False]),
        ({"ignoreList": [2], "x_google_ignoreList": [0]}, [False, False, True]),
        ({}, [False, False, True]),
    ],
)
def test_ignore_lists(fields: dict[str, list[int]], ignored: list[bool]) -> None:
    sources = ["src/a.ts", "vendor/b.js", "../node_modules/c/index.js"]
    source_map = parse_source_map(map_json([[(0, 0, 0, 0)]], sources=sources, **fields), "http://h/dist/m.map")
    expected = [flag or index == 2 for index, flag in enumerate(ignored)]
    assert [s.ignored for s in source_map.sources] == expected


def test_find_sources_returns_every_match() -> None:
    text = map_json([[(0, 0, 0, 0)]], sources=["src/cart.ts", "lib/cart.ts", "src/carts.ts"])
    source_map = parse_source_map(text, "http://h/m.map")
    assert [s.name for s in source_map.find_sources("cart.ts")] == ["src/cart.ts", "lib/cart.ts"]
    assert [s.name for s in source_map.find_sources("src/cart.ts")] == ["src/cart.ts"]
    assert source_map.find_sources("art.ts") == ()
    assert [s.name for s in source_map.find_sources("http://h/lib/cart.ts")] == ["lib/cart.ts"]


def test_text_forms_bytes_bom_and_xssi_prefix() -> None:
    for text in (SMALL.encode(), "\ufeff" + SMALL, ")]}'\n" + SMALL, b"\xef\xbb\xbf" + SMALL.encode()):
        source_map = parse_source_map(text, "http://h/m.map")
        assert [s.name for s in source_map.sources] == ["a.ts", "b.ts"]


def test_an_inline_map_resolves_against_the_script_and_names_it_in_messages() -> None:
    source_map = parse_source_map(SMALL, "data:application/json,...", base_url="http://h/dist/app.js")
    assert source_map.sources[0].url == "http://h/dist/a.ts"
    assert source_map.label == "inline source map of http://h/dist/app.js"
