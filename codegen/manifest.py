"""The exact tools/list payload of each mode, as clients receive it, and the group(s) of each tool.

Legacy mode documents every parameter in full. Smart mode is the lean mode (its tools/list
within the budget of ``codegen.lint``): its schemas keep every constraint, so they refuse exactly
what the server refuses, drop each property's ``default``, and describe each property in a few
words: its short form (``x-cdpilot.short``) where its description is longer than that, else the
description itself. The smart tool's own description says what each action is for.
"""

from __future__ import annotations

import json
from typing import Any

from codegen.catalog import VENDOR_KEY, Catalog, legacy_names, plain, smart_description, smart_names
from codegen.smart import derived_annotations, input_schema, targets

# The MCP spec's value for an absent hint: sending it again only costs tokens.
MCP_HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
# Hints MCP defines only for tools that write ("meaningful only when readOnlyHint == false").
WRITE_HINTS = ("destructiveHint", "idempotentHint")
# Keywords that document a property without constraining it (JSON Schema validates neither);
# smart mode sends a short description in their place.
_DOC_KEYWORDS = ("description", "default", VENDOR_KEY)


def manifest(catalog: Catalog, mode: str) -> list[dict[str, Any]]:
    """The exact ``tools`` list of tools/list in one mode, sorted by name."""
    tools: list[dict[str, Any]] = []
    names = smart_names(catalog) if mode == "smart" else legacy_names(catalog)
    for name in names:
        smart = catalog.smart.get(name) if mode == "smart" else None
        if smart is not None:
            schema, hints, description = (
                input_schema(catalog, smart),
                derived_annotations(catalog, smart),
                smart.description,
            )
        else:
            tool = catalog.granular[name]
            schema = {k: v for k, v in tool.resolved.items() if k != "description"}
            hints, description = dict(tool.meta["annotations"]), tool.description
        if not schema.get("required"):
            schema.pop("required", None)
        if mode == "smart":
            schema = {**schema, "properties": {k: _lean(v) for k, v in schema["properties"].items()}}
        elif "properties" in schema:
            schema = {**schema, "properties": plain(schema["properties"])}
        tool_entry = {"name": name, "description": description, "inputSchema": schema}
        hints = _telling(hints)
        tools.append({**tool_entry, "annotations": hints} if hints else tool_entry)
    return tools


def _telling(hints: dict[str, Any]) -> dict[str, Any]:
    """The hints that tell a client something: not an MCP default, not a write hint of a read-only
    tool, and not the title (it stays in the schema files as docs; names already read well)."""
    read_only = hints.get("readOnlyHint") is True
    return {
        k: v
        for k, v in hints.items()
        if k != "title" and MCP_HINT_DEFAULTS.get(k) != v and not (read_only and k in WRITE_HINTS)
    }


def _lean(prop: dict[str, Any]) -> dict[str, Any]:
    """A property as smart mode sends it: exactly as strict, and shorter. The description is the
    short one (`smart_description`), the default goes (JSON Schema validates neither keyword), and
    so does a ``type`` that an all-string enum implies."""
    lean = {k: v for k, v in prop.items() if k not in _DOC_KEYWORDS}
    if lean.get("type") == "string" and all(isinstance(value, str) for value in lean.get("enum", [None])):
        del lean["type"]
    description = smart_description(prop)
    return {**lean, "description": description} if description else lean


def payload(catalog: Catalog, mode: str) -> str:
    """The tools/list result of one mode as the server sends it (what the budget measures)."""
    return compact({"tools": manifest(catalog, mode)})


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def granular_groups(catalog: Catalog) -> dict[str, str]:
    """Each granular tool's group (``x-cdpilot.group``, also its folder under ``tools/``), by name."""
    return {name: catalog.granular[name].meta["group"] for name in sorted(catalog.granular)}


def tool_groups(catalog: Catalog, mode: str) -> dict[str, tuple[str, ...]]:
    """The groups of each tool of a mode: a granular tool's own, or for a smart tool those of the
    granular tools it routes to, since it can do what any of them does (a filter that leaves out
    the ``evaluate`` group must leave out the smart tool that reaches ``evaluate_js``)."""
    groups = granular_groups(catalog)
    names = smart_names(catalog) if mode == "smart" else legacy_names(catalog)
    return {
        name: tuple(sorted({groups[t.name] for t in targets(catalog, catalog.smart[name])}))
        if mode == "smart" and name in catalog.smart
        else (groups[name],)
        for name in names
    }
