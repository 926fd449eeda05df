"""Breakpoints on what the page does rather than on a line, as DevTools has them.

- xhr: a fetch or XMLHttpRequest whose URL contains a text (``DOMDebugger.setXHRBreakpoint``);
- event: a listener for a DOM event runs (``DOMDebugger.setEventListenerBreakpoint``), or a
  timer is set or fires (``EventBreakpoints.setInstrumentationBreakpoint``: setTimeout, …);
- dom: the element a selector names is changed (``DOMDebugger.setDOMBreakpoint``). It holds
  that element, as DevTools does: after a reload the selector is looked up again.

They share the ids and the list of line breakpoints (bp1, bp2, …), and a pause they cause
names them (`ids_hit`), though the browser reports them by reason rather than by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cdpilot.browser.debugger.debugger_facts import DebugConfig, DomChange, Trigger, TriggerKind, TriggerSpec
from cdpilot.cdp import CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, FieldProblem, StateError

# Timers and frames are instrumentation events of the browser, not DOM events.
TIMER_EVENTS = frozenset(
    {
        "setTimeout",
        "clearTimeout",
        "setTimeout.callback",
        "setInterval",
        "clearInterval",
        "setInterval.callback",
        "requestAnimationFrame",
        "cancelAnimationFrame",
        "requestAnimationFrame.callback",
    }
)
DOM_CHANGES: dict[DomChange, str] = {
    "subtree_modified": "subtree-modified",
    "attribute_modified": "attribute-modified",
    "node_removed": "node-removed",
}
PAUSE_REASONS: dict[str, TriggerKind] = {"XHR": "xhr", "EventListener": "event", "DOM": "dom"}


@dataclass
class _Live:
    trigger: Trigger
    node_id: int = 0  # a DOM breakpoint's element, in this session


class TriggerBreakpoints:
    """The trigger breakpoints of the current page session."""

    def __init__(self) -> None:
        self._session: CdpSession | None = None
        self._live: dict[str, _Live] = {}

    def attach(self, session: CdpSession) -> None:
        self._session = session
        self._live.clear()

    def listed(self) -> list[Trigger]:
        return [live.trigger for live in self._live.values()]

    def get(self, trigger_id: str) -> Trigger | None:
        live = self._live.get(trigger_id)
        return live.trigger if live is not None else None

    async def add(
        self, config: DebugConfig, kind: TriggerKind, value: str, dom_change: DomChange | None = None
    ) -> Trigger:
        wanted = (kind, value, dom_change)
        taken = next((t for t in config.triggers.values() if (t.kind, t.value, t.dom_change) == wanted), None)
        if taken is not None:
            raise StateError(
                f"A breakpoint on {taken.where} is set already ({taken.id}).",
                suggestion="List them with {tool:debugger_list_breakpoints}.",
            )
        spec = TriggerSpec(f"bp{config.breakpoints_made + 1}", kind, value, dom_change)
        trigger = await self.set(spec)
        if not trigger.bound:
            self._live.pop(spec.id, None)
            raise StateError(
                f"No element matches {value!r} in the page's document.",
                suggestion="Check the selector with {tool:query_elements}; a DOM breakpoint needs the element now.",
            )
        config.breakpoints_made += 1
        config.triggers[spec.id] = spec
        return trigger

    async def set(self, spec: TriggerSpec) -> Trigger:
        """Give `spec` to the browser (again, on an attach)."""
        session = self._require_session()
        live = _Live(Trigger(spec, bound=True))
        if spec.kind == "xhr":
            await session.send("DOMDebugger.setXHRBreakpoint", {"url": spec.value})
        elif spec.kind == "event" and spec.value in TIMER_EVENTS:
            await session.send("EventBreakpoints.setInstrumentationBreakpoint", {"eventName": spec.value})
        elif spec.kind == "event":
            await session.send("DOMDebugger.setEventListenerBreakpoint", {"eventName": spec.value})
        else:
            live.node_id = await self._element(spec.value)
            if live.node_id:
                params = {"nodeId": live.node_id, "type": DOM_CHANGES[spec.dom_change or "subtree_modified"]}
                await session.send("DOMDebugger.setDOMBreakpoint", params)
            else:
                live.trigger = Trigger(spec, bound=False)
        self._live[spec.id] = live
        return live.trigger

    async def remove(self, config: DebugConfig, trigger_id: str) -> TriggerSpec:
        live = self._live.pop(trigger_id)
        await self._unset(live)
        config.triggers.pop(trigger_id, None)
        return live.trigger.spec

    async def remove_all(self) -> int:
        """Unset every one; how many there were (emptied first, as `Breakpoints.remove_all`)."""
        removed = list(self._live.values())
        self._live.clear()
        for live in removed:
            await self._unset(live)
        return len(removed)

    def ids_hit(self, reason: str, data: dict[str, Any]) -> list[str]:
        """Our ids of the trigger breakpoints a pause with this reason and data was caused by."""
        kind = PAUSE_REASONS.get(reason)
        if kind is None:
            return []
        event = str(data.get("eventName", "")).split(":", 1)[-1]  # listener:click, instrumentation:setTimeout
        caused = {"xhr": data.get("breakpointURL"), "event": event, "dom": data.get("nodeId")}[kind]
        return [
            our_id
            for our_id, live in self._live.items()
            if live.trigger.spec.kind == kind and caused == (live.node_id if kind == "dom" else live.trigger.spec.value)
        ]

    async def _unset(self, live: _Live) -> None:
        spec = live.trigger.spec
        session = self._require_session()
        try:
            if spec.kind == "xhr":
                await session.send("DOMDebugger.removeXHRBreakpoint", {"url": spec.value})
            elif spec.kind == "event" and spec.value in TIMER_EVENTS:
                await session.send("EventBreakpoints.removeInstrumentationBreakpoint", {"eventName": spec.value})
            elif spec.kind == "event":
                await session.send("DOMDebugger.removeEventListenerBreakpoint", {"eventName": spec.value})
            elif live.node_id:
                params = {"nodeId": live.node_id, "type": DOM_CHANGES[spec.dom_change or "subtree_modified"]}
                await session.send("DOMDebugger.removeDOMBreakpoint", params)
        except CdpCommandError:
            pass  # the element or the document is gone already, and the breakpoint with it

    async def _element(self, selector: str) -> int:
        """The node id of the first element `selector` matches in the document; 0 for none."""
        session = self._require_session()
        document = await session.send("DOM.getDocument", {"depth": 0})
        try:
            params = {"nodeId": document["root"]["nodeId"], "selector": selector}
            found = await session.send("DOM.querySelector", params)
        except CdpCommandError as exc:
            raise ArgumentError(
                "The selector is not valid CSS.",
                problems=[FieldProblem("selector", "a valid CSS selector", exc.cdp_message)],
            ) from exc
        return int(found.get("nodeId", 0))

    def _require_session(self) -> CdpSession:
        assert self._session is not None, "a connection attaches its page before handing it out"
        return self._session
