"""The build: the documents the generator reads, the package of model modules it writes, and what a
lint or generator failure gives."""

from __future__ import annotations

import ast
import copy
import gc
import json
from typing import Any

import datamodel_code_generator
import pytest

from codegen.build import build
from codegen.catalog import load_catalog
from codegen.models import ModelWriter, models_source, shared_objects
from tests.codegen.conftest import PROBE, SchemaTree

PACKAGE = "cdpilot_generated/models"

BOX: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "width": {"type": "number", "minimum": 0, "description": "Width."},
        "height": {"type": "number", "minimum": 0, "description": "Height."},
    },
    "required": ["width"],
    "description": "A box.",
}


def model(description: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "description": description, "additionalProperties": False, "properties": properties}


def test_an_object_parameter_that_tools_share_is_declared_once_before_its_first_user() -> None:
    titled = {**BOX, "title": "Frame", "default": {"width": 1}}
    defs = shared_objects(
        {
            "AArgs": model("A.", name={"type": "string", "description": "Name."}),
            "BArgs": model("B.", box=BOX, frame=titled),
            "CArgs": model("C.", frame=titled, box=BOX),
        }
    )
    assert list(defs) == ["AArgs", "box", "frame", "BArgs", "CArgs"]
    assert defs["box"] == BOX and defs["frame"] == titled
    assert defs["CArgs"]["properties"] == {
        "frame": {"$ref": "#/$defs/frame", "title": "Frame", "description": "A box.", "default": {"width": 1}},
        "box": {"$ref": "#/$defs/box", "description": "A box."},
    }


def test_an_object_parameter_with_two_schemas_or_one_user_stays_inline() -> None:
    models = {
        "AArgs": model("A.", box=BOX, frame=BOX),
        "BArgs": model("B.", box={**BOX, "description": "Another box."}),
    }
    assert shared_objects(copy.deepcopy(models)) == models


def test_sharing_a_flat_object_parameter_leaves_the_models_as_the_generator_writes_them_inline() -> None:
    annotated = {**BOX, "title": "Frame", "default": {"width": 2}, "examples": [{"width": 3}]}
    models = {f"Tool{n}Args": model(f"Tool {n}.", size={"type": "integer"}, box=annotated) for n in range(3)}
    models["Tool1Args"]["required"] = ["box"]
    defs = shared_objects(models)
    assert "box" in defs
    inline = models_source(json.dumps({"$defs": models}))
    assert models_source(json.dumps({"$defs": defs})) == inline
    assert inline.count("class Box(") == 1 and "class Box1(" not in inline


def test_a_lint_failure_is_reported_without_files_and_stops_the_generator(tree: SchemaTree) -> None:
    tree.tool("dom_probe", description="")
    result = build(tree.root)
    assert [finding.rule for finding in result.findings] == ["description", "mapping"]
    assert result.files == {}


def test_a_generator_failure_propagates_and_the_cycle_collector_is_back_on() -> None:
    assert gc.isenabled()
    with pytest.raises(datamodel_code_generator.Error, match="Models not found"):
        models_source(json.dumps({"$defs": {}}))
    assert gc.isenabled()


def test_a_generator_failure_in_a_worker_reaches_the_build() -> None:
    documents = {
        "good": json.dumps({"$defs": {"AArgs": model("A.", name={"type": "string"})}}),
        "empty": json.dumps({"$defs": {}}),
    }
    with ModelWriter(jobs=2) as writer, pytest.raises(datamodel_code_generator.Error, match="Models not found"):
        writer.sources(documents)


@pytest.fixture
def two_groups(tree: SchemaTree) -> SchemaTree:
    """dom: dom_probe, dom_count, dom_reset and the routing model of smart/probe.json; page: page_probe."""
    tree.routed()
    tree.tool("page_probe", **{"x-cdpilot": {**PROBE["x-cdpilot"], "group": "page", "modes": ["legacy", "smart"]}})
    return tree


def test_each_group_is_a_module_and_the_package_exports_every_model(two_groups: SchemaTree) -> None:
    result = build(two_groups.root)
    assert [str(finding) for finding in result.findings] == []
    files = result.files
    assert sorted(rel for rel in files if rel.startswith(PACKAGE)) == [
        f"{PACKAGE}/__init__.py",
        f"{PACKAGE}/dom.py",
        f"{PACKAGE}/page.py",
    ]
    dom, page = files[f"{PACKAGE}/dom.py"], files[f"{PACKAGE}/page.py"]
    assert classes(dom) == ["DomCountArgs", "DomProbeArgs", "DomResetArgs", "ProbeRouting"]
    assert classes(page) == ["PageProbeArgs"]
    package = ast.parse(files[f"{PACKAGE}/__init__.py"])
    imports = [node for node in ast.walk(package) if isinstance(node, ast.ImportFrom)]
    imported = {(node.module, alias.name) for node in imports for alias in node.names}
    assert imported - {("__future__", "annotations"), ("typing", "TYPE_CHECKING")} == {
        ("cdpilot_generated.models.dom", name) for name in classes(dom)
    } | {("cdpilot_generated.models.page", "PageProbeArgs")}
    values = {
        ast.unparse(node.target if isinstance(node, ast.AnnAssign) else node.targets[0]): ast.literal_eval(node.value)
        for node in package.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
    }
    assert values["GROUP_OF"] == {name: "dom" for name in classes(dom)} | {"PageProbeArgs": "page"}
    assert values["__all__"] == sorted(values["GROUP_OF"])


def test_workers_write_the_modules_one_process_writes(two_groups: SchemaTree) -> None:
    catalog = load_catalog(two_groups.root)
    with ModelWriter(jobs=2) as workers, ModelWriter(jobs=1) as this_process:
        assert workers.files(catalog) == this_process.files(catalog)


def classes(source: str) -> list[str]:
    return [node.name for node in ast.parse(source).body if isinstance(node, ast.ClassDef)]
