"""What an evaluation answers: the value, as text an agent can read, cut to fit but never refused.

Plain data reads as compact JSON, exactly as the page's ``JSON.stringify`` would write it
(``{"a":[1,"é"]}``), so an answer can be parsed. What JSON cannot carry keeps a short form that
says what it is, inside the same JSON-like layout:

- a node in the DOM tools' notation: ``h1#title "Quarterly report"``
- a list-like or a class instance with its class: ``NodeList(2) [li "a",li "b"]``, ``Point {"x":1}``
- ``Map(1) {"k"=>1}``, ``Set(2) {1,2}``, ``Date(2024-05-01T10:00:00.000Z)``, ``/ab+c/g``
- ``[Function: add, arity 2]``, ``[class Point]``, ``[Getter]``, ``[Circular]``
- an error as ``TypeError: message``, with the first frames of its stack when it is the value itself
- JS spellings for the primitives JSON lacks: ``undefined``, ``NaN``, ``-0``, ``12n``, ``Symbol(k)``

Nothing is dropped silently: what the read left out is marked where it was (``…[+98 more]``,
``…[+400 chars]``, ``[Object]`` past the depth read), and an answer over the limit shows its start,
the full size, and how to get the rest: a narrower expression, or ``save_to``, which writes the
whole value to a file.
"""

from __future__ import annotations

import json

from cdpilot.browser.value_facts import (
    Accessor,
    ArrayValue,
    Circular,
    DateValue,
    DomNode,
    ErrorValue,
    FunctionValue,
    JsLiteral,
    LongString,
    MapValue,
    ObjectValue,
    Opaque,
    PreviewOnly,
    Primitive,
    Property,
    RegExpValue,
    SetValue,
    TooDeep,
    Value,
)
from cdpilot.text import clip, cut_marker

SAVED_START_CHARS = 500  # of a saved value, the answer shows its start only: the file has it all
REST_HINT = (
    "narrow the expression ({examples}), or pass {{param:save_to}} (a file name) to write the whole value to a file"
)


def value_text(value: Value) -> str:
    """The whole description of `value`, uncut (an error keeps its stack frames on lines of their own)."""
    if isinstance(value, ErrorValue):
        lines = [_error_head(value), *(f"    {frame}" for frame in value.stack)]
        if value.more_frames:
            lines.append(f"    … {value.more_frames} more frames")
        return "\n".join(lines)
    return _inline(value)


def saved_text(value: Value) -> str:
    """What a file saved with save_to holds: a string as it is (HTML stays HTML), else the description."""
    if isinstance(value, Primitive) and isinstance(value.value, str):
        return value.value
    return value_text(value)


def evaluation_answer(value: Value, *, max_chars: int) -> str:
    """The value within `max_chars`; when it does not fit, its start, its size and how to read the rest."""
    text = value_text(value)
    note = _read_cut_note(value)
    if len(text) + len(note) <= max_chars:
        return text + note
    if isinstance(value, Primitive) and isinstance(value.value, str):
        return _cut_string(value.value, max_chars)
    size = f"{'over ' if note else ''}{len(text)} characters"
    tail = (
        f"\n(Cut: {_what(value)}; its description is {size}, and the answer shows its start. For the rest, "
        + REST_HINT.format(examples="one property, .slice(), .length")
        + ".)"
    )
    return clip(text, max_chars - len(tail)) + tail


def stopped_page_script_answer(seconds: float, answer: str) -> str:
    """An answer got only by stopping the page's own script, which held the page for `seconds`
    (at least): that comes first, since the page did not finish what it was doing."""
    return (
        f"The page was busy: its own script had been running for at least {round(seconds, 1):g} s, so cdpilot "
        "stopped that script to run the expression. The page did not finish that work; {tool:reload} starts it "
        f"afresh.\n{answer}"
    )


def _what(value: Value) -> str:
    """The value in a few words, with the size that tells how much there is: `an array of 5000 items`."""
    if isinstance(value, ArrayValue):
        return f"the value is {value.class_name or 'an array'} of {value.length} items"
    if isinstance(value, MapValue | SetValue):
        return f"the value is a {type(value).__name__.removesuffix('Value')} of {value.size} entries"
    if isinstance(value, ObjectValue):
        return f"the value is {'a ' + value.class_name if value.class_name else 'an object'}"
    return "the value is long"


def saved_value_answer(value: Value, path: str, *, max_chars: int) -> str:
    """Where the whole value went, its size, and its start."""
    saved = saved_text(value)
    if isinstance(value, Primitive) and isinstance(value.value, str):
        what = f"the string ({len(saved)} characters)"
    else:
        what = f"the value's description ({len(saved)} characters)"
    head = f"Saved {what} to {path}."
    if _read_was_cut(value):
        head += (
            " The value holds more than cdpilot reads in one call, so the file is cut where marked (…[+N more]); "
            "save its parts with narrower expressions."
        )
    start = clip(value_text(value), min(SAVED_START_CHARS, max(max_chars - len(head) - 20, 1)))
    return f"{head}\nIt starts: {start}"


