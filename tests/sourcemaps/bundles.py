"""The committed fixture bundles (tests/fixtures/bundles/dist), loaded as a browser would
find their maps: from each script's ``sourceMappingURL``, as served from a local page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cdpilot.browser.sourcemaps import SourceEntry, SourceMap, locate_source_map, parse_source_map, split_lines

DIST = Path(__file__).resolve().parents[1] / "fixtures" / "bundles" / "dist"
SITE = "http://127.0.0.1:8000/dist/"
APP_BUNDLES = ("esbuild-external", "esbuild-inline", "esbuild-minified", "webpack", "index-map")
MARKER = re.compile(r"// @([a-z0-9-]+)")
MAP_COMMENT = re.compile(r"//# sourceMappingURL=(\S+)\s*$")


@dataclass(frozen=True)
class Bundle:
    name: str
    script_url: str
    script: str  # the generated JavaScript
    source_map: SourceMap

    def source(self, query: str) -> SourceEntry:
        found = self.source_map.find_sources(query)
        assert len(found) == 1, (query, found)
        return found[0]


def load_bundle(name: str, script: str = "app.js") -> Bundle:
    text = (DIST / name / script).read_text()
    comment = MAP_COMMENT.search(text)
    assert comment, f"{name}/{script} names no source map"
    script_url = f"{SITE}{name}/{script}"
    location = locate_source_map(script_url, comment.group(1))
    assert location is not None
    map_text = location.text if location.text is not None else (DIST / name / f"{script}.map").read_text()
    return Bundle(name, script_url, text, parse_source_map(map_text, location.url, base_url=location.base_url))


def markers(source: SourceEntry) -> dict[str, int]:
    """Each ``// @marker`` of a source's text and its 0-based line."""
    assert source.content is not None
    found: dict[str, int] = {}
    for line, text in enumerate(split_lines(source.content)):
        match = MARKER.search(text)
        if match:
            found[match.group(1)] = line
    return found
