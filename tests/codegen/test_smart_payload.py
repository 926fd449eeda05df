"""The shipped tools/list payloads: smart mode within its budget with every parameter described in a
few words; legacy mode with every parameter's full description and nothing of smart mode's."""

from __future__ import annotations

import json
from typing import Any

from cdpilot_generated import manifests

from codegen.lint import SMART_DESCRIPTION_MAX, SMART_PAYLOAD_BUDGET, SMART_TOOL_BUDGET


def tools(payload: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = json.loads(payload)["tools"]
    return listed


def test_smart_mode_is_within_its_budget() -> None:
    assert len(tools(manifests.SMART_TOOLS_JSON)) == manifests.SMART_TOOL_COUNT <= SMART_TOOL_BUDGET
    assert len(manifests.SMART_TOOLS_JSON) <= SMART_PAYLOAD_BUDGET


def test_every_smart_parameter_has_a_short_description() -> None:
    described = {
        f"{tool['name']}.{name}": prop.get("description", "")
        for tool in tools(manifests.SMART_TOOLS_JSON)
        for name, prop in tool["inputSchema"]["properties"].items()
    }
    assert len(described) > 100
    assert [name for name, text in described.items() if not text.strip()] == []
    assert [name for name, text in described.items() if len(text) > SMART_DESCRIPTION_MAX] == []


def test_legacy_mode_keeps_the_full_descriptions_and_no_short_forms() -> None:
    for tool in tools(manifests.LEGACY_TOOLS_JSON):
        for name, prop in tool["inputSchema"]["properties"].items():
            assert prop.get("description", "").strip(), f"{tool['name']}.{name}"
            assert "x-cdpilot" not in prop, f"{tool['name']}.{name}"
