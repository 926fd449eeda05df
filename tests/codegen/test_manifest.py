"""The tools/list payload: legacy documents every parameter; smart is lean but exactly as strict."""

from __future__ import annotations

import copy

from codegen.catalog import load_catalog
from codegen.manifest import manifest
from tests.codegen.conftest import PROBE, SchemaTree

STATE = {"type": "string", "enum": ["a", "b"], "default": "a", "description": "Which state."}


def test_smart_drops_documentation_and_implied_types_and_keeps_every_constraint(tree: SchemaTree) -> None:
    tree.tool("dom_probe", properties={**copy.deepcopy(PROBE["properties"]), "state": STATE})
    tree.smart("dom")
    [smart] = manifest(load_catalog(tree.root), "smart")
    assert smart == {
        "name": "dom",
        "description": "Everything about probes.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "action": {"enum": ["probe"]},
                "selector": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20},
                "connection_id": {"type": "string"},
                "state": {"enum": ["a", "b"]},
            },
            "required": ["action", "selector"],
            "additionalProperties": False,
        },
        # A read-only tool's destructive and idempotent hints mean nothing in MCP.
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }


def test_legacy_keeps_descriptions_defaults_and_types(tree: SchemaTree) -> None:
    tree.tool("dom_probe", properties={**copy.deepcopy(PROBE["properties"]), "state": STATE})
    tree.smart("dom")
    [legacy] = manifest(load_catalog(tree.root), "legacy")
    assert legacy["inputSchema"]["properties"]["state"] == STATE
    assert legacy["inputSchema"]["properties"]["limit"]["description"] == "At most this many."


def test_a_tool_whose_hints_are_all_mcp_defaults_sends_no_annotations(tree: SchemaTree) -> None:
    meta = copy.deepcopy(PROBE["x-cdpilot"])
    meta["annotations"] = {
        "title": "Probe",
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    tree.tool("dom_probe", **{"x-cdpilot": meta})
    tree.smart("dom")
    catalog = load_catalog(tree.root)
    tools = manifest(catalog, "legacy") + manifest(catalog, "smart")
    assert [tool.get("annotations") for tool in tools] == [None, None]
