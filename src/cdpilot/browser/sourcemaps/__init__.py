"""Source maps (version 3) for the debugger, without I/O: text in, lookups out.

Finding a script's map (`locate_source_map`), parsing it (`parse_source_map`), asking it
where a generated position came from and where an original line runs (`SourceMap`), and
keeping parsed maps within a memory bound (`SourceMapCache`). Fetching a map and talking to
the browser belong to the debugger, which calls in here.
"""

from __future__ import annotations

from cdpilot.browser.sourcemaps.map_cache import DEFAULT_CACHE_BYTES, SourceMapCache
from cdpilot.browser.sourcemaps.map_parsing import DEFAULT_MAX_MAP_BYTES, parse_source_map
from cdpilot.browser.sourcemaps.map_urls import decode_data_url, locate_source_map, resolve_url, source_url
from cdpilot.browser.sourcemaps.source_map import SourceMap, function_name, identifier_renames
from cdpilot.browser.sourcemaps.source_names import display_name, matches_path, source_matches
from cdpilot.browser.sourcemaps.sourcemap_facts import (
    GeneratedLookup,
    GeneratedPosition,
    NamedPosition,
    OriginalPosition,
    SourceEntry,
    SourceMapLocation,
    split_lines,
)
from cdpilot.browser.sourcemaps.vlq_mappings import decode_vlq

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_MAX_MAP_BYTES",
    "GeneratedLookup",
    "GeneratedPosition",
    "NamedPosition",
    "OriginalPosition",
    "SourceEntry",
    "SourceMap",
    "SourceMapCache",
    "SourceMapLocation",
    "decode_data_url",
    "decode_vlq",
    "display_name",
    "function_name",
    "identifier_renames",
    "locate_source_map",
    "matches_path",
    "parse_source_map",
    "resolve_url",
    "source_matches",
    "source_url",
    "split_lines",
]
