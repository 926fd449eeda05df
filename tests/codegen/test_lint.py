"""Schema lint: each rule proven with a schema that breaks exactly it, asserting the exact finding."""

from __future__ import annotations

import copy

import pytest

from codegen.catalog import load_catalog
from codegen.lint import SMART_DESCRIPTION_MAX, SMART_PAYLOAD_BUDGET, SMART_TOOL_BUDGET
from codegen.manifest import payload
from codegen.schema_check import schema_error
from tests.codegen.conftest import PROBE, SMART, SchemaTree, findings


def test_a_valid_tree_has_no_findings(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.smart("dom")
    assert findings(tree) == []


def test_broken_json_names_file_and_rule(tree: SchemaTree) -> None:
    tree.write("tools/dom/dom_probe.json", "{not json")
    [finding] = findings(tree)
    assert finding.startswith("schemas/tools/dom/dom_probe.json: [json] not readable JSON:")


def test_tool_name_pattern(tree: SchemaTree) -> None:
    tree.tool("DomProbe")
    tree.smart("dom", **{"x-cdpilot": {**copy.deepcopy(PROBE["x-cdpilot"]), "group": "dom"}})
    assert (
        "schemas/tools/dom/DomProbe.json: [name] tool name 'DomProbe' must match ^[a-z][a-z0-9_]*$ "
        "(the file name is the tool name)" in findings(tree)
    )


def test_additional_properties_must_be_false(tree: SchemaTree) -> None:
    tree.tool("dom_probe", additionalProperties=True)
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [additional-properties] "
        'the input schema must set "additionalProperties": false'
    ]


def test_every_property_needs_a_description(tree: SchemaTree) -> None:
    props = copy.deepcopy(PROBE["properties"])
    del props["limit"]["description"]
    tree.tool("dom_probe", properties=props)
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [property-description] property 'limit' needs a description"
    ]


def test_all_four_annotation_hints_are_required(tree: SchemaTree) -> None:
    meta = copy.deepcopy(PROBE["x-cdpilot"])
    del meta["annotations"]["openWorldHint"]
    tree.tool("dom_probe", **{"x-cdpilot": meta})
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [annotations] annotations.openWorldHint must be true or false"
    ]


def test_examples_must_validate(tree: SchemaTree) -> None:
    tree.tool("dom_probe", examples=[{"selector": "a", "limit": 99}])
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [examples] "
        "example 0 is invalid at limit: 99 is greater than the maximum of 20"
    ]


def test_dangling_ref(tree: SchemaTree) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["connection_id"] = {"$ref": "../../common/defs.json#/$defs/nope"}
    tree.tool("dom_probe", properties=props)
    tree.smart("dom")
    assert findings(tree)[0] == (
        "schemas/tools/dom/dom_probe.json: [ref] $ref '../../common/defs.json#/$defs/nope' does not resolve"
    )


def test_unknown_default_resolver(tree: SchemaTree) -> None:
    meta = copy.deepcopy(PROBE["x-cdpilot"])
    meta["defaults"] = {"connection_id": "first_connection"}
    tree.tool("dom_probe", **{"x-cdpilot": meta})
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_probe.json: [defaults] unknown resolver 'first_connection'; known: ['active_connection']"
    ]


def test_legacy_tool_without_smart_counterpart(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.tool("dom_orphan")
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/tools/dom/dom_orphan.json: [mapping] legacy tool 'dom_orphan' has no smart counterpart "
        '(add it to a smart tool\'s actions or routes, or put "smart" in its modes)'
    ]


