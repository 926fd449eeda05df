"""Reading a source map's JSON (version 3, plain or index map) into a `SourceMap`.

Why eager here and lazy later: the JSON, the sources and the names are read at once, so a map
that is not a map fails where it is loaded, with one `SourceMapError` that names it; the
``mappings`` text, most of a map's cost, is kept as text until the first lookup decodes it.

What is refused (raises): text over the size limit, text that is not JSON or not an object,
a version other than 3, fields of the wrong type, and for index maps: a section without an
embedded ``map``, a section that points at a map by ``url`` (not supported; one that points
at this very map is called out as the cycle it is), a section that is itself an index map,
sections out of order. What is kept with a note: an ignoreList index out of range, a name
that is not a string; mappings out of range are dropped when decoded (see `vlq_mappings`).
"""

from __future__ import annotations

import json
from typing import Any

from cdpilot.browser.sourcemaps.map_urls import label, resolve_url, with_source_root
from cdpilot.browser.sourcemaps.source_map import SourceMap
from cdpilot.browser.sourcemaps.source_names import display_name, is_library
from cdpilot.browser.sourcemaps.sourcemap_facts import SourceEntry
from cdpilot.browser.sourcemaps.vlq_mappings import Section
from cdpilot.errors import SourceMapError
from cdpilot.text import plural

DEFAULT_MAX_MAP_BYTES = 64 * 1024 * 1024
XSSI_PREFIX = ")]}'"  # servers may guard JSON with it; the map spec says to skip that line


