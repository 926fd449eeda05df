"""The parsed source maps kept between lookups, within a memory bound.

Why a bound in bytes rather than a count: one map of a large app can weigh as much as a
hundred small ones. A map is counted by its text length (`SourceMap.size_bytes`), known
before anything is decoded; what a parsed and decoded map keeps in memory is about three
times that (the 5.4 MB ECharts map of the fixtures keeps 17 MB, its sources' text included),
which the default bound allows for. The least recently used maps go first. A map larger than
the whole bound is not kept at all (it would evict everything and then itself).

Keys are the maps' URLs as `locate_source_map` gives them (an inline map's data: URL is its own
key). Pure and synchronous: fetching a missing map is the caller's job.
"""

from __future__ import annotations

from collections import OrderedDict

from cdpilot.browser.sourcemaps.source_map import SourceMap

DEFAULT_CACHE_BYTES = 32 * 1024 * 1024  # of map text: about 100 MB of memory


class SourceMapCache:
    """Parsed maps by URL, least recently used evicted first once `max_bytes` is passed."""

    def __init__(self, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        if max_bytes <= 0:
            raise ValueError("a source map cache needs a positive size")
        self.max_bytes = max_bytes
        self._maps: OrderedDict[str, SourceMap] = OrderedDict()
        self._bytes = 0

    @property
    def total_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._maps)

    def __contains__(self, url: object) -> bool:
        return url in self._maps

    def get(self, url: str) -> SourceMap | None:
        """The map kept for `url`, now the most recently used; None when not kept."""
        found = self._maps.get(url)
        if found is not None:
            self._maps.move_to_end(url)
        return found

    def put(self, url: str, source_map: SourceMap) -> bool:
        """Keep `source_map` for `url`, evicting the least recently used maps past the bound.
        False when the map alone is over the bound, and so is not kept."""
        self.discard(url)
        if source_map.size_bytes > self.max_bytes:
            return False
        self._maps[url] = source_map
        self._bytes += source_map.size_bytes
        while self._bytes > self.max_bytes:
            _, evicted = self._maps.popitem(last=False)
            self._bytes -= evicted.size_bytes
        return True

    def discard(self, url: str) -> None:
        """Forget the map of `url`, if kept (the script was reloaded, the map changed)."""
        gone = self._maps.pop(url, None)
        if gone is not None:
            self._bytes -= gone.size_bytes

    def clear(self) -> None:
        self._maps.clear()
        self._bytes = 0

    def urls(self) -> tuple[str, ...]:
        """The kept URLs, least recently used first."""
        return tuple(self._maps)
