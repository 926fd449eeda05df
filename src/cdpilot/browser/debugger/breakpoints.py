"""The breakpoints live in the current page session.

Breakpoints are set by URL or URL regex, never by script id, so the browser keeps them across
reloads and binds them in scripts parsed later (``Debugger.breakpointResolved``). CDP forgets
them when we detach from the session, so what the user asked for (`BreakpointSpec`) is kept
in the target's `DebugConfig` by `PageDebugger` and set here again on every attach.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from cdpilot.browser.debugger.debugger_facts import Breakpoint, BreakpointSpec, DebugConfig
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, FieldProblem, StateError


class LiveBreakpoints:
    """Our breakpoint ids (bp1, …) and the browser's for the same breakpoints, in this session."""

    def __init__(self, scripts: ScriptSources) -> None:
        self._scripts = scripts
        self._session: CdpSession | None = None
        self._live: dict[str, Breakpoint] = {}

    def attach(self, session: CdpSession) -> None:
        """A new session has none of them yet."""
        self._session = session
        self._live.clear()

    def listed(self) -> list[Breakpoint]:
        return list(self._live.values())

    def ids_hit(self, cdp_ids: list[str]) -> list[str]:
        """Our ids of the browser's breakpoints a pause names as hit."""
        return [live.spec.id for live in self._live.values() if live.cdp_id in cdp_ids]

    async def add(
        self,
        config: DebugConfig,
        *,
        url: str | None,
        url_regex: str | None,
        line: int,
        column: int | None,
        condition: str | None,
    ) -> Breakpoint:
        """A new breakpoint, numbered and kept in `config` once the browser took it."""
        _check_script_choice(url, url_regex)
        config.breakpoints_made += 1
        spec = BreakpointSpec(f"bp{config.breakpoints_made}", url, url_regex, line, column, condition)
        live = await self.set(spec)
        config.breakpoints[spec.id] = spec
        return live

    async def set(self, spec: BreakpointSpec) -> Breakpoint:
        """Give `spec` to the browser (again, on an attach)."""
        params: dict[str, Any] = {"lineNumber": spec.line - 1}
        if spec.url is not None:
            params["url"] = spec.url
        else:
            params["urlRegex"] = spec.url_regex
        if spec.column is not None:
            params["columnNumber"] = spec.column - 1
        if spec.condition is not None:
            params["condition"] = spec.condition
        try:
            reply = await self._require_session().send("Debugger.setBreakpointByUrl", params)
        except CdpCommandError as exc:
            if "already exists" not in exc.cdp_message:
                raise
            taken = next((b.spec for b in self._live.values() if _same_place(b.spec, spec)), None)
            raise StateError(
                f"A breakpoint is already set at {spec.where}" + (f" ({taken.id})." if taken else "."),
                suggestion="Remove it with {tool:debugger_remove_breakpoint} first to change its condition.",
            ) from exc
        resolved = tuple(self._scripts.location(raw) for raw in reply.get("locations", []))
        live = Breakpoint(spec, str(reply["breakpointId"]), resolved)
        self._live[spec.id] = live
        return live

    async def remove(self, config: DebugConfig, breakpoint_id: str) -> BreakpointSpec:
        live = self._live.get(breakpoint_id)
        if live is None:
            known = ", ".join(self._live) or "none"
            raise StateError(
                f"No breakpoint {breakpoint_id!r} on this page (breakpoints: {known}).",
                suggestion="List them with {tool:debugger_list_breakpoints}.",
            )
        await self._require_session().send("Debugger.removeBreakpoint", {"breakpointId": live.cdp_id})
        del self._live[breakpoint_id]
        config.breakpoints.pop(breakpoint_id, None)
        return live.spec

    async def remove_all(self) -> int:
        """Drop every one from the browser (``Debugger.disable`` alone leaves URL breakpoints in
        place); how many there were."""
        session = self._require_session()
        for live in self._live.values():
            await session.send("Debugger.removeBreakpoint", {"breakpointId": live.cdp_id})
        removed = len(self._live)
        self._live.clear()
        return removed

    def on_resolved(self, event: CdpEvent) -> None:
        """A script loaded that one of them binds in."""
        cdp_id = event.params.get("breakpointId")
        for our_id, live in list(self._live.items()):
            if live.cdp_id == cdp_id:
                where = self._scripts.location(event.params["location"])
                self._live[our_id] = replace(live, resolved=(*live.resolved, where))

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session


def _check_script_choice(url: str | None, url_regex: str | None) -> None:
    if (url is None) == (url_regex is None):
        given = "both" if url is not None else "neither"
        raise ArgumentError(
            "A breakpoint needs a script: url or url_regex.",
            problems=[FieldProblem("url / url_regex", "exactly one of them", given)],
            suggestion="Give the script's URL (from the pause location or the page's <script src>) "
            "or a regex that matches it.",
        )
    if url_regex is not None:
        try:
            re.compile(url_regex)
        except re.error as exc:
            raise ArgumentError(
                "url_regex is not a valid regular expression.",
                problems=[FieldProblem("url_regex", "a regular expression", f"one that fails: {exc}")],
            ) from exc


def _same_place(a: BreakpointSpec, b: BreakpointSpec) -> bool:
    return (a.url, a.url_regex, a.line, a.column) == (b.url, b.url_regex, b.line, b.column)
