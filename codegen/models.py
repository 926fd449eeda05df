"""The argument models (``models.py``): ONE in-process datamodel-code-generator call over a
single document of every model's schema (ARCHITECTURE §4; a process per schema costs ~0.4 s
each). Pydantic v2, the builtin formatter, no timestamps, strict nullability.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

from codegen.catalog import Catalog, SmartTool
from codegen.render import HEADER, PACKAGE

# What a schema says about its field rather than about its values (JSON Schema's meta-data
# vocabulary, and $comment): the generator reads these beside a $ref without merging a new model.
_FIELD_ANNOTATIONS = ("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment")


def models_document(catalog: Catalog) -> str:
    """The one JSON Schema document the argument models are generated from, as JSON text:
    every tool's model, then every routing model, each in name order, in ``$defs``."""
    models = {t.model_name: t.resolved for t in sorted(catalog.granular.values(), key=lambda t: t.name)}
    for smart in sorted(catalog.smart.values(), key=lambda t: t.name):
        if smart.own_properties:
            models[smart.routing_model_name] = _routing_schema(smart)
    return json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": shared_objects(models)})


def shared_objects(models: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ``$defs`` of the document: ``models``, each object parameter that several of them
    declare alike given once.

    Schemas reach the generator resolved, so an object parameter that many tools share (one
    ``$ref`` in their sources) arrives once per tool: the generator parses every copy into a
    model of its own, then compares the copies and merges them back into one class (a quarter
    of its time on 1,000 tools that share one). Here it is declared once, under the parameter's
    name (the name the generator gives the class inline), just before the first model that
    takes it, and each model refers to it, keeping its field's annotations beside the ``$ref``.
    The classes are those the generator writes inline but for two things: a shared class comes
    before the other classes of the first tool that takes it, and a shared object holding
    objects of its own is one class where the generator left identical copies unmerged. A
    parameter name with two different object schemas stays inline: the generator numbers
    those classes itself.
    """
    forms: dict[str, set[str]] = {}
    users: Counter[str] = Counter()
    for model in models.values():
        for name, schema in _object_parameters(model):
            forms.setdefault(name, set()).add(json.dumps(schema, sort_keys=True))
            users[name] += 1
    shared = {name for name, variants in forms.items() if len(variants) == 1 and users[name] > 1}
    defs: dict[str, Any] = {}
    for model_name, model in models.items():
        refs: dict[str, Any] = {}
        for name, schema in _object_parameters(model):
            if name in shared:
                defs.setdefault(name, schema)
                refs[name] = {"$ref": f"#/$defs/{name}", **{k: schema[k] for k in _FIELD_ANNOTATIONS if k in schema}}
        defs[model_name] = {**model, "properties": {**model["properties"], **refs}} if refs else model
    return defs


def _object_parameters(model: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The parameters of ``model`` whose schema is an object with properties (a class of its own)."""
    for name, schema in model.get("properties", {}).items():
        if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
            yield name, schema


def _routing_schema(smart: SmartTool) -> dict[str, Any]:
    """The router-own properties as one model: the registry validates them (and fills their
    defaults) before routing, because it consumes them and no granular model ever sees them."""
    return {
        "type": "object",
        "description": f"The router-own arguments of {smart.name}, consumed before routing.",
        "properties": smart.own_properties,
        "additionalProperties": False,
    }


def models_source(document: str) -> str:
    """``models.py``: the generator's one call over `models_document`."""
    from datamodel_code_generator import InputFileType, LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType
    from datamodel_code_generator.format import Formatter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        source = generate(
            document,
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.PydanticV2BaseModel,
            target_python_version=PythonVersion.PY_311,
            base_class=f"{PACKAGE}.base.ArgsModel",
            formatters=[Formatter.BUILTIN],
            builtin_format_line_length=120,
            custom_file_header=HEADER,
            disable_timestamp=True,
            disable_future_imports=True,
            skip_root_model=True,
            strict_nullable=True,
            use_annotated=True,
            field_constraints=True,
            enum_field_as_literal=LiteralType.All,
            use_union_operator=True,
            use_standard_collections=True,
            use_schema_description=True,
        )
    if not isinstance(source, str):
        raise TypeError("datamodel-code-generator returned several modules; expected one")
    return source
