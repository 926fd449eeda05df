"""How an evaluated value reads (`answers.value_answers`), on hand-built value facts: the exact text,
the cut of a value over the limit, and what a saved value's answer says."""

from __future__ import annotations

import json

import pytest

from cdpilot.answers.value_answers import (
    evaluation_answer,
    saved_text,
    saved_value_answer,
    stopped_page_script_answer,
    value_text,
)
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

TITLE = DomNode("h1#title", "Quarterly report")
ITEMS = ArrayValue("NodeList", 2, (DomNode("li", "Apples"), DomNode("li.sale", "Pears")), more=0)
BOOM = ErrorValue("TypeError: boom", 15, ("at load (http://127.0.0.1:8000/app.js:3:9)", "at <anonymous>:1:1"), 4)


def plain(**props: Value) -> ObjectValue:
    return ObjectValue(None, tuple(Property(key, value) for key, value in props.items()), more=0)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Primitive(42), "42"),
        (Primitive(1.5), "1.5"),
        (Primitive("hi"), '"hi"'),
        (Primitive(None), "null"),
        (Primitive(True), "true"),
        (JsLiteral("-0"), "-0"),
        (JsLiteral("12n"), "12n"),
        (JsLiteral("undefined"), "undefined"),
        (JsLiteral("Symbol(k)"), "Symbol(k)"),
        (plain(a=ArrayValue(None, 2, (Primitive(1), Primitive("é")), more=0)), '{"a":[1,"é"]}'),
        (TITLE, 'h1#title "Quarterly report"'),
        (DomNode("div.box", ""), "div.box"),
        (ITEMS, 'NodeList(2) [li "Apples",li.sale "Pears"]'),
        (ArrayValue(None, 1, (TITLE,), more=0), '[h1#title "Quarterly report"]'),
        (MapValue(2, ((Primitive("k"), plain(x=Primitive(1))), (Primitive(2), TITLE)), more=0), ""),
        (SetValue(2, (Primitive(1), Primitive("a")), more=0), 'Set(2) {1,"a"}'),
        (DateValue("2024-05-01T10:00:00.000Z"), "Date(2024-05-01T10:00:00.000Z)"),
        (RegExpValue("/ab+c/gi"), "/ab+c/gi"),
        (FunctionValue("Function", "add", 2), "[Function: add, arity 2]"),
        (FunctionValue("AsyncFunction", "", 1), "[AsyncFunction: (anonymous), arity 1]"),
        (FunctionValue("class", "Point", 0), "[class Point]"),
        (
            ObjectValue("Point", (Property("x", Primitive(1)), Property("y", Primitive(2))), more=0),
            'Point {"x":1,"y":2}',
        ),
        (plain(name=Primitive("a"), self=Circular()), '{"name":"a","self":[Circular]}'),
        (plain(g=Accessor(getter=True, setter=False), s=Accessor(getter=True, setter=True)), ""),
        (ObjectValue(None, (Property("Symbol(id)", Primitive(7), symbol=True),), more=0), "{[Symbol(id)]:7}"),
        (Opaque("Promise {<pending>}"), "Promise {<pending>}"),
        (
            PreviewOnly("{a: 1, b: Array(2)}"),
            "{a: 1, b: Array(2)} (only the browser's preview: the value could not be read in full)",
        ),
        (plain(error=BOOM), '{"error":[TypeError: boom]}'),
    ],
)
def test_a_value_reads_as_json_or_says_what_it_is(value: Value, text: str) -> None:
    expected = {
        MapValue: 'Map(2) {"k"=>{"x":1},2=>h1#title "Quarterly report"}',
        ObjectValue: '{"g":[Getter],"s":[Getter/Setter]}',
    }
    wanted = text or expected[type(value)]
    assert value_text(value) == wanted
    assert evaluation_answer(value, max_chars=5000) == wanted