def _cut_string(text: str, max_chars: int) -> str:
    """A long string, JSON-quoted, cut after as many of its characters as fit with the note (escapes
    make the quoted form longer than the string, so the count is searched for)."""

    def shown(kept: int) -> str:
        quoted = json.dumps(text[:kept], ensure_ascii=False)[:-1] + cut_marker(len(text) - kept)
        return quoted + (
            f"\n(Cut: the value is a string of {len(text)} characters; the answer shows the first {kept}. "
            "For the rest, " + REST_HINT.format(examples=f".slice({kept}, {2 * kept})") + ".)"
        )

    low, high = 0, min(len(text), max_chars)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if len(shown(middle)) <= max_chars else (low, middle - 1)
    return shown(low)


def _read_cut_note(value: Value) -> str:
    if not _read_was_cut(value):
        return ""
    return (
        "\n(Cut where marked: the value holds more than one answer reads. For the rest, "
        + REST_HINT.format(examples="one property, .slice()")
        + ".)"
    )


def _read_was_cut(value: Value) -> bool:
    """Whether the read left anything out (an error's further stack frames do not count: they are
    marked in place, and rarely wanted)."""
    if isinstance(value, LongString | TooDeep):
        return True
    if isinstance(value, ErrorValue):
        return value.length > len(value.text)
    if isinstance(value, ArrayValue | SetValue):
        return value.more > 0 or any(_read_was_cut(item) for item in value.items)
    if isinstance(value, ObjectValue):
        return value.more > 0 or any(_read_was_cut(p.value) for p in value.properties)
    if isinstance(value, MapValue):
        return value.more > 0 or any(_read_was_cut(k) or _read_was_cut(v) for k, v in value.entries)
    return False


def _inline(value: Value) -> str:
    """`value` on one line (an error without its stack)."""
    if isinstance(value, Primitive):
        return json.dumps(value.value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, LongString):
        return json.dumps(value.head, ensure_ascii=False)[:-1] + cut_marker(value.length - len(value.head)) + '"'
    if isinstance(value, DomNode):
        return f'{value.label} "{value.text}"' if value.text else value.label
    if isinstance(value, ArrayValue):
        body = _joined([_inline(item) for item in value.items], value.more)
        return f"[{body}]" if value.class_name is None else f"{value.class_name}({value.length}) [{body}]"
    if isinstance(value, ObjectValue):
        body = _joined([_property(p) for p in value.properties], value.more)
        return f"{{{body}}}" if value.class_name is None else f"{value.class_name} {{{body}}}"
    if isinstance(value, MapValue):
        pairs = [f"{_inline(key)}=>{_inline(item)}" for key, item in value.entries]
        return f"Map({value.size}) {{{_joined(pairs, value.more)}}}"
    if isinstance(value, SetValue):
        return f"Set({value.size}) {{{_joined([_inline(item) for item in value.items], value.more)}}}"
    if isinstance(value, ErrorValue):
        return f"[{_error_head(value).splitlines()[0]}]"
    return _word(value)


def _word(
    value: JsLiteral | DateValue | RegExpValue | FunctionValue | Accessor | Circular | TooDeep | Opaque | PreviewOnly,
) -> str:
    """The values that read as one word or phrase."""
    if isinstance(value, JsLiteral):
        return value.text
    if isinstance(value, DateValue):
        return f"Date({value.iso})"
    if isinstance(value, RegExpValue):
        return value.source
    if isinstance(value, FunctionValue):
        name = value.name or "(anonymous)"
        return f"[class {name}]" if value.kind == "class" else f"[{value.kind}: {name}, arity {value.arity}]"
    if isinstance(value, Accessor):
        return "[" + "/".join(["Getter"] * value.getter + ["Setter"] * value.setter) + "]"
    if isinstance(value, Circular):
        return "[Circular]"
    if isinstance(value, TooDeep):
        return f"[{value.summary}]"
    if isinstance(value, PreviewOnly):
        return f"{value.preview} (only the browser's preview: the value could not be read in full)"
    return value.description


def _property(prop: Property) -> str:
    key = f"[{prop.key}]" if prop.symbol else json.dumps(prop.key, ensure_ascii=False)
    return f"{key}:{_inline(prop.value)}"


def _joined(parts: list[str], more: int) -> str:
    return ",".join([*parts, f"…[+{more} more]"] if more else parts)


def _error_head(value: ErrorValue) -> str:
    cut = value.length - len(value.text)
    return value.text + (cut_marker(cut) if cut > 0 else "")
