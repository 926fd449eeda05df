"""The names the author wrote, for paused code that a source map covers: a frame's function
and the functions its scopes belong to (``total`` where the minified script runs ``s``), and
the variables of those scopes (``subtotal`` where it runs ``e``, ``items`` where a bundler
renamed it ``items3``).

Both come from the map's ``names``, read at generated identifiers, as DevTools reads them: a
function's at its generated name just before its parameters (`function_name`), a scope's at
every named identifier in the generated code the scope spans (`identifier_renames`), where
an identifier that stands for two different names is left as it is, unless it stands for
one at the scope's own level, its nested functions left out (`own_level`: a minified module's
``f`` is ``items`` there, whatever ``f`` is inside its functions). The generated names are
kept beside them, since the code runs with those. Scripts without a map, and anonymous
functions, keep their names. Async frames name their functions too, found from their places
(`mapped_scripts.stack_function_name`, as console stacks do).

The other way round, an original name in an expression evaluated in a frame becomes the
generated name that stands for it there (`generated_names`): the first scope of the chain,
innermost first, holding a variable the map names so in the paused file, or one that kept
the name. A name with nothing left by it is refused, never looked up further out: when the
paused function declared it (the variable further out is another one), when the paused file
declares it anywhere (out of scope here, or removed), or when only the window's named access
would answer it (``total`` → the element with id "total"). A variable further out that a
variable of the same generated name further in hides (a minifier's ``t`` for both ``store``
and ``amount``) is refused too, naming both: the frame would read the other one.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from cdpilot.browser.debugger.debugger_facts import AsyncFrame, Frame, Location, Pause, Scope
from cdpilot.browser.debugger.frame_expressions import (
    OriginalDeclarations,
    offset_of,
    original_declarations,
    own_level,
)
from cdpilot.browser.debugger.mapped_scripts import MappedScripts, stack_function_name
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.browser.own_scripts import own_function, page_script
from cdpilot.browser.sourcemaps.source_map import SourceMap, function_name, identifier_renames
from cdpilot.cdp import CdpSession
from cdpilot.errors import ArgumentError, FieldProblem, StateError

MAX_CACHED_SCOPES = 64  # a scope's renames are kept: a module's closure spans the whole bundle
MAX_CACHED_ASYNC_NAMES = 256  # async frames' original names, by place
TOP_SCOPES = ("module", "script", "eval")  # the code they span is no function's own
FUNCTION_SCOPES = ("local", "closure")  # a function's own scope: it starts at the function's parameters
OWN_SCOPES = ("block", "local", "catch", "with")  # the paused function's: any other scope is further out
VARIABLES_HINT = "{tool:debugger_get_call_stack} lists the frame's variables under both names."

ScopeKey = tuple[str, int, int, int, int]  # script, start line and column, end line and column


class OriginalNames:
    """Original names of the current page's frames and scope variables (one per connection)."""

    def __init__(self, scripts: ScriptSources, maps: MappedScripts) -> None:
        self._scripts = scripts
        self._maps = maps
        self._renames: OrderedDict[ScopeKey, dict[str, str]] = OrderedDict()
        self._async_names: OrderedDict[tuple[str, int, int, str], str | None] = OrderedDict()
        self._last: tuple[Pause, Pause] | None = None  # a pause as reported, and as annotated
        self._session: CdpSession | None = None

    def attach(self, session: CdpSession) -> None:
        self._session = session
        self.clear()

    def clear(self) -> None:
        """The page's scripts are gone (a navigation, another page): their ids may come back
        for other code."""
        self._renames.clear()
        self._async_names.clear()
        self._last = None

    async def annotate(self, pause: Pause) -> Pause:
        """The pause in the author's terms where maps cover it: every frame's places (see
        `MappedScripts.annotate`) and the original names of its function and its scopes'.
        The last pause is kept annotated: its bundle, its call stack and every later answer
        while it lasts read the same frames."""
        if self._last is not None and self._last[0] is pause:
            return self._last[1]
        mapped = await self._maps.annotate(pause)
        segments = [
            replace(segment, frames=tuple([await self._named_async(frame) for frame in segment.frames]))
            for segment in mapped.async_segments
        ]
        frames = tuple([await self._named(frame) for frame in mapped.frames])
        annotated = replace(mapped, frames=frames, async_segments=tuple(segments))
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
        first, last = self._scripts.position(start), self._scripts.position(end)
        named = source_map.named_positions(first, last)
        text = "\n".join(lines)
        found = identifier_renames(text, named)
        # Where a letter stands for several names over the whole span (a minified module's or
        # closure's), it may still stand for one at the scope's own level.
        own = identifier_renames(text, own_level(lines, first, last, named, function=scope.kind not in TOP_SCOPES))
        renames = {generated: original for generated, original in {**own, **found}.items() if generated != original}
        self._renames[key] = renames
        if len(self._renames) > MAX_CACHED_SCOPES:
            self._renames.popitem(last=False)
        return renames

    async def generated_names(self, frame: Frame, names: list[str], bound: frozenset[str]) -> dict[str, str]:
        """Original name → the generated name that stands for it in `frame` (annotated, paused
        where a map covers it), for each of `names` (see the module docstring); `bound` are
        the names the expression binds itself, which no generated name may clash with."""
        place = frame.location.original
        source_map = await self._maps.map_for(frame.location.script_id)
        if place is None or source_map is None:
            return {name: name for name in names}
        assert self._session is not None, "a connection attaches its page before handing it out"
        lookup = _FrameLookup(frame, source_map, self, self._session)
        found = {name: await lookup.generated(name) for name in names}
        for name, generated in found.items():
            if generated != name and generated in bound:
                raise ArgumentError(
                    f"The expression binds {generated}, the bundle's name for {name} here, so the two would clash.",
                    problems=[FieldProblem("expression", f"no name of its own called {generated}", generated)],
                    suggestion="Rename that parameter or variable of the expression.",
                )
        return found

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

    async def _named_async(self, frame: AsyncFrame) -> AsyncFrame:
        """An async frame with its function's original name, found from its place (it has no
        function start); kept per place, since every pause of an async chain repeats them."""
        where = frame.location
        key = (where.script_id, where.line, where.column, frame.function_name)
        if key not in self._async_names:
            self._async_names[key] = await stack_function_name(self._maps, frame, where)
            if len(self._async_names) > MAX_CACHED_ASYNC_NAMES:
                self._async_names.popitem(last=False)
        name = self._async_names[key]
        return replace(frame, original_name=name) if name is not None else frame

    async def _function_name(self, generated: str, start: Location) -> str | None:
        source_map = await self._maps.map_for(start.script_id) if generated else None
        if source_map is None:
            return None
        lines = await self._scripts.lines_of(start.script_id)
        return function_name(source_map, lines, generated, self._scripts.position(start))


