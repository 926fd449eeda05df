"""Builds a consolidated smart tool from its declared actions (ARCHITECTURE §3).

The flat input schema is the discriminator enum plus the union of the granular tools'
properties. A property that two actions share must have the same resolved schema, or the
tool would mean two things by one name; that conflict is a lint finding, not a guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from codegen.catalog import HINTS, Catalog, SmartTool


@dataclass(frozen=True)
class MergeConflict:
    prop: str
    first_action: str
    second_action: str


def merged_properties(catalog: Catalog, tool: SmartTool) -> tuple[dict[str, Any], list[MergeConflict]]:
    """Union of the actions' properties in declaration order, with the conflicts found."""
    props: dict[str, Any] = {}
    owner: dict[str, str] = {}
    conflicts: list[MergeConflict] = []
    for action, target in tool.actions.items():
        granular = catalog.granular.get(target)
        if granular is None:
            continue
        for name, schema in granular.properties.items():
            if name not in props:
                props[name], owner[name] = schema, action
            elif _canonical(props[name]) != _canonical(schema):
                conflicts.append(MergeConflict(name, owner[name], action))
    return props, conflicts


def _canonical(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def input_schema(catalog: Catalog, tool: SmartTool) -> dict[str, Any]:
    """The flat schema clients see; per-action requirements are enforced by the granular model."""
    props, _ = merged_properties(catalog, tool)
    # What each action does is said once, in the smart tool's own description (token budget).
    discriminator: dict[str, Any] = {"type": "string", "enum": list(tool.actions), "description": "What to do."}
    if tool.default_action is not None:
        discriminator["default"] = tool.default_action
    targets = [catalog.granular[t] for t in tool.actions.values() if t in catalog.granular]
    required_by_all = [name for name in props if targets and all(name in t.required for t in targets)]
    required = ([] if tool.default_action is not None else [tool.discriminator]) + required_by_all
    return {
        "type": "object",
        "properties": {tool.discriminator: discriminator, **props},
        "required": required,
        "additionalProperties": False,
    }


def derived_annotations(catalog: Catalog, tool: SmartTool) -> dict[str, Any]:
    """Hints derived from the actions: read-only/idempotent only if every action is."""
    targets = [catalog.granular[t] for t in tool.actions.values() if t in catalog.granular]
    hints = [t.meta.get("annotations", {}) for t in targets]
    derived: dict[str, Any] = {}
    title = tool.meta.get("annotations", {}).get("title")
    if title:
        derived["title"] = title
    for hint in HINTS:
        values = [bool(h.get(hint, False)) for h in hints]
        combine = all if hint in ("readOnlyHint", "idempotentHint") else any
        derived[hint] = combine(values) if values else False
    return derived
