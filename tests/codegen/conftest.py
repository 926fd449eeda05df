"""A tiny schema tree per test, written on demand, so each lint rule is proven in isolation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from codegen.catalog import load_catalog
from codegen.lint import lint

COMMON = {"$defs": {"connection_id": {"type": "string", "description": "Connection id."}}}

PROBE: dict[str, Any] = {
    "description": "Probe the page.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "selector": {"type": "string", "minLength": 1, "description": "CSS selector."},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 5,
            "description": "At most this many.",
        },
        "connection_id": {"$ref": "../../common/defs.json#/$defs/connection_id"},
    },
    "required": ["selector"],
    "examples": [{"selector": "a"}],
    "x-cdpilot": {
        "group": "dom",
        "modes": ["legacy"],
        "defaults": {"connection_id": "active_connection"},
        "annotations": {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
}

SMART: dict[str, Any] = {
    "description": "Everything about probes.",
    "examples": [{"action": "probe", "selector": "a"}],
    "x-cdpilot": {
        "group": "dom",
        "discriminator": "action",
        "discriminator_description": "What to do.",
        "actions": {"probe": "dom_probe"},
        "annotations": {},
    },
}

# The routes form: keep=false resets, include_hidden counts, anything else probes.
ROUTED: dict[str, Any] = {
    "description": "Probe, count or reset.",
    "properties": {"keep": {"type": "boolean", "default": True, "description": "false resets."}},
    "examples": [{"selector": "a"}, {"selector": "a", "include_hidden": True}, {"keep": False}],
    "x-cdpilot": {
        "group": "dom",
        "routes": [
            {"tool": "dom_reset", "when_equals": {"keep": False}},
            {"tool": "dom_count", "when_present": "include_hidden"},
            {"tool": "dom_probe"},
        ],
        "annotations": {"title": "Probe"},
    },
}


class SchemaTree:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.write("common/defs.json", COMMON)

    def write(self, rel: str, data: Any) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
        return path

    def tool(self, name: str, **changes: Any) -> dict[str, Any]:
        schema = copy.deepcopy(PROBE)
        schema.update(changes)
        self.write(f"tools/dom/{name}.json", schema)
        return schema

    def smart(self, name: str, **changes: Any) -> dict[str, Any]:
        schema = copy.deepcopy(SMART)
        schema.update(changes)
        self.write(f"smart/{name}.json", schema)
        return schema

    def routed(self, **meta_changes: Any) -> dict[str, Any]:
        """The granular dom_probe, dom_count and dom_reset, and smart/probe.json routing to them."""
        self.tool("dom_probe")
        props = copy.deepcopy(PROBE["properties"])
        del props["limit"]
        props["include_hidden"] = {"type": "boolean", "description": "Count hidden ones too."}
        examples = [{"selector": "a", "include_hidden": True}]
        self.tool("dom_count", properties=props, required=["selector", "include_hidden"], examples=examples)
        meta = copy.deepcopy(PROBE["x-cdpilot"])
        meta["annotations"].update(readOnlyHint=False, destructiveHint=True)
        reset = {"properties": {"connection_id": props["connection_id"]}, "required": [], "examples": [{}]}
        self.tool("dom_reset", **reset, **{"x-cdpilot": meta})
        schema = copy.deepcopy(ROUTED)
        schema["x-cdpilot"].update(meta_changes)
        self.write("smart/probe.json", schema)
        return schema


@pytest.fixture
def tree(tmp_path: Path) -> SchemaTree:
    return SchemaTree(tmp_path / "schemas")


def findings(tree: SchemaTree) -> list[str]:
    """Every lint finding of the tree, as the build prints it."""
    return [str(f) for f in lint(load_catalog(tree.root))]
