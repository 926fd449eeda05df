"""The cache of parsed maps: bounded in bytes, least recently used evicted first."""

from __future__ import annotations

import pytest

from cdpilot.browser.sourcemaps import SourceMap, SourceMapCache, parse_source_map
from tests.sourcemaps.map_builder import map_json


def _map_of(size: int) -> SourceMap:
    text = map_json([[(0, 0, 0, 0)]])
    padded = text[:-1] + " " * (size - len(text)) + "}"
    source_map = parse_source_map(padded, f"http://h/{size}.map")
    assert source_map.size_bytes == size
    return source_map


def test_eviction_by_byte_bound_least_recently_used_first() -> None:
    cache = SourceMapCache(max_bytes=1000)
    assert cache.put("a", _map_of(300)) and cache.put("b", _map_of(300)) and cache.put("c", _map_of(300))
    assert (cache.total_bytes, cache.urls()) == (900, ("a", "b", "c"))
    assert cache.get("a") is not None  # a is now the most recently used
    assert cache.put("d", _map_of(300))
    assert (cache.total_bytes, cache.urls()) == (900, ("c", "a", "d"))
    assert "b" not in cache and cache.get("b") is None
    assert cache.put("e", _map_of(700))
    assert (cache.total_bytes, cache.urls()) == (1000, ("d", "e"))


def test_replacing_and_discarding_keep_the_count_right() -> None:
    cache = SourceMapCache(max_bytes=1000)
    cache.put("a", _map_of(400))
    cache.put("a", _map_of(500))
    assert (cache.total_bytes, len(cache)) == (500, 1)
    cache.discard("a")
    cache.discard("never")
    assert (cache.total_bytes, len(cache)) == (0, 0)
    cache.put("b", _map_of(200))
    cache.clear()
    assert (cache.total_bytes, cache.urls()) == (0, ())


def test_a_map_over_the_whole_bound_is_not_kept() -> None:
    cache = SourceMapCache(max_bytes=500)
    cache.put("a", _map_of(200))
    assert not cache.put("big", _map_of(501))
    assert cache.urls() == ("a",) and cache.total_bytes == 200


def test_a_cache_needs_room() -> None:
    with pytest.raises(ValueError, match="positive"):
        SourceMapCache(max_bytes=0)
