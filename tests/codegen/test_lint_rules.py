"""The schema lint rules that test_lint.py and test_lint_routes.py leave out, one case per message.

Each case starts from the valid fixture tree (dom_probe mapped by smart/dom.json, see
conftest), breaks exactly one thing, and asserts every finding of the rules it names, messages
exact. Findings of other rules that follow from the break (an example that no longer fits a
changed schema) are left to those rules' own tests.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.codegen.conftest import PROBE, ROUTED, SMART, SchemaTree, findings

TOOL = "schemas/tools/dom/dom_probe.json"
SMART_FILE = "schemas/smart/dom.json"


def meta(**changes: Any) -> dict[str, Any]:
    """dom_probe's x-cdpilot with `changes`."""
    return {**copy.deepcopy(PROBE["x-cdpilot"]), **changes}


def smart_meta(**changes: Any) -> dict[str, Any]:
    """smart/dom.json's x-cdpilot with `changes`."""
    return {**copy.deepcopy(SMART["x-cdpilot"]), **changes}


def probe(**changes: Any) -> Callable[[SchemaTree], None]:
    """A valid tree whose dom_probe has `changes` (top-level keys; None removes one)."""

    def build(tree: SchemaTree) -> None:
        schema = {**copy.deepcopy(PROBE), **changes}
        tree.write("tools/dom/dom_probe.json", {k: v for k, v in schema.items() if v is not None})
        tree.smart("dom")

    return build


def smart(**changes: Any) -> Callable[[SchemaTree], None]:
    """A valid tree whose smart/dom.json has `changes`."""

    def build(tree: SchemaTree) -> None:
        tree.tool("dom_probe")
        tree.smart("dom", **changes)

    return build


def with_props(**changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(PROBE["properties"]), **changes}


def not_an_object(tree: SchemaTree) -> None:
    tree.write("tools/dom/dom_probe.json", "[1, 2]")
    tree.smart("dom")


