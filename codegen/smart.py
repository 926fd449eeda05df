"""Builds a consolidated smart tool from its declaration, in either form.

The actions form: the flat input schema is the discriminator enum plus the union of the
granular tools' properties. The routes form: the router-own properties plus that union, no
discriminator; rules over the arguments pick the granular tool. Either way a property that
two targets share must have the same resolved schema, or the tool would mean two things by
one name; that conflict is a lint finding, not a guess.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from codegen.catalog import HINTS, Catalog, GranularTool, Route, SmartTool


@dataclass(frozen=True)
class MergeConflict:
    prop: str
    first: str  # the action (actions form) or target tool (routes form) that declared it first
    second: str


def merged_properties(catalog: Catalog, tool: SmartTool) -> tuple[dict[str, Any], list[MergeConflict]]:
    """Union of the targets' properties in declaration order, with the conflicts found."""
    members = list(tool.actions.items()) if not tool.uses_routes else [(t, t) for t in tool.targets]
    props: dict[str, Any] = {}
    canonical: dict[str, str] = {}
    owner: dict[str, str] = {}
    conflicts: list[MergeConflict] = []
    for label, target in members:
        granular = catalog.granular.get(target)
        if granular is None:
            continue
        for name, schema in granular.properties.items():
            text = granular.canonical_properties[name]
            if name not in props:
                props[name], canonical[name], owner[name] = schema, text, label
            elif canonical[name] != text:
                conflicts.append(MergeConflict(name, owner[name], label))
    return props, conflicts


def targets(catalog: Catalog, tool: SmartTool) -> list[GranularTool]:
    """The granular tools behind ``tool`` that exist (a missing one is a lint finding), each once
    although two rules may name it."""
    return [catalog.granular[t] for t in dict.fromkeys(tool.targets) if t in catalog.granular]


def input_schema(catalog: Catalog, tool: SmartTool) -> dict[str, Any]:
    """The flat schema clients see, without the omitted parameters; per-target requirements are
    enforced by the granular model."""
    merged, _ = merged_properties(catalog, tool)
    omitted = set(tool.omitted)
    props = {name: schema for name, schema in merged.items() if name not in omitted}
    tools = targets(catalog, tool)
    required = [name for name in props if tools and all(name in t.required for t in tools)]
    if tool.uses_routes:
        props = {**tool.own_properties, **props}
    else:
        # What each action does is said once, in the smart tool's own description (token budget);
        # the discriminator's own description is x-cdpilot.discriminator_description.
        discriminator: dict[str, Any] = {"type": "string", "enum": list(tool.actions)}
        if tool.discriminator_description:
            discriminator["description"] = tool.discriminator_description
        if tool.default_action is not None:
            discriminator["default"] = tool.default_action
        props = {tool.discriminator: discriminator, **props}
        required = ([] if tool.default_action is not None else [tool.discriminator]) + required
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def omitted_owners(catalog: Catalog, tool: SmartTool) -> dict[str, tuple[str, ...]]:
    """Each omitted parameter and the granular tools that take it, for the registry's refusal."""
    takers = _by_parameter(targets(catalog, tool), lambda target: target.properties)
    return {name: tuple(takers.get(name, ())) for name in tool.omitted}


def omitted_needers(catalog: Catalog, tool: SmartTool) -> dict[str, list[str]]:
    """Each omitted parameter and the granular tools that require it (smart mode could never call those)."""
    needers = _by_parameter(targets(catalog, tool), lambda target: target.required)
    return {name: needers.get(name, []) for name in tool.omitted}


def _by_parameter(tools: list[GranularTool], names: Callable[[GranularTool], Iterable[str]]) -> dict[str, list[str]]:
    """Parameter name -> the tools (in order) whose ``names`` include it: one pass over the tools, not one per name."""
    index: dict[str, list[str]] = {}
    for tool in tools:
        for name in names(tool):
            index.setdefault(name, []).append(tool.name)
    return index


def derived_annotations(catalog: Catalog, tool: SmartTool) -> dict[str, Any]:
    """Hints derived from the targets: read-only/idempotent only if every target is."""
    hints = [t.meta.get("annotations", {}) for t in targets(catalog, tool)]
    derived: dict[str, Any] = {}
    title = tool.meta.get("annotations", {}).get("title")
    if title:
        derived["title"] = title
    for hint in HINTS:
        values = [bool(h.get(hint, False)) for h in hints]
        combine = all if hint in ("readOnlyHint", "idempotentHint") else any
        derived[hint] = combine(values) if values else False
    return derived


def choose_route(tool: SmartTool, arguments: dict[str, Any]) -> Route | None:
    """The rule the registry would pick for ``arguments`` (mirrors src/cdpilot/server/registry.py)."""
    for route in tool.routes:
        if route.is_fallback or _matches(tool, route, arguments):
            return route
    return None


def _matches(tool: SmartTool, route: Route, arguments: dict[str, Any]) -> bool:
    if route.present is not None:
        return arguments.get(route.present) is not None
    if route.equals is None:
        return True
    prop, value = route.equals
    given = arguments.get(prop)
    own = tool.own_properties.get(prop)
    if given is None and isinstance(own, dict):
        given = own.get("default")
    # JSON equality: false is not 0, as in the registry.
    return type(given) is type(value) and given == value


def condition(route: Route) -> str:
    """A rule's condition as a call spells it: ``enabled=false``, ``call_frame_id=…``, or empty."""
    if route.equals is not None:
        prop, value = route.equals
        return f"{prop}={json.dumps(value)}"
    return f"{route.present}=…" if route.present is not None else ""


def spellings(tool: SmartTool) -> list[tuple[str, str]]:
    """(granular tool, how smart mode calls it) for each target; JSON literals, like a call."""
    if tool.uses_routes:
        return [(route.tool, f"{tool.name}({condition(route)})") for route in tool.routes]
    return [(target, f'{tool.name}({tool.discriminator}="{action}")') for action, target in tool.actions.items()]
