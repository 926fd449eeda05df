"""The names the author wrote, for paused code that a source map covers: a frame's function
and the functions its scopes belong to (``total`` where the minified script runs ``s``), and
the variables of those scopes (``subtotal`` where it runs ``e``, ``items`` where a bundler
renamed it ``items3``).

Both come from the map's ``names``, read at generated identifiers, as DevTools reads them: a
function's at its generated name just before its parameters (`function_name`), a scope's at
every named identifier in the generated code the scope spans (`identifier_renames`), where
an identifier that stands for two different names is left as it is. The generated names are
kept beside them, since the code runs with those: an expression evaluated in a frame must
use them. Scripts without a map, and anonymous functions, keep their names.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from cdpilot.browser.debugger.debugger_facts import Frame, Location, Pause, Scope
from cdpilot.browser.debugger.mapped_scripts import MappedScripts
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.sourcemaps.source_map import function_name, identifier_renames
from cdpilot.cdp import CdpSession

MAX_CACHED_SCOPES = 64  # a scope's renames are kept: a module's closure spans the whole bundle
FUNCTION_SCOPES = ("local", "closure")  # a function's own scope: it starts at the function's parameters

ScopeKey = tuple[str, int, int, int, int]  # script, start line and column, end line and column


class OriginalNames:
    """Original names of the current page's frames and scope variables (one per connection)."""

    def __init__(self, scripts: ScriptSources, maps: MappedScripts) -> None:
        self._scripts = scripts
        self._maps = maps
        self._renames: OrderedDict[ScopeKey, dict[str, str]] = OrderedDict()
        self._last: tuple[Pause, Pause] | None = None  # a pause as reported, and as annotated

    def attach(self, _: CdpSession) -> None:
        self.clear()

    def clear(self) -> None:
        """The page's scripts are gone (a navigation, another page): their ids may come back
        for other code."""
        self._renames.clear()
        self._last = None

    async def annotate(self, pause: Pause) -> Pause:
        """The pause in the author's terms where maps cover it: every frame's places (see
        `MappedScripts.annotate`) and the original names of its function and its scopes'.
        The last pause is kept annotated: its bundle, its call stack and every later answer
        while it lasts read the same frames."""
        if self._last is not None and self._last[0] is pause:
            return self._last[1]
        mapped = await self._maps.annotate(pause)
        annotated = replace(mapped, frames=tuple([await self._named(frame) for frame in mapped.frames]))
        self._last = (pause, annotated)
        return annotated

    async def renames(self, scope: Scope) -> dict[str, str]:
        """Generated name → original name for the variables of `scope`, where a map covers
        the code it spans and renames them; empty for the rest."""
        start, end = scope.start, scope.end
        if scope.is_global or start is None or end is None or start.script_id != end.script_id:
            return {}
        source_map = await self._maps.map_for(start.script_id)
        if source_map is None:
            return {}
        key = (start.script_id, start.line, start.column, end.line, end.column)
        if key in self._renames:
            self._renames.move_to_end(key)
            return self._renames[key]
        lines = await self._scripts.lines_of(start.script_id)
        named = source_map.named_positions(self._scripts.position(start), self._scripts.position(end))
        found = identifier_renames("\n".join(lines), named)
        renames = {generated: original for generated, original in found.items() if generated != original}
        self._renames[key] = renames
        if len(self._renames) > MAX_CACHED_SCOPES:
            self._renames.popitem(last=False)
        return renames

    async def _named(self, frame: Frame) -> Frame:
        start = frame.function_location
        name = await self._function_name(frame.function_name, start) if start is not None else None
        return replace(frame, original_name=name, scopes=await self._named_scopes(frame.scopes))

    async def _named_scopes(self, scopes: tuple[Scope, ...]) -> tuple[Scope, ...]:
        """The scopes with the original names of the functions they belong to. A function's
        own scope starts where its parameters do; a block scope is named after the function
        around it, the nearest one further out in the chain."""
        named: list[Scope] = []
        around: dict[str, str | None] = {}
        for scope in reversed(scopes):
            if scope.kind in FUNCTION_SCOPES and scope.start is not None:
                around[scope.name] = await self._function_name(scope.name, scope.start)
            original = around.get(scope.name) if scope.name else None
            named.append(replace(scope, original_name=original) if original is not None else scope)
        return tuple(reversed(named))

    async def _function_name(self, generated: str, start: Location) -> str | None:
        source_map = await self._maps.map_for(start.script_id) if generated else None
        if source_map is None:
            return None
        lines = await self._scripts.lines_of(start.script_id)
        return function_name(source_map, lines, generated, self._scripts.position(start))
