"""The large real map (tests/fixtures/bundles/dist/large): a minified ECharts bundle of about
5 MB of map, every source but its entry under node_modules/. Lookups agree in both directions at scale."""

from __future__ import annotations

import re

from cdpilot.browser.sourcemaps import GeneratedPosition, identifier_renames, parse_source_map, split_lines
from tests.sourcemaps.bundles import DIST

MAP = DIST / "large" / "echarts.js.map"
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def test_the_large_map_round_trips() -> None:
    text = MAP.read_text()
    assert len(text) > 3_000_000
    source_map = parse_source_map(text, "http://127.0.0.1:8000/dist/large/echarts.js.map")
    assert len(source_map.sources) > 400
    assert [source.name for source in source_map.sources if not source.ignored] == ["large/echarts-entry.js"]
    (line_view,) = source_map.find_sources("chart/line/LineView.js")
    assert line_view.name == "node_modules/echarts/lib/chart/line/LineView.js"
    lines = source_map.mapped_lines(line_view)
    assert len(lines) > 100 and line_view.line_count is not None and lines[-1] < line_view.line_count
    for line in lines[:: len(lines) // 20]:
        lookup = source_map.generated_positions(line_view, line)
        assert lookup is not None and not lookup.moved and lookup.positions
        for position in lookup.positions:
            back = source_map.original_position(position.line, position.column)
            assert back is not None and (back.source.url, back.line) == (line_view.url, line)
    assert source_map.notes() == ()


def test_minified_names_in_the_large_map_are_original_identifiers() -> None:
    source_map = parse_source_map(MAP.read_bytes(), "http://127.0.0.1:8000/dist/large/echarts.js.map")
    generated = (DIST / "large" / "echarts.js").read_text()
    script = split_lines(generated)
    line = max(range(len(script)), key=lambda number: len(script[number]))
    named = source_map.named_positions(GeneratedPosition(line, 0), GeneratedPosition(line + 1, 0))
    assert len(named) > 10_000
    for position in named[::500]:
        assert IDENTIFIER.match(script[line], position.column), position
        assert IDENTIFIER.fullmatch(position.name), position
        assert source_map.name_at(position.line, position.column) == position.name
    renames = identifier_renames(generated, named)
    assert len(renames) > 100 and all(IDENTIFIER.fullmatch(name) for name in renames.values())
