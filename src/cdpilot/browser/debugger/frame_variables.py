"""The values of a paused frame: its scopes' variables, its own locals (marked when a step
changed them), and expressions evaluated in it.

Values are previewed compactly from what the browser generates (``generatePreview``), never
fetched in full. The locals last reported are remembered per frame, keyed by the function
(where it starts) and the stack depth, so after a step the ones whose preview changed in the
same function at the same depth are marked; a recursive call one level deeper is another frame.
Variables are known by their generated names (what the code runs with); where a source map
renames them, each carries its original name too (see `original_names`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Any

from cdpilot.browser.debugger.debugger_facts import Frame, Pause, Scope, ScopeVariables, Variable
from cdpilot.browser.debugger.original_names import OriginalNames
from cdpilot.browser.remote_values import preview_value
from cdpilot.cdp import CdpSession

MAX_REMEMBERED_FRAMES = 16  # frames whose variables are kept to mark what a step changed
LOCALS_SCOPES = ("block", "local", "catch", "with")  # innermost scopes: the frame's own variables
VARIABLE_PREVIEW_CHARS = 80

FrameKey = tuple[str, int, int, int]  # function start (script, line, column), stack depth


class FrameVariables:
    """Reads variables of the current page's paused frames; remembers the locals it reported."""

    def __init__(self, names: OriginalNames) -> None:
        self._names = names
        self._session: CdpSession | None = None
        self._seen_locals: OrderedDict[FrameKey, dict[str, str]] = OrderedDict()

    def attach(self, session: CdpSession) -> None:
        self._session = session

    async def scope(self, scope: Scope, limit: int) -> ScopeVariables:
        """Up to `limit` variables of a scope, and how many it has in all, with their
        original names where a map renames them."""
        if scope.object_id is None or scope.is_global:
            return ScopeVariables(scope, (), 0)
        reply = await self._require_session().send(
            "Runtime.getProperties", {"objectId": scope.object_id, "ownProperties": True, "generatePreview": True}
        )
        props = [p for p in reply.get("result", []) if "value" in p or not ("get" in p or "set" in p)]
        renames = await self._names.renames(scope) if props else {}
        return ScopeVariables(scope, tuple(_variable(p, renames) for p in props[:limit]), len(props))

    async def locals_marked(self, pause: Pause, limit: int) -> tuple[Variable, ...]:
        """The top frame's own variables (block and function scopes, innermost first), up to
        `limit`; after a step, those whose value changed since they were last reported are marked."""
        found = await self._frame_locals(pause.top, limit)
        key = _frame_key(pause)
        before = self._seen_locals.get(key) if pause.after_step else None
        self._remember(key, {v.name: v.value for v in found})
        if before is None:
            return found
        return tuple(replace(v, changed=before.get(v.name) != v.value) for v in found)

    async def _frame_locals(self, frame: Frame, limit: int) -> tuple[Variable, ...]:
        found: list[Variable] = []
        seen: set[str] = set()
        for scope in frame.scopes:
            if scope.kind not in LOCALS_SCOPES:
                break
            for variable in (await self.scope(scope, limit)).variables:
                if variable.name not in seen and len(found) < limit:
                    seen.add(variable.name)
                    found.append(variable)
        return tuple(found)

    def _remember(self, key: FrameKey, variables: dict[str, str]) -> None:
        self._seen_locals[key] = variables
        self._seen_locals.move_to_end(key)
        if len(self._seen_locals) > MAX_REMEMBERED_FRAMES:
            self._seen_locals.popitem(last=False)

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session


def _frame_key(pause: Pause) -> FrameKey:
    start = pause.top.function_location or pause.top.location
    return (start.script_id, start.line, start.column, len(pause.frames))


def _variable(prop: dict[str, Any], renames: dict[str, str]) -> Variable:
    """A scope variable's preview; a `let`/`const` not reached yet has no value (its TDZ)."""
    value = preview_value(prop["value"], max_chars=VARIABLE_PREVIEW_CHARS) if "value" in prop else "(uninitialized)"
    name = str(prop["name"])
    return Variable(name, value, original_name=renames.get(name))
