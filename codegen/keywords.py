"""The JSON Schema vocabulary of a parameter: the keywords the argument models enforce, and
the annotations, which constrain nothing.

The server validates arguments with the generated pydantic models, not with the schema, and
datamodel-code-generator drops some keywords without a word (``uniqueItems``, ``contains``,
``not``, ``if``/``then``, ``dependentRequired`` ...). A schema using one would promise in
tools/list what the server never checks, so the lint refuses every keyword that is not on this
list. Each validation keyword on it is proven enforced, with a value it must refuse and one it
must accept, by ``tests/codegen/test_keywords.py``; extend the list only with such a proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Validation keywords the generated models enforce (each one proven by the test above).
ENFORCED = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "anyOf",
        "oneOf",
    }
)
# Keywords that say something about the value without constraining it (a tuple: `codegen.models`
# copies them in this order, and its output must not depend on hash order).
ANNOTATIONS = ("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment")
# Keywords whose value is a schema, a list of schemas, or a map of them: the walk goes on there.
_SCHEMA = ("items", "additionalProperties", "propertyNames")
_SCHEMA_LISTS = ("anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "patternProperties")


def unenforced_keywords(name: str, schema: Any) -> Iterator[str]:
    """A message for each keyword under parameter ``name`` that the models would not enforce,
    naming where it is (``box/properties/width``, ``tags/items``)."""
    if not isinstance(schema, dict):
        return
    for keyword in sorted(set(schema) - ENFORCED - set(ANNOTATIONS)):
        yield f"property {name!r} uses {keyword!r}, which the argument models do not enforce"
    for keyword in _SCHEMA:
        yield from unenforced_keywords(f"{name}/{keyword}", schema.get(keyword))
    for keyword in _SCHEMA_LISTS:
        for index, branch in enumerate(schema.get(keyword) or ()):
            yield from unenforced_keywords(f"{name}/{keyword}/{index}", branch)
    for keyword in _SCHEMA_MAPS:
        members = schema.get(keyword)
        for member, member_schema in members.items() if isinstance(members, dict) else ():
            yield from unenforced_keywords(f"{name}/{keyword}/{member}", member_schema)
