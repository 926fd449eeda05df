"""The argument models: the ``models`` package, one module per tool group, each written by ONE
in-process datamodel-code-generator call over a single document of the group's schemas.
Pydantic v2, the builtin formatter, no timestamps, strict nullability.

Why a module per group and not one call for every schema (one call for
all is the usual advice, because a process per schema costs ~0.4 s each): the generator spends ~5 ms per model in one
thread, so 1,000 tools took 5-6 s in its one call alone, over the 5 s a whole build may
take. A group's module depends on that group's schemas only, so the calls are
independent: they run side by side in worker processes, one per core (never one per schema),
and each module is the same bytes wherever and in whatever order it was made.
The package's ``__init__`` (a template, `codegen.render`) re-exports every tool's model, so
handlers import them from ``cdpilot_generated.models`` as before.
"""

from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing
import os
import warnings
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from datamodel_code_generator import InputFileType, LiteralType, PythonVersion, generate
from datamodel_code_generator.enums import DataModelType
from datamodel_code_generator.format import Formatter

from codegen import HEADER, PACKAGE
from codegen.catalog import Catalog, SmartTool, plain
from codegen.keywords import ANNOTATIONS

MODELS_PACKAGE = f"{PACKAGE}/models"


def model_modules(catalog: Catalog) -> dict[str, dict[str, dict[str, Any]]]:
    """Each module of the package, by group name: its models by class name, in the order it
    declares them (the group's tools by name, then the routing models of its smart tools)."""
    modules: dict[str, dict[str, dict[str, Any]]] = {}
    for tool in sorted(catalog.granular.values(), key=lambda t: t.name):
        schema = tool.resolved  # without the short forms of smart mode, which no model needs
        if "properties" in schema:
            schema = {**schema, "properties": plain(schema["properties"])}
        modules.setdefault(tool.meta["group"], {})[tool.model_name] = schema
    for smart in sorted(catalog.smart.values(), key=lambda t: t.name):
        if smart.own_properties:
            modules.setdefault(smart.meta["group"], {})[smart.routing_model_name] = _routing_schema(smart)
    return dict(sorted(modules.items()))


def _document(models: dict[str, dict[str, Any]]) -> str:
    """The one JSON Schema document a module is generated from, as JSON text."""
    return json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": shared_objects(models)})


class ModelWriter:
    """Writes the modules of the package (`files`) with at most ``jobs`` generator processes at
    once (default: one per usable core); a context manager, ending its processes on exit.

    With more than one job the worker processes start at once, forked, and each gets the
    generator ready while the caller loads, lints and renders the rest: a process's first call
    imports most of the generator (~0.5 s), which would otherwise come after the lint.
    """

    def __init__(self, jobs: int | None = None) -> None:
        jobs = jobs or len(os.sched_getaffinity(0))
        self._pool: ProcessPoolExecutor | None = None
        if jobs > 1:
            context = multiprocessing.get_context("fork")  # the workers inherit what this process imported
            self._pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_get_ready)
            self._pool.submit(int)  # with fork, the first task starts every worker

    def __enter__(self) -> ModelWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def files(self, catalog: Catalog) -> dict[str, str]:
        """Every module of the package but its ``__init__``, by path relative to ``generated/``."""
        documents = {group: _document(models) for group, models in model_modules(catalog).items()}
        return {f"{MODELS_PACKAGE}/{group}.py": source for group, source in self.sources(documents).items()}

    def sources(self, documents: dict[str, str]) -> dict[str, str]:
        """`models_source` of each document, by the same keys; in the workers, if any, the
        largest documents first so that no worker is left with a big one at the end."""
        if self._pool is None:
            return {key: models_source(document) for key, document in documents.items()}
        largest_first = sorted(documents, key=lambda key: len(documents[key]), reverse=True)
        pending = {key: self._pool.submit(models_source, documents[key]) for key in largest_first}
        return {key: pending[key].result() for key in documents}


_WARM_UP = json.dumps({"$defs": {"ReadyArgs": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}})


def _get_ready() -> None:
    """A worker's first, throw-away call. Should it fail, the real calls fail too and say why
    (a failing initializer would instead leave only a broken pool to report)."""
    with contextlib.suppress(Exception):
        models_source(_WARM_UP)


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
                # Annotations only: beside a $ref the generator reads them without merging a new model.
                refs[name] = {"$ref": f"#/$defs/{name}", **{k: schema[k] for k in ANNOTATIONS if k in schema}}
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
        "properties": plain(smart.own_properties),
        "additionalProperties": False,
    }


def models_source(document: str) -> str:
    """One module: the generator's one call over a document of `_document`.

    The cycle collector is off during the call: the objects it builds nearly all live until
    it returns, and the collector's walks over them cost 5-10% of the call for nothing."""
    collecting = gc.isenabled()
    gc.disable()
    try:
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
    finally:
        if collecting:
            gc.enable()
    if not isinstance(source, str):
        raise TypeError("datamodel-code-generator returned several modules; expected one")
    return source