def parse_source_map(
    text: str | bytes, map_url: str = "", *, base_url: str | None = None, max_bytes: int = DEFAULT_MAX_MAP_BYTES
) -> SourceMap:
    """The map in `text`, loaded from `map_url` (its identity, and the name in messages).

    Sources resolve against `base_url`, by default `map_url`; for an inline map, pass the
    script's URL (see `locate_source_map`). Sizes are counted in bytes for bytes and in
    characters for text."""
    base = map_url if base_url is None else base_url
    reader = _Reader(label(map_url, base), base)
    if len(text) > max_bytes:
        raise SourceMapError(f"{reader.label}: {len(text):,} bytes, over the {max_bytes:,}-byte limit")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SourceMapError(f"{reader.label}: not UTF-8 text ({exc})") from exc
    body = text.lstrip("\ufeff")
    if body.startswith(XSSI_PREFIX):
        body = body.partition("\n")[2]
    try:
        payload = json.loads(body)
    except json.JSONDecodeError as exc:
        raise SourceMapError(f"{reader.label}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    reader.read(payload, map_url)
    return SourceMap(
        map_url=map_url,
        label=reader.label,
        file=reader.file,
        sources=tuple(reader.sources),
        names=tuple(reader.names),
        parts=tuple(reader.parts),
        notes=tuple(reader.notes),
        size_bytes=len(text),
    )


class _Reader:
    """Collects the sources, names and mappings of a map and of its sections, merged."""

    def __init__(self, map_label: str, base_url: str) -> None:
        self.label = map_label
        self.base_url = base_url
        self.file: str | None = None
        self.sources: list[SourceEntry] = []
        self.names: list[str] = []
        self.parts: list[tuple[str, Section]] = []
        self.notes: list[str] = []

    def read(self, payload: Any, map_url: str) -> None:
        top = self._object(payload, "")
        self.file = self._optional_string(top, "file", "")
        if "sections" not in top:
            self._map(top, "", Section())
            return
        if "mappings" in top:
            raise SourceMapError(f"{self.label}: an index map (with sections) cannot have mappings too")
        sections = top["sections"]
        if not isinstance(sections, list):
            raise SourceMapError(f"{self.label}: sections is not a list")
        previous = (-1, -1)
        for number, section in enumerate(sections):
            where = f"section #{number}"
            if not isinstance(section, dict):
                raise SourceMapError(f"{self.label}: {where} is not an object")
            offset = self._offset(section.get("offset"), where)
            if offset <= previous:
                raise SourceMapError(
                    f"{self.label}: sections are out of order: {where} starts at line {offset[0] + 1} column "
                    f"{offset[1] + 1}, not after section #{number - 1}"
                )
            previous = offset
            if "url" in section:
                self._refuse_url(section["url"], where, map_url)
            if "map" not in section:
                raise SourceMapError(f"{self.label}: {where} has no map")
            nested = self._object(section["map"], f"{where}: ")
            if "sections" in nested:
                raise SourceMapError(
                    f"{self.label}: {where} is itself an index map; nested index maps are not supported"
                )
            self._map(nested, f"{where}: ", Section(line=offset[0], column=offset[1]))

    def _map(self, raw: dict[str, Any], where: str, place: Section) -> None:
        root = self._optional_string(raw, "sourceRoot", where) or ""
        sources = self._list(raw, "sources", where)
        contents = self._list(raw, "sourcesContent", where) if raw.get("sourcesContent") is not None else []
        names = self._list(raw, "names", where) if "names" in raw else []
        mappings = raw.get("mappings", "")
        if not isinstance(mappings, str):
            raise SourceMapError(f"{self.label}: {where}mappings is not a string")
        ignored = self._ignore_list(raw, where, len(sources))
        base = len(self.sources)
        for index, source in enumerate(sources):
            if source is not None and not isinstance(source, str):
                raise SourceMapError(f"{self.label}: {where}source #{index} is not a string")
            content = contents[index] if index < len(contents) and isinstance(contents[index], str) else None
            if source is None:
                url, name, library = "", f"(unnamed source #{index})", False
            else:
                rooted = with_source_root(source, root)
                url = resolve_url(self.base_url, rooted)
                name = display_name(rooted, url)
                library = is_library(name, url)
            self.sources.append(SourceEntry(base + index, url, name, content, index in ignored or library))
        bad_names = [index for index, name in enumerate(names) if not isinstance(name, str)]
        if bad_names:
            self.notes.append(f"{self.label}: {where}names #{bad_names[0]} is not a string; it is left out")
        name_base = len(self.names)
        self.names.extend(name if isinstance(name, str) else "" for name in names)
        self.parts.append(
            (
                mappings,
                Section(place.line, place.column, base, len(sources), name_base, len(names)),
            )
        )

    def _object(self, raw: Any, where: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise SourceMapError(f"{self.label}: {where}not a JSON object")
        if "version" not in raw:
            raise SourceMapError(f"{self.label}: {where}no version; only version 3 is supported")
        if raw["version"] != 3 or isinstance(raw["version"], bool):
            raise SourceMapError(f"{self.label}: {where}version {raw['version']!r}; only version 3 is supported")
        return raw

    def _list(self, raw: dict[str, Any], field: str, where: str) -> list[Any]:
        value = raw.get(field)
        if not isinstance(value, list):
            raise SourceMapError(f"{self.label}: {where}{field} is not a list")
        return value

    def _optional_string(self, raw: dict[str, Any], field: str, where: str) -> str | None:
        value = raw.get(field)
        if value is not None and not isinstance(value, str):
            raise SourceMapError(f"{self.label}: {where}{field} is not a string")
        return value

    def _ignore_list(self, raw: dict[str, Any], where: str, count: int) -> set[int]:
        field = "ignoreList" if "ignoreList" in raw else "x_google_ignoreList"
        if raw.get(field) is None:
            return set()
        indexes = self._list(raw, field, where)
        wrong = [index for index in indexes if not isinstance(index, int) or not 0 <= index < count]
        if wrong:
            self.notes.append(
                f"{self.label}: {where}{field} names source #{wrong[0]}, "
                f"the map has {plural(count, 'source')}; left out"
            )
        return {index for index in indexes if isinstance(index, int)}

    def _offset(self, raw: Any, where: str) -> tuple[int, int]:
        if not isinstance(raw, dict):
            raise SourceMapError(f"{self.label}: {where} has no offset")
        line, column = raw.get("line"), raw.get("column")
        if not (isinstance(line, int) and isinstance(column, int) and line >= 0 and column >= 0):
            raise SourceMapError(f"{self.label}: {where} offset is not a line and column from 0")
        return line, column

    def _refuse_url(self, url: Any, where: str, map_url: str) -> None:
        if isinstance(url, str) and map_url and resolve_url(self.base_url, url) == map_url:
            raise SourceMapError(f"{self.label}: {where} refers to the map itself (a cycle)")
        raise SourceMapError(f"{self.label}: {where} refers to another map by url ({url}); that is not supported")
