"""The keywords the lint lets a parameter use are the keywords the argument models enforce.

The server validates arguments with the generated models, so a keyword they dropped would be a
promise in tools/list that nothing keeps. For every validation keyword on the lint's list
(`codegen.keywords.ENFORCED`) a case below gives a value the generated model must refuse
and one it must accept; the list and the cases must name the same keywords. The keywords the
lint refuses are checked the other way: the generator really drops them (when a generator
upgrade starts enforcing one, that test says so, and the keyword can join the list with a case).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pydantic
import pytest

from codegen.keywords import ENFORCED
from codegen.models import models_source

STRING = {"type": "string"}
STRINGS = {"type": "array", "items": STRING}
INTEGERS = {"type": "object", "additionalProperties": {"type": "integer"}}
# keyword: (the parameter's schema, a value it refuses, a value it accepts)
CASES: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "type": ({"type": "integer"}, "one", 1),
    "enum": ({"type": "string", "enum": ["a", "b"]}, "c", "b"),
    "const": ({"const": "a"}, "b", "a"),
    "minimum": ({"type": "integer", "minimum": 1}, 0, 1),
    "maximum": ({"type": "integer", "maximum": 1}, 2, 1),
    "exclusiveMinimum": ({"type": "number", "exclusiveMinimum": 1}, 1, 1.5),
    "exclusiveMaximum": ({"type": "number", "exclusiveMaximum": 1}, 1, 0.5),
    "multipleOf": ({"type": "integer", "multipleOf": 2}, 3, 4),
    "minLength": ({"type": "string", "minLength": 2}, "a", "ab"),
    "maxLength": ({"type": "string", "maxLength": 1}, "ab", "a"),
    "pattern": ({"type": "string", "pattern": "^a+$"}, "b", "aa"),
    "items": ({"type": "array", "items": {"type": "integer"}}, ["a"], [1]),
    "minItems": ({**STRINGS, "minItems": 2}, ["a"], ["a", "b"]),
    "maxItems": ({**STRINGS, "maxItems": 1}, ["a", "b"], ["a"]),
    "properties": ({"type": "object", "properties": {"a": {"type": "integer"}}}, {"a": "x"}, {"a": 1}),
    "required": ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {}, {"a": "x"}),
    "additionalProperties": (INTEGERS, {"b": "x"}, {"b": 1}),
    "patternProperties": ({"type": "object", "patternProperties": {"^a": {"type": "integer"}}}, {"a": "x"}, {"a": 1}),
    "propertyNames": ({**INTEGERS, "propertyNames": {"pattern": "^a"}}, {"b": 1}, {"a": 1}),
    "minProperties": ({**INTEGERS, "minProperties": 1}, {}, {"a": 1}),
    "maxProperties": ({**INTEGERS, "maxProperties": 1}, {"a": 1, "b": 2}, {"a": 1}),
    "anyOf": ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, "x", True),
    "oneOf": ({"oneOf": [{"type": "integer"}, {"type": "boolean"}]}, "x", 1),
}
# Keywords the lint refuses, with a value the generated model should refuse but accepts.
DROPPED: dict[str, tuple[dict[str, Any], Any]] = {
    "uniqueItems": ({**STRINGS, "uniqueItems": True}, ["a", "a"]),
    "contains": ({"type": "array", "items": {"type": "integer"}, "contains": {"const": 1}}, [2]),
    "prefixItems": ({"type": "array", "prefixItems": [{"type": "integer"}]}, ["a"]),
    "not": ({"type": "integer", "not": {"const": 0}}, 0),
    "if": ({"type": "integer", "if": {"minimum": 5}, "then": {"multipleOf": 2}}, 7),
    "dependentRequired": (
        {"type": "object", "properties": {"a": STRING, "b": STRING}, "dependentRequired": {"a": ["b"]}},
        {"a": "x"},
    ),
}


def model_name(keyword: str) -> str:
    return f"Case{keyword[0].upper()}{keyword[1:]}Args"


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """One generated module: a model per keyword of CASES and DROPPED, its one parameter ``value``."""
    cases = {keyword: schema for keyword, (schema, *_) in {**CASES, **DROPPED}.items()}
    defs = {
        model_name(keyword): {
            "type": "object",
            "description": f"The {keyword} case.",
            "additionalProperties": False,
            "properties": {"value": {**schema, "description": "The value."}},
            "required": ["value"],
        }
        for keyword, schema in cases.items()
    }
    path = tmp_path_factory.mktemp("keywords") / "keyword_models.py"
    path.write_text(models_source(json.dumps({"$defs": defs})), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("keyword_models", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the module's own annotations through it
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_the_lint_allows_exactly_the_keywords_proven_here() -> None:
    assert set(CASES) == ENFORCED
    assert not set(DROPPED) & ENFORCED


@pytest.mark.parametrize("keyword", sorted(CASES))
def test_each_allowed_keyword_is_enforced_by_the_generated_model(models: ModuleType, keyword: str) -> None:
    _, refused, accepted = CASES[keyword]
    model = getattr(models, model_name(keyword))
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({"value": refused})
    model.model_validate({"value": accepted})


@pytest.mark.parametrize("keyword", sorted(DROPPED))
def test_each_refused_keyword_is_indeed_dropped_by_the_generator(models: ModuleType, keyword: str) -> None:
    _, violating = DROPPED[keyword]
    getattr(models, model_name(keyword)).model_validate({"value": violating})
