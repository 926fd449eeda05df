"""Whether a schema is a valid JSON Schema, fast enough for a thousand tools.

`Draft202012Validator.check_schema` walks the whole metaschema for every schema it is given,
and on a large tree that walk was most of the lint's time. Tools share most of their
property schemas, so the check runs piece by piece (the object without its properties, then
each property) and every distinct piece is checked once.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def schema_error(schema: Any) -> str | None:
    """Why `schema` is not a valid JSON Schema (the first problem found), or None."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return _cached_schema_error(json.dumps(schema, sort_keys=True))
    pieces = [{**schema, "properties": {}}, *properties.values()]
    return next((e for e in (_cached_schema_error(json.dumps(p, sort_keys=True)) for p in pieces) if e), None)


@functools.cache
def _cached_schema_error(canonical: str) -> str | None:
    try:
        Draft202012Validator.check_schema(json.loads(canonical))
    except SchemaError as exc:
        return exc.message
    return None
