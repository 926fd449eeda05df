"""A JavaScript value as plain data: what an evaluation came to, in the page or in a paused frame.

The tree keeps what an agent needs to read the value and nothing of the protocol: JSON data as
JSON, and for what JSON cannot carry (an element, a Map, a Date, a function, an error, a cycle)
what kind of thing it is, in a few facts. Every limit met while reading is in the tree where it
was met (`more`, `LongString`, `TooDeep`), so the text made from it can say where it is cut.
Nothing here speaks CDP, so the answer renderers can import these facts without the client.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadLimits:
    """How much of a value one read takes in: values in all, nesting levels, characters of each
    string, frames of each error's stack."""

    items: int
    depth: int
    string: int
    stack: int


# Enough to fill one answer with room to spare; the answer is cut to its limit anyway.
INLINE_LIMITS = ReadLimits(items=2_000, depth=12, string=5_000, stack=3)
# For a value written whole to a file (save_to): far more, and still bounded.
SAVED_LIMITS = ReadLimits(items=200_000, depth=64, string=10_000_000, stack=20)


@dataclass(frozen=True)
class Primitive:
    """A string, number, boolean or null, as JSON has it."""

    value: str | int | float | bool | None


@dataclass(frozen=True)
class LongString:
    """A string longer than the read takes in: its start and its full length."""

    head: str
    length: int


@dataclass(frozen=True)
class JsLiteral:
    """A primitive JSON cannot carry, in its JS spelling: undefined, NaN, -0, Infinity, 12n, Symbol(k)."""

    text: str


@dataclass(frozen=True)
class DomNode:
    """A node in cdpilot's element notation: ``label`` (``h1#title``, ``#text``), ``text`` (cut short)."""

    label: str
    text: str


@dataclass(frozen=True)
class ArrayValue:
    """An array, or a list-like (NodeList, typed array); `class_name` is None for a plain array."""

    class_name: str | None
    length: int
    items: tuple[Value, ...]
    more: int  # items not read (the read's limit)


@dataclass(frozen=True)
class Property:
    key: str
    value: Value
    symbol: bool = False  # a Symbol key, spelled ``Symbol(k)``


@dataclass(frozen=True)
class ObjectValue:
    """An object's own enumerable properties (and a host object's native getters); `class_name`
    is None for a plain object."""

    class_name: str | None
    properties: tuple[Property, ...]
    more: int


@dataclass(frozen=True)
class MapValue:
    size: int
    entries: tuple[tuple[Value, Value], ...]
    more: int


@dataclass(frozen=True)
class SetValue:
    size: int
    items: tuple[Value, ...]
    more: int


@dataclass(frozen=True)
class DateValue:
    iso: str  # UTC ISO 8601, or "Invalid Date"


@dataclass(frozen=True)
class RegExpValue:
    source: str  # as written: /ab+c/gi


@dataclass(frozen=True)
class FunctionValue:
    kind: str  # Function, AsyncFunction, GeneratorFunction, AsyncGeneratorFunction or class
    name: str
    arity: int  # its declared parameters (Function.length)


@dataclass(frozen=True)
class ErrorValue:
    """An error: ``Name: message`` (its start when long), and the first frames of its stack."""

    text: str
    length: int  # of the full ``Name: message``
    stack: tuple[str, ...]  # "at f (http://…/app.js:3:9)"
    more_frames: int


@dataclass(frozen=True)
class Accessor:
    """A property behind a getter or setter of the page's, which reading would run."""

    getter: bool
    setter: bool


@dataclass(frozen=True)
class Circular:
    """A reference back to a value that holds it."""


@dataclass(frozen=True)
class TooDeep:
    """A value nested deeper than the read goes: ``Object``, ``Array(3)``, ``Point``."""

    summary: str


@dataclass(frozen=True)
class Opaque:
    """A value described only by what the browser says of it: Window, Promise {<pending>}, WeakMap,
    Proxy(Object), ArrayBuffer(16)."""

    description: str


@dataclass(frozen=True)
class PreviewOnly:
    """A value that could not be read (its page went away or is stuck), as the browser previewed it
    when the evaluation returned: one level deep, ``{a: 1, b: Array(2)}``."""

    preview: str


Value = (
    Primitive
    | LongString
    | JsLiteral
    | DomNode
    | ArrayValue
    | ObjectValue
    | MapValue
    | SetValue
    | DateValue
    | RegExpValue
    | FunctionValue
    | ErrorValue
    | Accessor
    | Circular
    | TooDeep
    | Opaque
    | PreviewOnly
)