def defined_twice(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.write("tools/other/dom_probe.json", PROBE)
    tree.smart("dom")


def two_smart_tools_named_dom(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.tool("dom", **{"x-cdpilot": meta(modes=["legacy", "smart"])})
    tree.smart("dom")


def ref_cycle(tree: SchemaTree) -> None:
    tree.write("common/defs.json", {"$defs": {"loop": {"$ref": "#/$defs/loop"}}})
    probe(properties=with_props(connection_id={"$ref": "../../common/defs.json#/$defs/loop"}))(tree)


CASES: dict[str, tuple[Callable[[SchemaTree], None], list[str]]] = {
    "json-not-an-object": (not_an_object, [f"{TOOL}: [json] the top level must be a JSON object"]),
    "ref-missing-file": (
        probe(properties=with_props(connection_id={"$ref": "../../common/nope.json#/$defs/x"})),
        [f"{TOOL}: [ref] $ref '../../common/nope.json#/$defs/x' names a missing file"],
    ),
    "ref-cycle": (ref_cycle, ["schemas/common/defs.json: [ref] $ref nesting deeper than 32 (a cycle?)"]),
    "duplicate-name-file": (defined_twice, ["{other}: [duplicate-name] tool 'dom_probe' is also defined in {first}"]),
    "duplicate-name-smart": (
        two_smart_tools_named_dom,
        ["schemas/tools/dom/dom.json: [duplicate-name] smart mode would have two tools named 'dom'"],
    ),
    "description": (probe(description="  "), [f"{TOOL}: [description] the tool needs a non-empty description"]),
    "vendor-key-missing": (
        probe(**{"x-cdpilot": None}),
        [
            f"{TOOL}: [vendor-key] missing the 'x-cdpilot' object (group, modes, annotations)",
            f"{TOOL}: [vendor-key] x-cdpilot.modes must be a non-empty list of ['smart', 'legacy']",
        ],
    ),
    "vendor-key-group": (
        probe(**{"x-cdpilot": meta(group="DOM")}),
        [f"{TOOL}: [vendor-key] x-cdpilot.group must be a lower_snake name"],
    ),
    "vendor-key-group-keyword": (
        probe(**{"x-cdpilot": meta(group="global")}),
        [f"{TOOL}: [vendor-key] x-cdpilot.group 'global' is a Python keyword; the group names a module of models"],
    ),
    "vendor-key-unknown": (
        probe(**{"x-cdpilot": meta(colour="red")}),
        [f"{TOOL}: [vendor-key] unexpected x-cdpilot key 'colour'"],
    ),
    "vendor-key-modes": (
        probe(**{"x-cdpilot": meta(modes=["legacy", "turbo"])}),
        [f"{TOOL}: [vendor-key] x-cdpilot.modes must be a non-empty list of ['smart', 'legacy']"],
    ),
    "examples-missing": (probe(examples=[]), [f"{TOOL}: [examples] give at least one example argument object"]),
    "schema-type": (probe(type="array"), [f'{TOOL}: [schema-type] the input schema must have "type": "object"']),
    "property-name": (
        probe(properties=with_props(Limit={"type": "integer", "description": "Cap."})),
        [f"{TOOL}: [property-name] property 'Limit' must be lower_snake"],
    ),
    "keyword": (
        probe(
            properties=with_props(
                tags={"type": "array", "items": {"type": "string"}, "uniqueItems": True, "description": "Tags."},
                box={
                    "type": "object",
                    "properties": {"size": {"type": "integer", "not": {"const": 0}, "description": "Size."}},
                    "description": "A box.",
                },
            )
        ),
        [
            f"{TOOL}: [keyword] property 'box/properties/size' uses 'not', which the argument models do not enforce",
            f"{TOOL}: [keyword] property 'tags' uses 'uniqueItems', which the argument models do not enforce",
        ],
    ),
    "required-undeclared": (
        probe(required=["selector", "frame"]),
        [f"{TOOL}: [required] required property 'frame' is not declared"],
    ),
    "mapping-smart-only": (
        probe(**{"x-cdpilot": meta(modes=["smart"])}),
        [
            f"{SMART_FILE}: [mapping] action 'probe' names 'dom_probe', which is itself a smart-mode tool",
            f"{TOOL}: [mapping] every granular tool is a legacy tool; smart-only behaviour needs a legacy form too",
        ],
    ),
    "annotations-object": (
        probe(**{"x-cdpilot": meta(annotations=["readOnlyHint"])}),
        [f"{TOOL}: [annotations] x-cdpilot.annotations must be an object"],
    ),
    "annotations-title": (
        probe(**{"x-cdpilot": meta(annotations={**PROBE["x-cdpilot"]["annotations"], "title": 3})}),
        [f"{TOOL}: [annotations] annotations.title must be a string"],
    ),
    "annotations-unknown": (
        probe(**{"x-cdpilot": meta(annotations={**PROBE["x-cdpilot"]["annotations"], "audience": "all"})}),
        [f"{TOOL}: [annotations] unexpected annotation 'audience'"],
    ),
    "defaults-undeclared": (
        probe(**{"x-cdpilot": meta(defaults={"connection_id": "active_connection", "tab_id": "active_connection"})}),
        [f"{TOOL}: [defaults] default resolver for undeclared property 'tab_id'"],
    ),
    "defaults-required": (
        probe(required=["selector", "connection_id"]),
        [f"{TOOL}: [defaults] property 'connection_id' is required, so a default resolver would never run"],
    ),
    "schema-invalid": (
        probe(properties=with_props(limit={"type": "integr", "description": "Cap."})),
        [  # reported on the smart tool too: its flat schema holds the broken property
            f"{SMART_FILE}: [schema-invalid] not a valid JSON Schema: "
            "'integr' is not valid under any of the given schemas",
            f"{TOOL}: [schema-invalid] not a valid JSON Schema: 'integr' is not valid under any of the given schemas",
        ],
    ),
    "smart-vendor-key-unknown": (
        smart(**{"x-cdpilot": smart_meta(modes=["smart"])}),
        [f"{SMART_FILE}: [vendor-key] unexpected x-cdpilot key 'modes'"],
    ),
    "smart-annotations-hint": (
        smart(**{"x-cdpilot": smart_meta(annotations={"readOnlyHint": True})}),
        [
            f"{SMART_FILE}: [annotations] unexpected annotation 'readOnlyHint' "
            "(smart tools derive their hints from their actions)"
        ],
    ),
    "smart-discriminator-name": (
        smart(examples=[{"What": "probe", "selector": "a"}], **{"x-cdpilot": smart_meta(discriminator="What")}),
        [f"{SMART_FILE}: [vendor-key] x-cdpilot.discriminator must be a lower_snake name"],
    ),
    "smart-actions-empty": (
        smart(**{"x-cdpilot": smart_meta(actions={})}),
        [
            f"{SMART_FILE}: [mapping] x-cdpilot.actions must map each action to a granular tool",
            f"{TOOL}: [mapping] legacy tool 'dom_probe' has no smart counterpart (add it to a smart tool's "
            'actions or routes, or put "smart" in its modes)',
        ],
    ),
    "smart-action-name": (
        smart(
            examples=[{"action": "Probe", "selector": "a"}], **{"x-cdpilot": smart_meta(actions={"Probe": "dom_probe"})}
        ),
        [f"{SMART_FILE}: [mapping] action 'Probe' must be lower_snake"],
    ),
    "smart-discriminator-clash": (
        smart(examples=[{"selector": "probe"}], **{"x-cdpilot": smart_meta(discriminator="selector")}),
        [f"{SMART_FILE}: [discriminator-clash] 'dom_probe' has a property named 'selector'"],
    ),
    "smart-default-action": (
        smart(**{"x-cdpilot": smart_meta(default_action="poke")}),
        [f"{SMART_FILE}: [default-action] default_action 'poke' is not one of the actions"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_rule_names_its_file_and_says_exactly_what_is_wrong(tree: SchemaTree, case: str) -> None:
    build, expected = CASES[case]
    build(tree)
    paths = {"other": "schemas/tools/other/dom_probe.json", "first": str(tree.root / "tools/dom/dom_probe.json")}
    rules = {message.split("] ", 1)[0].split(": [", 1)[1] for message in expected}
    found = [finding for finding in findings(tree) if finding.split("] ", 1)[0].split(": [", 1)[1] in rules]
    assert found == [message.format(**paths) for message in expected]


ROUTES_CASES: dict[str, tuple[dict[str, Any], str]] = {
    "properties-not-an-object": (
        {"properties": ["keep"]},
        'top-level "properties" (the router-own properties) must be an object',
    ),
    "when-present-not-a-name": (
        {"x-cdpilot": {**ROUTED["x-cdpilot"], "routes": [{"tool": "dom_count", "when_present": 3}]}},
        "route 0: when_present must be a property name",
    ),
    "when-equals-not-an-object": (
        {"x-cdpilot": {**ROUTED["x-cdpilot"], "routes": [{"tool": "dom_reset", "when_equals": "keep"}]}},
        "route 0: when_equals must hold exactly one property and its value; it is not an object",
    ),
}


@pytest.mark.parametrize("case", sorted(ROUTES_CASES))
def test_each_routes_shape_rule(tree: SchemaTree, case: str) -> None:
    tree.routed()
    changes, message = ROUTES_CASES[case]
    tree.write("smart/probe.json", {**copy.deepcopy(ROUTED), **changes})
    assert f"schemas/smart/probe.json: [routes] {message}" in findings(tree)