class _FrameLookup:
    """One frame's scopes, read once, for the generated names of an expression's original names."""

    def __init__(self, frame: Frame, source_map: SourceMap, names: OriginalNames, session: CdpSession) -> None:
        assert frame.location.original is not None
        self._names = names
        self._scripts = names._scripts
        self._maps = names._maps
        self._session = session
        self._frame = frame
        self._place = frame.location.original
        self._map = source_map
        self._variables: dict[str, set[str]] = {}  # scope object id → its variables' names
        self._declarations: OriginalDeclarations | None = None

    async def generated(self, name: str) -> str:
        for depth, scope in enumerate(self._frame.scopes):
            found = None if scope.is_global else await self._in_scope(scope, name)
            if found is None:
                continue
            if scope.kind not in OWN_SCOPES and name in ((await self._declared()).in_function or ()):
                function = self._frame.original_name or self._frame.name
                raise StateError(
                    f"{name} is declared in {function} ({self._place.source}), but the bundle kept no variable for "
                    f"it at this pause: it was inlined or removed (the {found} further out is another {name}).",
                    suggestion=f"Evaluate what it was computed from, or step to where it is used. {VARIABLES_HINT}",
                )
            await self._not_hidden(name, found, scope, self._frame.scopes[:depth])
            return found
        return await self._unbound(name)

    async def _not_hidden(self, name: str, found: str, scope: Scope, inner: tuple[Scope, ...]) -> None:
        """Refuse `name` when the variable `found` of an outer `scope` stands for it, but a
        scope further in has a variable of the same generated name, which the frame would
        read instead (a minifier gives one letter to both)."""
        for other in inner:
            if not other.is_global and found in await self._variables_of(other):
                what = (await self._names.renames(other)).get(found)
                other_name = f"{found} ({what})" if what else found
                raise StateError(
                    f"{name} is {found} in the bundle's {scope.kind} scope, but this frame's {other.kind} scope has "
                    f"another {other_name}, which hides it: evaluated here, {found} would be that one.",
                    suggestion=f"Read {name} in the {scope.kind} scope's list, or evaluate it in a frame further out "
                    f"where nothing hides it. {VARIABLES_HINT}",
                )

    async def _in_scope(self, scope: Scope, name: str) -> str | None:
        """The variable of `scope` that stands for `name` in the paused file, if any."""
        variables = await self._variables_of(scope)
        renames = await self._names.renames(scope)
        named = [generated for generated in variables if renames.get(generated) == name]
        if named:
            here = [generated for generated in named if generated in await self._standing_for(scope, name)]
            if len(here) > 1:
                raise StateError(
                    f"{name} stands for {len(here)} variables here in the bundle ({', '.join(here)}).",
                    suggestion=f"Evaluate the one you mean by its generated name. {VARIABLES_HINT}",
                )
            if here:
                return here[0]
        return name if name in variables and renames.get(name, name) == name else None

    async def _unbound(self, name: str) -> str:
        """A name no scope of the frame holds under that original name: one of the bundle's
        own names (as the answers show them beside the original ones), else the page's global,
        unless the paused file declares it or only the window's named access would answer it."""
        stands_for = await self._generated_variable(name)
        if name in (await self._declared()).in_file:
            also = f" The bundle's own {name} here is {stands_for}." if stands_for else ""
            raise StateError(
                f"{name} has no variable at this pause in the bundle: it is out of scope here, or the "
                f"bundler inlined or removed it ({self._place.source} declares a {name}).{also}",
                suggestion=f"Evaluate what it was computed from, or write globalThis.{name} for a global. "
                + VARIABLES_HINT,
            )
        if stands_for:
            return name
        script = next((s for s in self._frame.scopes if s.kind == "script"), None)
        if script is not None and name in await self._variables_of(script):
            return name
        if await self._named_access_only(name):
            raise StateError(
                f"{name} is not a variable at this pause; in the page it would only reach the element "
                f'with id "{name}" (the window\'s named access to elements).',
                suggestion=f'For the element, write document.getElementById("{name}"). {VARIABLES_HINT}',
            )
        return name

    async def _generated_variable(self, name: str) -> str | None:
        """The original name a variable the bundle calls `name` stands for, innermost first."""
        for scope in self._frame.scopes:
            if not scope.is_global and name in await self._variables_of(scope):
                return (await self._names.renames(scope)).get(name, name)
        return None

    async def _variables_of(self, scope: Scope) -> set[str]:
        if scope.object_id is None:
            return set()
        if scope.object_id not in self._variables:
            reply = await self._session.send(
                "Runtime.getProperties", {"objectId": scope.object_id, "ownProperties": True}
            )
            self._variables[scope.object_id] = {str(prop["name"]) for prop in reply.get("result", [])}
        return self._variables[scope.object_id]

    async def _standing_for(self, scope: Scope, name: str) -> set[str]:
        """The generated identifiers in `scope`'s code that the map names `name` in the paused file."""
        start, end = scope.start, scope.end
        if start is None or end is None:
            return set()
        scripts = self._scripts
        positions = [
            position
            for position in self._map.named_positions(scripts.position(start), scripts.position(end))
            if position.name == name and self._in_paused_file(position.line, position.column)
        ]
        return set(identifier_renames("\n".join(await scripts.lines_of(start.script_id)), positions))

    def _in_paused_file(self, line: int, column: int) -> bool:
        found = self._map.original_position(line, column)
        return found is not None and found.source.url == self._place.url

    async def _declared(self) -> OriginalDeclarations:
        """What the paused file declares, read once; nothing when its text cannot be had."""
        if self._declarations is None:
            text = await self._maps.original_text(self._frame.location)
            if text is None:
                self._declarations = OriginalDeclarations(frozenset(), None)
            else:
                start = self._frame.function_location
                begins = start.original if start is not None else None
                at = offset_of(text, begins.line, begins.column) if begins and begins.url == self._place.url else None
                pause = offset_of(text, self._place.line, self._place.column)
                self._declarations = original_declarations(text, at, pause)
        return self._declarations

    async def _named_access_only(self, name: str) -> bool:
        """Whether the window answers `name` only with an element of that id (or name)."""
        window = next((s for s in self._frame.scopes if s.kind == "global" and s.object_id), None)
        if window is None:
            return False
        reply = await self._session.send(
            "Runtime.callFunctionOn",
            {
                "objectId": window.object_id,
                "functionDeclaration": own_function(page_script("named_access")),
                "arguments": [{"value": [name]}],
                "returnByValue": True,
                "silent": True,
            },
        )
        return name in (reply.get("result", {}).get("value") or [])
