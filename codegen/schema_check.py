"""Whether a schema is a valid JSON Schema, fast enough for a thousand tools.

`Draft202012Validator.check_schema` walks the whole metaschema for every schema it is given,
and on a large tree that walk was most of the lint's time. Tools share most of their
property schemas, so the check runs piece by piece (the object without its properties, then
each property) and every distinct piece is checked once. Pieces that differ only in their
prose are one piece: the metaschema asks of ``title``, ``description`` and ``$comment`` only
that they be strings, so one string stands for any other (a tool's description, or a
property of its own that only its description sets apart, costs no walk of its own).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

_PROSE = ("title", "description", "$comment")


def schema_error(schema: Any) -> str | None:
    """Why `schema` is not a valid JSON Schema (the first problem found), or None."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return _cached_schema_error(_piece_key(schema))
    pieces = [{**schema, "properties": {}}, *properties.values()]
    return next((e for e in (_cached_schema_error(_piece_key(p)) for p in pieces) if e), None)


def _piece_key(piece: Any) -> str:
    """The piece as canonical JSON, each prose keyword of its own that is a string made empty.

    Only the piece's own keywords: deeper down, a key named "description" may be a property name.
    """
    if isinstance(piece, dict):
        piece = {k: "" if k in _PROSE and isinstance(v, str) else v for k, v in piece.items()}
    return json.dumps(piece, sort_keys=True)


@functools.cache
def _cached_schema_error(canonical: str) -> str | None:
    try:
        Draft202012Validator.check_schema(json.loads(canonical))
    except SchemaError as exc:
        return exc.message
    return None
