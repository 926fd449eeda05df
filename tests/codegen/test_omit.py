"""``x-cdpilot.omit``: advanced target parameters a smart tool does not expose (legacy mode keeps them).

What codegen builds from it (flat schema, wire, dispatch entry) and each lint rule, with the
fixture trees of conftest: smart/dom.json maps action probe to dom_probe (selector required,
limit optional); smart/probe.json routes to dom_reset, dom_count and dom_probe.
"""

from __future__ import annotations

import copy

from codegen.catalog import load_catalog
from codegen.manifest import manifest
from codegen.render import render_templates
from codegen.smart import input_schema
from tests.codegen.conftest import SMART, SchemaTree, findings

SMART_FILE = "schemas/smart/dom.json"


def omitting(tree: SchemaTree, omit: object) -> None:
    """dom_probe and smart/dom.json with ``x-cdpilot.omit`` set to ``omit``."""
    tree.tool("dom_probe")
    tree.smart("dom", **{"x-cdpilot": {**copy.deepcopy(SMART["x-cdpilot"]), "omit": omit}})


def test_an_omitted_parameter_leaves_the_smart_schema_and_wire_but_not_legacy(tree: SchemaTree) -> None:
    omitting(tree, ["limit"])
    assert findings(tree) == []
    catalog = load_catalog(tree.root)
    assert list(input_schema(catalog, catalog.smart["dom"])["properties"]) == ["action", "selector", "connection_id"]
    [smart] = manifest(catalog, "smart")
    assert "limit" not in smart["inputSchema"]["properties"]
    [legacy] = manifest(catalog, "legacy")
    assert legacy["inputSchema"]["properties"]["limit"]["default"] == 5


def test_the_dispatch_entry_lists_the_parameters_and_who_takes_each_omitted_one(tree: SchemaTree) -> None:
    omitting(tree, ["limit"])
    generated = render_templates(load_catalog(tree.root))["cdpilot_generated/catalog.py"]
    assert (
        "                'probe': TOOLS['dom_probe'],\n"
        "            },\n"
        "            ('action', 'selector', 'connection_id'),\n"
        "            {'limit': ('dom_probe',)},\n"
        "        ),\n"
    ) in generated


def test_the_routes_form_omits_across_its_targets(tree: SchemaTree) -> None:
    tree.routed(omit=["limit"])
    assert findings(tree) == []
    generated = render_templates(load_catalog(tree.root))["cdpilot_generated/catalog.py"]
    assert (
        "            ('keep', 'connection_id', 'selector', 'include_hidden'),\n            {'limit': ('dom_probe',)},\n"
    ) in generated


def test_omit_must_be_a_list_of_names(tree: SchemaTree) -> None:
    omitting(tree, "limit")
    assert findings(tree) == [f"{SMART_FILE}: [omit] x-cdpilot.omit must be a list of parameter names"]


def test_an_omitted_name_must_be_a_target_parameter(tree: SchemaTree) -> None:
    omitting(tree, ["depth"])
    assert findings(tree) == [f"{SMART_FILE}: [omit] omits 'depth', which no target takes"]


def test_a_required_parameter_cannot_be_omitted(tree: SchemaTree) -> None:
    omitting(tree, ["selector"])
    assert findings(tree) == [
        f"{SMART_FILE}: [examples] example 0 is invalid at (root): "
        "Additional properties are not allowed ('selector' was unexpected)",
        f"{SMART_FILE}: [omit] omits 'selector', which 'dom_probe' requires; smart mode could never call it",
    ]


def test_a_parameter_a_route_tests_cannot_be_omitted(tree: SchemaTree) -> None:
    tree.routed(omit=["include_hidden"])
    assert findings(tree) == [
        "schemas/smart/probe.json: [examples] example 1 is invalid at (root): "
        "Additional properties are not allowed ('include_hidden' was unexpected)",
        "schemas/smart/probe.json: [omit] omits 'include_hidden', which 'dom_count' requires; "
        "smart mode could never call it",
        "schemas/smart/probe.json: [omit] omits 'include_hidden', which route 1 tests; that route could never be taken",
    ]
