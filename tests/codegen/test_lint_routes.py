"""Lint of the routes form: each rule proven with a declaration that breaks exactly it.

The fixture (``SchemaTree.routed``): smart/probe.json routes keep=false to dom_reset,
include_hidden (when given) to dom_count, and everything else to dom_probe.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.codegen.conftest import PROBE, ROUTED, SMART, SchemaTree, findings

RESET, COUNT, FALLBACK = copy.deepcopy(ROUTED["x-cdpilot"]["routes"])
PROBE_FILE = "schemas/smart/probe.json"


def probe_file(tree: SchemaTree, **changes: Any) -> None:
    """Rewrite smart/probe.json with top-level changes (after ``tree.routed()``)."""
    schema = copy.deepcopy(ROUTED)
    schema.update(changes)
    tree.write("smart/probe.json", schema)


def test_a_valid_routes_tree_has_no_findings(tree: SchemaTree) -> None:
    tree.routed()
    assert findings(tree) == []


@pytest.mark.parametrize(("key", "value"), [("actions", {"probe": "dom_probe"}), ("discriminator", "action")])
def test_a_smart_tool_uses_one_form_not_both(tree: SchemaTree, key: str, value: object) -> None:
    tree.routed(**{key: value})
    assert findings(tree) == [
        f"{PROBE_FILE}: [smart-form] x-cdpilot has both routes and {key}; "
        "a smart tool uses exactly one form, actions or routes"
    ]


def test_a_smart_tool_needs_one_of_the_forms(tree: SchemaTree) -> None:
    tree.routed()
    probe_file(tree, **{"x-cdpilot": {"group": "dom", "annotations": {}}})
    assert (
        f"{PROBE_FILE}: [smart-form] declare x-cdpilot.actions (action -> granular tool) or x-cdpilot.routes (rules)"
        in findings(tree)
    )


def test_router_own_properties_belong_to_the_routes_form(tree: SchemaTree) -> None:
    tree.routed()
    actions = {"probe": "dom_probe", "count": "dom_count", "reset": "dom_reset"}
    probe_file(tree, examples=[{"action": "reset"}], **{"x-cdpilot": {**SMART["x-cdpilot"], "actions": actions}})
    assert findings(tree) == [
        f'{PROBE_FILE}: [smart-form] top-level "properties" are router-own properties, which only the routes form has'
    ]


def test_routes_must_be_a_non_empty_list(tree: SchemaTree) -> None:
    tree.routed(routes=[])
    assert f"{PROBE_FILE}: [routes] x-cdpilot.routes must be a non-empty list of rules" in findings(tree)


def test_the_shape_of_each_rule(tree: SchemaTree) -> None:
    tree.routed(
        routes=[
            {"tool": "dom_reset", "when_equals": {"keep": False, "limit": 3}},
            {**COUNT, "when_equals": {"keep": True}},
            {"when_present": "selector"},
            {**FALLBACK, "when": "always"},
        ]
    )
    assert findings(tree) == [
        f"{PROBE_FILE}: [routes] route 0: when_equals must hold exactly one property and its value; it has 2",
        f"{PROBE_FILE}: [routes] route 1 has both when_present and when_equals; give one condition per rule",
        f'{PROBE_FILE}: [routes] route 2 must be an object naming its granular tool in "tool"',
        f"{PROBE_FILE}: [routes] route 3 has unexpected key 'when'; allowed: tool, when_present, when_equals",
    ]


def test_a_route_naming_a_missing_tool(tree: SchemaTree) -> None:
    tree.routed(routes=[RESET, COUNT, {"tool": "dom_poke"}])
    assert f"{PROBE_FILE}: [mapping] route 2 names 'dom_poke', which is no granular tool" in findings(tree)


def test_a_route_naming_a_smart_mode_tool(tree: SchemaTree) -> None:
    tree.routed()
    meta = {**copy.deepcopy(PROBE["x-cdpilot"]), "modes": ["legacy", "smart"]}
    tree.tool("dom_probe", **{"x-cdpilot": meta})
    assert findings(tree) == [f"{PROBE_FILE}: [mapping] route 2 names 'dom_probe', which is itself a smart-mode tool"]


@pytest.mark.parametrize(
    ("routes", "message"),
    [
        (
            [RESET, COUNT],
            "the last route must be the fallback (no when_present or when_equals), so every call has a tool",
        ),
        ([FALLBACK, RESET, COUNT], "route 0 is the fallback but not the last rule; the rules after it never match"),
        (
            [RESET, {"tool": "dom_count"}, FALLBACK],
            "routes 1, 2 are all fallbacks (no when_present or when_equals); give exactly one, last",
        ),
    ],
    ids=["missing", "not-last", "two"],
)
def test_exactly_one_fallback_and_it_comes_last(tree: SchemaTree, routes: list[Any], message: str) -> None:
    tree.routed(routes=routes)
    assert f"{PROBE_FILE}: [fallback] {message}" in findings(tree)


@pytest.mark.parametrize(
    ("routes", "message"),
    [
        (
            [RESET, {"tool": "dom_count", "when_present": "hidden"}, FALLBACK],
            "route 1: when_present names 'hidden', which neither the router-own properties nor any target declares",
        ),
        (
            [RESET, {"tool": "dom_count", "when_present": "limit"}, FALLBACK],
            "route 1: when_present names 'limit', which 'dom_count' does not take; every call it matches would be "
            "refused",
        ),
        (
            [{"tool": "dom_reset", "when_equals": {"keep": "no"}}, COUNT, FALLBACK],
            "route 0: when_equals value \"no\" is not valid for 'keep': 'no' is not of type 'boolean'",
        ),
    ],
    ids=["undeclared", "not-taken-by-its-target", "invalid-value"],
)
def test_a_condition_names_a_property_the_call_can_carry_with_a_valid_value(
    tree: SchemaTree, routes: list[Any], message: str
) -> None:
    tree.routed(routes=routes)
    assert f"{PROBE_FILE}: [route-condition] {message}" in findings(tree)


def test_a_router_own_property_must_not_shadow_a_target_parameter(tree: SchemaTree) -> None:
    tree.routed()
    own = {**ROUTED["properties"], "limit": {"type": "integer", "description": "Cap."}}
    probe_file(tree, properties=own)
    assert (
        f"{PROBE_FILE}: [own-property] router-own property 'limit' is also a parameter of 'dom_probe'; "
        "the router consumes it, so that tool would never get it"
    ) in findings(tree)


def test_a_router_own_property_that_no_route_names(tree: SchemaTree) -> None:
    tree.routed()
    probe_file(tree, properties={**ROUTED["properties"], "verbose": {"type": "boolean", "description": "More."}})
    assert findings(tree) == [
        f"{PROBE_FILE}: [own-property] router-own property 'verbose' is named by no route; "
        "the router would drop it unread"
    ]


def test_a_router_own_property_needs_a_description(tree: SchemaTree) -> None:
    tree.routed()
    probe_file(tree, properties={"keep": {"type": "boolean", "default": True}})
    assert findings(tree) == [f"{PROBE_FILE}: [property-description] property 'keep' needs a description"]


def test_examples_must_fit_the_flat_schema_and_the_chosen_target(tree: SchemaTree) -> None:
    tree.routed()
    probe_file(tree, examples=[{"keep": "no", "selector": "a"}, {"keep": False, "selector": "a"}])
    assert findings(tree) == [
        f"{PROBE_FILE}: [examples] example 0 is invalid at keep: 'no' is not of type 'boolean'",
        f"{PROBE_FILE}: [examples] example 1 as dom_reset is invalid at (root): "
        "Additional properties are not allowed ('selector' was unexpected)",
    ]


def test_targets_that_share_a_property_must_agree_on_its_schema(tree: SchemaTree) -> None:
    tree.routed()
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["maximum"] = 50
    tree.tool("dom_reset", properties=props, required=[], examples=[{}])
    assert findings(tree) == [
        f"{PROBE_FILE}: [merge] property 'limit' differs between targets 'dom_reset' and 'dom_probe'; "
        "a shared property must have one schema (use a shared $ref)"
    ]


def test_the_mapping_counts_route_targets(tree: SchemaTree) -> None:
    tree.routed()
    tree.smart("dom")  # routes dom_probe by action too
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [mapping] legacy tool 'dom_probe' is mapped more than once: "
        'dom(action="probe"), probe()'
    ]
