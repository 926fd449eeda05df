"""What the tools that find code learn, as plain data: the page's scripts with their source
maps' files, a source's text, and search hits.

Kept apart from `source_files`, which reads them through CDP, so the answer renderers can
import these facts without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MapState = Literal["none", "loaded", "failed"]


@dataclass(frozen=True)
class SourceFile:
    name: str  # project-relative, e.g. src/cart.ts
    library: bool  # ignore-listed by its map, or under node_modules/


@dataclass(frozen=True)
class ScriptEntry:
    """A loaded script and what its source map says (or why it says nothing)."""

    url: str
    map_state: MapState
    map_note: str  # why a map failed, or what it loaded despite; "" when nothing was wrong
    sources: tuple[SourceFile, ...]  # the original files its map names


@dataclass(frozen=True)
class SourceText:
    name: str  # as shown: an original file's project path, or a script's URL
    original: bool
    lines: tuple[str, ...]  # the whole file
    versions: int = 1  # of the module it is read from: more than one after a dev server's hot update


@dataclass(frozen=True)
class SearchHit:
    file: str
    line: int  # 1-based
    text: str
    original: bool


@dataclass(frozen=True)
class SearchFindings:
    hits: tuple[SearchHit, ...]  # the first `limit`, original sources first
    total: int  # hits counted, up to MAX_HITS_COUNTED
    counted_all: bool  # False when counting stopped at MAX_HITS_COUNTED
    files_searched: int
    files_without_text: tuple[str, ...]  # original sources whose map carries no text


@dataclass(frozen=True)
class FunctionPlace:
    """Where a function found by name is declared, and the line its body starts on."""

    file: str  # an original file's project path, or a script's URL
    declared_line: int  # 1-based
    body_line: int  # the first line a breakpoint in it binds on
    others: tuple[str, ...]  # other declarations of that name, as file:line