def test_plain_data_stays_parseable_json() -> None:
    value = plain(a=ArrayValue(None, 2, (Primitive(1), plain(b=Primitive(None))), more=0), c=Primitive("x"))
    assert json.loads(evaluation_answer(value, max_chars=5000)) == {"a": [1, {"b": None}], "c": "x"}


def test_an_error_value_shows_its_first_frames_and_how_many_more() -> None:
    assert value_text(BOOM) == (
        "TypeError: boom\n    at load (http://127.0.0.1:8000/app.js:3:9)\n    at <anonymous>:1:1\n    … 4 more frames"
    )


def test_what_the_read_left_out_is_marked_and_said() -> None:
    value = ArrayValue(None, 500, (Primitive(1), LongString("abc", 10), TooDeep("Object")), more=497)
    assert evaluation_answer(value, max_chars=5000) == (
        '[1,"abc…[+7 chars]",[Object],…[+497 more]]\n'
        "(Cut where marked: the value holds more than one answer reads. For the rest, narrow the expression "
        "(one property, .slice()), or pass {param:save_to} (a file name) to write the whole value to a file.)"
    )


def test_a_long_string_is_cut_with_its_size_and_how_to_read_the_rest() -> None:
    answer = evaluation_answer(Primitive("x" * 20_000), max_chars=500)
    assert len(answer) <= 500
    head, note = answer.split("\n")
    kept = len(head) - len('"') - len("…[+00000 chars]")
    assert head == '"' + "x" * kept + f"…[+{20_000 - kept} chars]"
    assert note == (
        f"(Cut: the value is a string of 20000 characters; the answer shows the first {kept}. For the rest, "
        f"narrow the expression (.slice({kept}, {2 * kept})), or pass {{param:save_to}} (a file name) to "
        "write the whole "
        "value to a file.)"
    )


def test_a_string_of_escapes_still_fits() -> None:
    answer = evaluation_answer(Primitive('"' * 20_000), max_chars=500)
    assert len(answer) <= 500 and answer.startswith('"\\"\\"') and "the answer shows the first 1" in answer


def test_a_long_description_is_cut_with_what_the_value_is() -> None:
    value = ArrayValue(None, 3000, tuple(Primitive(n) for n in range(3000)), more=0)
    answer = evaluation_answer(value, max_chars=400)
    assert len(answer) <= 400
    assert answer.startswith("[0,1,2,3,")
    assert answer.endswith(
        "(Cut: the value is an array of 3000 items; its description is 13891 characters, and the answer shows "
        "its start. For the rest, narrow the expression (one property, .slice(), .length), or pass {param:save_to} "
        "(a file name) to write the whole value to a file.)"
    )


def test_a_saved_string_is_written_as_it_is_and_the_answer_shows_its_start() -> None:
    value = Primitive("<html>" + "y" * 3000)
    assert saved_text(value) == "<html>" + "y" * 3000
    answer = saved_value_answer(value, "/out/page.html", max_chars=5000)
    assert answer.startswith('Saved the string (3006 characters) to /out/page.html.\nIt starts: "<html>yyy')
    assert answer.endswith("…[+2522 chars]") and len(answer) < 600


def test_a_saved_value_that_the_read_cut_says_so() -> None:
    value = ArrayValue(None, 300_000, (Primitive(1),), more=299_999)
    assert saved_text(value) == "[1,…[+299999 more]]"
    assert saved_value_answer(value, "/out/big.txt", max_chars=5000) == (
        "Saved the value's description (19 characters) to /out/big.txt. The value holds more than cdpilot reads "
        "in one call, so the file is cut where marked (…[+N more]); save its parts with narrower expressions.\n"
        "It starts: [1,…[+299999 more]]"
    )


def test_a_value_got_by_stopping_the_page_script_says_that_first() -> None:
    assert stopped_page_script_answer(1.04, "2") == (
        "The page was busy: its own script had been running for at least 1 s, so cdpilot stopped that script to "
        "run the expression. The page did not finish that work; {tool:reload} starts it afresh.\n2"
    )
    assert "at least 0.3 s," in stopped_page_script_answer(0.3, "2")
