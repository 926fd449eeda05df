"""The tools/list payload: legacy documents every parameter in full; smart is lean, describes each
parameter in a few words, and is exactly as strict."""

from __future__ import annotations

import copy

from codegen.catalog import load_catalog
from codegen.manifest import manifest
from tests.codegen.conftest import PROBE, SchemaTree

STATE = {"type": "string", "enum": ["a", "b"], "default": "a", "description": "Which state."}


def test_smart_drops_defaults_and_implied_types_shortens_descriptions_and_keeps_every_constraint(
    tree: SchemaTree,
) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["x-cdpilot"] = {"short": "Max matches."}
    tree.tool("dom_probe", properties={**props, "state": STATE})
    tree.smart("dom")
    [smart] = manifest(load_catalog(tree.root), "smart")
    assert smart == {
        "name": "dom",
        "description": "Everything about probes.",
        "inputSchema": {
            "type": "object",
            "properties": {
                # x-cdpilot.discriminator_description; then each description without its full stop
                "action": {"enum": ["probe"], "description": "What to do"},
                "selector": {"type": "string", "minLength": 1, "description": "CSS selector"},
                # the short form, not the description
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "Max matches"},
                "connection_id": {"type": "string", "description": "Connection id"},
                "state": {"enum": ["a", "b"], "description": "Which state"},
            },
            "required": ["action", "selector"],
            "additionalProperties": False,
        },
        # A read-only tool's destructive and idempotent hints mean nothing in MCP.
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }


def test_legacy_keeps_descriptions_defaults_and_types(tree: SchemaTree) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["x-cdpilot"] = {"short": "Max matches."}
    tree.tool("dom_probe", properties={**props, "state": STATE})
    tree.smart("dom")
    [legacy] = manifest(load_catalog(tree.root), "legacy")
    assert legacy["inputSchema"]["properties"]["state"] == STATE
    # The full description, and no trace of the short form.
    assert legacy["inputSchema"]["properties"]["limit"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 20,
        "default": 5,
        "description": "At most this many.",
    }


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
