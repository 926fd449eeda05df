"""The parameter table of a tool's docs page, read off the resolved input schema.

One row per property, and one per field of a nested object (``box.width``) or of an array's
objects (``items[].name``), so a reader sees every name a call may carry. Type, default and
constraints are spelled from the JSON Schema keywords themselves, so the table says exactly
what validation enforces; nothing is typed in twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

RESOLVERS = {"active_connection": "the active connection"}  # x-cdpilot.defaults, as a reader says it
_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
_BOUNDS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("multipleOf", "multiple of {}"),
    ("minLength", "length ≥ {}"),
    ("maxLength", "length ≤ {}"),
    ("pattern", "matches {}"),
    ("minItems", "items ≥ {}"),
    ("maxItems", "items ≤ {}"),
    ("minProperties", "entries ≥ {}"),
    ("maxProperties", "entries ≤ {}"),
)


@dataclass(frozen=True)
class Param:
    name: str  # dotted below a parent: box.width, items[].name
    type: str
    required: str  # "yes", "no", or which actions/routes need it ("for set, remove")
    default: str  # JSON
    resolved_by: str  # or, instead, what the server fills in (x-cdpilot.defaults)
    constraints: str
    description: str
    used_by: tuple[str, ...] = ()  # smart tools: the actions (or routed tools) that take it
    depth: int = 0


def param_rows(
    schema: Mapping[str, Any],
    *,
    resolvers: Mapping[str, str] | None = None,
    required_for: Callable[[str], str] | None = None,
    used_by: Callable[[str], tuple[str, ...]] | None = None,
) -> list[Param]:
    """The rows of an object schema. ``required_for`` and ``used_by`` refine the top level of a
    smart tool, whose flat schema cannot say which action needs a parameter."""
    rows: list[Param] = []
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        resolver = (resolvers or {}).get(name)
        rows.append(
            Param(
                name=name,
                type=type_of(prop),
                required="yes" if name in required else (required_for(name) if required_for else "no"),
                default=_default(prop),
                resolved_by=RESOLVERS.get(resolver, resolver) if resolver else "",
                constraints=constraints_of(prop),
                description=str(prop.get("description", "")),
                used_by=used_by(name) if used_by else (),
            )
        )
        rows.extend(_nested(name, prop, depth=1))
    return rows


def _nested(prefix: str, prop: Mapping[str, Any], depth: int) -> Iterator[Param]:
    items = prop.get("items")
    if prop.get("type") == "array" and isinstance(items, dict) and "properties" in items:
        prefix, prop = f"{prefix}[]", items
    for row in param_rows(prop) if "properties" in prop else []:
        yield Param(
            f"{prefix}.{row.name}",
            row.type,
            row.required,
            row.default,
            row.resolved_by,
            row.constraints,
            row.description,
            depth=depth + row.depth,
        )


def type_of(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any"
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return " | ".join(type_of(option) for option in schema[union])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if kind == "array":
        return f"array of {type_of(schema['items'])}" if "items" in schema else "array"
    if kind is None and "enum" in schema:
        return " | ".join(sorted({_JSON_TYPES.get(type(v), "any") for v in schema["enum"]}))
    return str(kind) if kind else "any"


def constraints_of(schema: Mapping[str, Any]) -> str:
    parts = [template.format(_json(schema[key])) for key, template in _BOUNDS if key in schema]
    if "enum" in schema:
        parts.append("one of " + ", ".join(_json(v) for v in schema["enum"]))
    if "const" in schema:
        parts.append(f"exactly {_json(schema['const'])}")
    items = schema.get("items")
    if isinstance(items, dict) and "properties" not in items and (inner := constraints_of(items)):
        parts.append(f"each {inner}")
    return "; ".join(parts)


def _default(schema: Mapping[str, Any]) -> str:
    return _json(schema["default"]) if "default" in schema else ""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
