"""The build: the models document the generator reads, and what a lint or generator failure gives."""

from __future__ import annotations

import copy
import gc
import json
from typing import Any

import datamodel_code_generator
import pytest

from codegen import build as build_module
from codegen.build import build
from codegen.models import models_source, shared_objects
from tests.codegen.conftest import SchemaTree

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


def test_a_generator_failure_propagates_and_the_cycle_collector_is_back_on(
    tree: SchemaTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree.tool("dom_probe")
    tree.smart("dom")
    monkeypatch.setattr(build_module, "models_document", lambda catalog: json.dumps({"$defs": {}}))
    assert gc.isenabled()
    with pytest.raises(datamodel_code_generator.Error, match="Models not found"):
        build(tree.root)
    assert gc.isenabled()
