"""What the docs site says about a tool, from small schema trees: parameters, smart mapping, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.catalog import load_catalog
from codegen.site import StaleManifest, attach_entries
from codegen.site_pages import ToolDoc, granular_errors, returners, tool_docs
from codegen.site_params import Param
from tests.codegen.conftest import PROBE, SchemaTree

SNAPSHOT_SCHEMAS = Path(__file__).parent / "fixtures" / "snapshot" / "schemas"


def docs_of(root: Path) -> dict[str, ToolDoc]:
    return {doc.href: doc for doc in tool_docs(load_catalog(root))}


def add_browserless_tool(tree: SchemaTree) -> None:
    """dom_info: legacy only, no parameters, so no connection and no default resolver."""
    meta = {k: v for k, v in PROBE["x-cdpilot"].items() if k != "defaults"}
    tree.tool("dom_info", properties={}, required=[], examples=[{}], **{"x-cdpilot": meta})


def rows(doc: ToolDoc) -> dict[str, Param]:
    return {row.name: row for row in doc.params}


def test_every_keyword_becomes_a_column_and_nested_fields_get_rows() -> None:
    draw = rows(docs_of(SNAPSHOT_SCHEMAS)["tools/shape_draw.html"])
    assert list(draw) == [
        "selector",
        "kind",
        "size",
        "opacity",
        "points",
        "points[].x",
        "points[].y",
        "tags",
        "style",
        "style.stroke",
        "style.dash",
        "anchor",
        "connection_id",
    ]
    assert (draw["selector"].type, draw["selector"].required, draw["selector"].constraints) == (
        "string",
        "yes",
        "length ≥ 1",
    )
    assert (draw["kind"].default, draw["kind"].constraints) == ('"circle"', 'one of "circle", "square", "polygon"')
    assert (draw["size"].default, draw["size"].constraints) == ("10", "≥ 1; ≤ 100")
    assert draw["opacity"].constraints == "> 0; ≤ 1"
    assert (draw["points"].type, draw["points"].constraints) == ("array of object", "items ≥ 3; items ≤ 12")
    assert (draw["points[].x"].depth, draw["points[].x"].required, draw["points[].x"].type) == (1, "yes", "number")
    assert (draw["tags"].type, draw["tags"].constraints) == ("array of string", "items ≥ 1; each length ≤ 20")
    assert draw["style.stroke"].constraints == 'matches "^#[0-9a-f]{6}$"'
    assert draw["style.dash"].constraints == "each ≥ 0"
    assert draw["anchor"].type == "integer | string"
    assert (draw["connection_id"].default, draw["connection_id"].resolved_by) == ("", "the active connection")


def test_an_actions_tool_says_which_action_takes_and_needs_each_parameter() -> None:
    docs = docs_of(SNAPSHOT_SCHEMAS)
    shape = docs["smart/shape.html"]
    params = rows(shape)
    assert params["action"].used_by == ("selects the action",) and params["action"].default == '"draw"'
    assert params["selector"].used_by == ("draw", "erase") and params["selector"].required == "yes"
    assert params["kind"].used_by == ("draw",)
    assert [(link.label, link.href) for link in shape.counterparts] == [
        ('shape(action="draw")', "tools/shape_draw.html"),
        ('shape(action="erase")', "tools/shape_erase.html"),
    ]
    assert [target for _, target in shape.examples] == ["shape_draw", "shape_erase"]  # the first by default_action
    assert shape.hints == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert [(link.label, link.href) for link in docs["tools/shape_erase.html"].counterparts] == [
        ('shape(action="erase")', "smart/shape.html")
    ]
    both = docs["tools/shape_count.html"]
    assert both.modes == ("smart", "legacy") and both.counterparts == []


def test_a_routes_tool_names_the_router_and_the_routed_tools(tree: SchemaTree) -> None:
    tree.routed()
    probe = docs_of(tree.root)["smart/probe.html"]
    params = rows(probe)
    assert params["keep"].used_by == ("router (keep=false)",)
    assert params["include_hidden"].used_by == ("dom_count",)
    assert params["include_hidden"].required == "for dom_count"
    assert (
        params["selector"].used_by == ("dom_count", "dom_probe")
        and params["selector"].required == "for dom_count, dom_probe"
    )
    assert [target for _, target in probe.examples] == ["dom_probe", "dom_count", "dom_reset"]
    assert [link.label for link in probe.counterparts] == ["probe(keep=false)", "probe(include_hidden=…)", "probe()"]


def test_errors_follow_the_documented_rule(tree: SchemaTree) -> None:
    tree.routed()
    catalog = load_catalog(tree.root)
    assert granular_errors(catalog.granular["dom_probe"]) == {
        "CONNECTION",
        "STATE",
        "VALIDATION",
        "EXECUTION",
        "UNKNOWN",
    }
    add_browserless_tool(tree)
    bare = load_catalog(tree.root).granular["dom_info"]
    assert granular_errors(bare) == {"VALIDATION", "UNKNOWN"}  # no connection_id: no browser involved


def test_the_errors_page_says_who_returns_a_type_as_briefly_as_is_true(tree: SchemaTree) -> None:
    tree.routed()
    add_browserless_tool(tree)
    docs = tool_docs(load_catalog(tree.root))

    def said(kind: str) -> list[tuple[str, str, list[str]]]:
        return [(r.mode, r.phrase, [doc.name for doc in r.tools]) for r in returners(docs, kind)]

    assert said("VALIDATION") == [("smart", "every tool", []), ("legacy", "every tool", [])]
    assert said("DEBUGGER") == [("smart", "no tool", []), ("legacy", "no tool", [])]
    assert said("STATE") == [("smart", "every tool", []), ("legacy", "every tool except", ["dom_info"])]


def test_entries_come_from_the_payload_and_a_stale_one_is_refused(tree: SchemaTree) -> None:
    tree.tool("dom_probe")
    tree.smart("dom")
    docs = tool_docs(load_catalog(tree.root))
    smart = '{"tools":[{"name":"dom","description":"d"}]}'
    legacy = '{"tools":[{"name":"dom_probe","description":"p"}]}'
    summaries = attach_entries(docs, {"smart": smart, "legacy": legacy})
    assert [(s.mode, s.count, s.size) for s in summaries] == [("smart", 1, len(smart)), ("legacy", 1, len(legacy))]
    assert [s.budget for s in summaries] == ["at most 20 tools and 16,000 characters", ""]
    assert {doc.name: doc.entries for doc in docs} == {
        "dom": {"smart": '{"name":"dom","description":"d"}'},
        "dom_probe": {"legacy": '{"name":"dom_probe","description":"p"}'},
    }
    with pytest.raises(StaleManifest, match=r"the legacy tools/list names \['dom_gone', 'dom_probe'\] differently"):
        attach_entries(tool_docs(load_catalog(tree.root)), {"smart": smart, "legacy": legacy.replace("probe", "gone")})
