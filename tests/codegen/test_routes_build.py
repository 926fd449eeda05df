"""What codegen builds from a routes-form smart tool: flat schema, hints, dispatch entry, spellings."""

from __future__ import annotations

import pytest

from codegen.build import build
from codegen.catalog import Route, load_catalog
from codegen.smart import choose_route, derived_annotations, input_schema
from tests.codegen.conftest import PROBE, SchemaTree


@pytest.fixture
def routed(tree: SchemaTree) -> SchemaTree:
    tree.routed()
    return tree


def test_the_typed_routes(routed: SchemaTree) -> None:
    probe = load_catalog(routed.root).smart["probe"]
    assert probe.routes == (
        Route("dom_reset", equals=("keep", False)),
        Route("dom_count", present="include_hidden"),
        Route("dom_probe"),
    )
    assert probe.targets == ["dom_reset", "dom_count", "dom_probe"]


def test_the_flat_schema_is_the_own_properties_then_the_union_without_a_discriminator(routed: SchemaTree) -> None:
    catalog = load_catalog(routed.root)
    schema = input_schema(catalog, catalog.smart["probe"])
    assert list(schema["properties"]) == ["keep", "connection_id", "selector", "include_hidden", "limit"]
    assert schema["properties"]["keep"] == {"type": "boolean", "default": True, "description": "false resets."}
    assert schema["required"] == []  # dom_reset requires nothing, so nothing is required by every target
    assert schema["additionalProperties"] is False


def test_hints_are_derived_from_every_target(routed: SchemaTree) -> None:
    catalog = load_catalog(routed.root)
    assert derived_annotations(catalog, catalog.smart["probe"]) == {
        "title": "Probe",
        "readOnlyHint": False,  # dom_reset is not read-only
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": False,
    }


@pytest.mark.parametrize(
    ("arguments", "tool"),
    [
        ({}, "dom_probe"),  # keep defaults to true
        ({"keep": True, "include_hidden": False}, "dom_count"),  # present means given, whatever its value
        ({"keep": False, "include_hidden": True}, "dom_reset"),  # rules are tried in order
        ({"include_hidden": None}, "dom_probe"),  # null counts as absent
    ],
)
def test_choose_route_follows_the_rules_in_order(routed: SchemaTree, arguments: dict[str, object], tool: str) -> None:
    route = choose_route(load_catalog(routed.root).smart["probe"], arguments)
    assert route is not None and route.tool == tool


def test_the_generated_rule_route_spellings_and_routing_model(routed: SchemaTree) -> None:
    files = build(routed.root).files
    catalog = files["cdpilot_generated/catalog.py"]
    assert (
        "        'probe': RuleRoute(\n"
        "            'probe',\n"
        "            'ProbeRouting',\n"
        "            (\n"
        "                Rule(TOOLS['dom_reset'], None, ('keep', False)),\n"
        "                Rule(TOOLS['dom_count'], 'include_hidden', None),\n"
        "                Rule(TOOLS['dom_probe'], None, None),\n"
        "            ),\n"
        "            ('keep', 'connection_id', 'selector', 'include_hidden', 'limit'),\n"
        "            {},\n"
        "        ),\n"
    ) in catalog
    assert (
        "    'smart': {\n"
        "        'dom_count': 'probe(include_hidden=…)',\n"
        "        'dom_probe': 'probe()',\n"
        "        'dom_reset': 'probe(keep=false)',\n"
        "    },\n"
    ) in catalog
    models = files["cdpilot_generated/models/dom.py"]
    assert "class ProbeRouting(ArgsModel):" in models
    assert "    keep: Annotated[bool, Field(description='false resets.')] = True" in models


def test_a_routes_tool_without_own_properties_has_no_routing_model(routed: SchemaTree) -> None:
    routed.tool(
        "dom_probe", properties={"connection_id": PROBE["properties"]["connection_id"]}, required=[], examples=[{}]
    )
    routed.write(
        "smart/probe.json",
        {
            "description": "Probe.",
            "examples": [{}],
            "x-cdpilot": {"group": "dom", "routes": [{"tool": "dom_probe"}], "annotations": {}},
        },
    )
    for name in ("dom_count", "dom_reset"):
        (routed.root / f"tools/dom/{name}.json").unlink()
    files = build(routed.root).files
    assert (
        "        'probe': RuleRoute(\n            'probe',\n            None,\n"
        in files["cdpilot_generated/catalog.py"]
    )
    assert "Routing" not in files["cdpilot_generated/models/dom.py"]
