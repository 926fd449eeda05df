"""A tiny schema tree per test, written on demand, so each lint rule is proven in isolation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

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
        "actions": {"probe": "dom_probe"},
        "annotations": {},
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


@pytest.fixture
def tree(tmp_path: Path) -> SchemaTree:
    return SchemaTree(tmp_path / "schemas")