def test_action_naming_a_missing_tool(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.smart("dom", **{"x-cdpilot": {**SMART_META(), "actions": {"probe": "dom_probe", "poke": "dom_poke"}}})
    assert findings(tree) == [
        "schemas/smart/dom.json: [mapping] action 'poke' names 'dom_poke', which is no granular tool"
    ]


def SMART_META() -> dict[str, object]:
    from tests.codegen.conftest import SMART

    return copy.deepcopy(SMART["x-cdpilot"])


def test_shared_property_with_two_schemas_fails_the_merge(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["maximum"] = 50
    tree.tool("dom_count", properties=props)
    tree.smart("dom", **{"x-cdpilot": {**SMART_META(), "actions": {"probe": "dom_probe", "count": "dom_count"}}})
    assert findings(tree) == [
        "schemas/smart/dom.json: [merge] property 'limit' differs between actions 'probe' and 'count'; "
        "a shared property must have one schema (use a shared $ref)"
    ]


def test_smart_budget(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.smart("dom")
    for index in range(SMART_TOOL_BUDGET):
        tree.tool(
            f"extra_{index}",
            **{"x-cdpilot": {**copy.deepcopy(PROBE["x-cdpilot"]), "modes": ["legacy", "smart"]}},
        )
    assert findings(tree) == [f"schemas/smart: [budget] smart mode has {SMART_TOOL_BUDGET + 1} tools; the budget is 20"]


def test_smart_payload_budget(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.smart("dom")
    room = SMART_PAYLOAD_BUDGET - len(payload(load_catalog(tree.root), "smart"))
    tree.smart("dom", description=SMART["description"] + "x" * room)
    assert findings(tree) == []  # exactly at the budget
    tree.smart("dom", description=SMART["description"] + "x" * (room + 1))
    assert findings(tree) == [
        f"schemas/smart: [budget] smart tools/list is {SMART_PAYLOAD_BUDGET + 1} characters; "
        f"the budget is {SMART_PAYLOAD_BUDGET} "
        "(shorten descriptions, or omit advanced parameters with x-cdpilot.omit)"
    ]


@pytest.mark.parametrize("key", ["title", "x-other"])
def test_unknown_top_level_keys_are_refused(tree: SchemaTree, key: str) -> None:
    tree.tool("dom_probe", **{key: "x"})
    tree.smart("dom")
    assert findings(tree) == [f"schemas/tools/dom/dom_probe.json: [unknown-key] unexpected top-level key {key!r}"]


def test_a_schema_check_holds_for_any_prose_and_still_types_it() -> None:
    assert schema_error({"type": "string", "description": "One text."}) is None
    assert schema_error({"type": "string", "description": "Another text."}) is None
    assert schema_error({"type": "string", "description": 5}) == "5 is not of type 'string'"
    assert schema_error({"type": "strin", "title": "T."}) == "'strin' is not valid under any of the given schemas"


def test_a_smart_parameter_without_a_description_is_refused(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    meta = SMART_META()
    del meta["discriminator_description"]
    tree.smart("dom", **{"x-cdpilot": meta})
    assert findings(tree) == [
        "schemas/smart/dom.json: [smart-description] smart parameter 'action' has no description "
        "(give it x-cdpilot.discriminator_description)"
    ]


def test_a_smart_parameter_described_at_length_needs_a_short_form(tree: SchemaTree) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["description"] = "At most this many elements, counted in document order across every frame."
    tree.tool("dom_probe", properties=props)
    tree.smart("dom")
    assert findings(tree) == [
        "schemas/smart/dom.json: [smart-description] smart parameter 'limit' is described in 72 characters; "
        f"smart mode takes at most {SMART_DESCRIPTION_MAX} "
        '(put a shorter form beside the description: "x-cdpilot": {"short": "..."})'
    ]
    props["limit"]["x-cdpilot"] = {"short": "Max elements."}
    tree.tool("dom_probe", properties=props)
    assert findings(tree) == []


def test_a_granular_tool_in_smart_mode_is_held_to_the_same_length(tree: SchemaTree) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["description"] = "x" * (SMART_DESCRIPTION_MAX + 1)
    tree.tool("dom_probe")
    tree.tool(
        "dom_solo",
        properties=props,
        **{"x-cdpilot": {**copy.deepcopy(PROBE["x-cdpilot"]), "modes": ["legacy", "smart"]}},
    )
    tree.smart("dom")
    assert findings(tree) == [
        f"schemas/tools/dom/dom_solo.json: [smart-description] smart parameter 'limit' is described in "
        f"{SMART_DESCRIPTION_MAX + 1} characters; smart mode takes at most {SMART_DESCRIPTION_MAX} "
        '(put a shorter form beside the description: "x-cdpilot": {"short": "..."})'
    ]


@pytest.mark.parametrize(
    ("vendor", "message"),
    [
        ({"short": ""}, 'x-cdpilot must be {"short": "<its description in a few words>"}'),
        ({"short": "Max.", "long": "x"}, 'x-cdpilot must be {"short": "<its description in a few words>"}'),
        ("Max.", 'x-cdpilot must be {"short": "<its description in a few words>"}'),
        ({"short": "At most this many."}, "x-cdpilot.short repeats the description; drop it"),
    ],
)
def test_a_short_form_is_one_non_empty_string_other_than_the_description(
    tree: SchemaTree, vendor: object, message: str
) -> None:
    props = copy.deepcopy(PROBE["properties"])
    props["limit"]["x-cdpilot"] = vendor
    tree.tool("dom_probe", properties=props)
    tree.smart("dom")
    assert findings(tree) == [f"schemas/tools/dom/dom_probe.json: [property-short] property 'limit': {message}"]
