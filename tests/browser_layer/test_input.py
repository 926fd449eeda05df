"""Key names to CDP key events (no browser): what pages see depends on every field being right."""

from __future__ import annotations

import pytest

from cdpilot.browser.dom.keys import key_events, parse_key
from cdpilot.errors import ArgumentError


@pytest.mark.parametrize(
    ("spec", "label", "mask", "key", "code", "key_code", "text"),
    [
        ("Enter", "Enter", 0, "Enter", "Enter", 13, "\r"),
        ("enter", "Enter", 0, "Enter", "Enter", 13, "\r"),
        ("Tab", "Tab", 0, "Tab", "Tab", 9, ""),
        ("Shift+Tab", "Shift+Tab", 8, "Tab", "Tab", 9, ""),
        ("Escape", "Escape", 0, "Escape", "Escape", 27, ""),
        ("ArrowDown", "ArrowDown", 0, "ArrowDown", "ArrowDown", 40, ""),
        ("F12", "F12", 0, "F12", "F12", 123, ""),
        ("Space", "Space", 0, " ", "Space", 32, " "),
        ("a", "a", 0, "a", "KeyA", 65, "a"),
        ("A", "A", 0, "A", "KeyA", 65, "A"),
        ("Control+A", "Control+a", 2, "a", "KeyA", 65, ""),
        ("Ctrl+Shift+k", "Control+Shift+K", 10, "K", "KeyK", 75, ""),
        ("Meta+Enter", "Meta+Enter", 4, "Enter", "Enter", 13, ""),
        ("Alt+1", "Alt+1", 1, "1", "Digit1", 49, ""),
        ("Shift+1", "Shift+!", 8, "!", "Digit1", 49, "!"),
        ("?", "?", 0, "?", "Slash", 191, "?"),
        ("+", "+", 0, "+", "Equal", 187, "+"),
        ("Control++", "Control++", 2, "+", "Equal", 187, ""),
        ("é", "é", 0, "é", "", 0, "é"),
    ],
)
def test_key_names_map_to_key_code_and_text(
    spec: str, label: str, mask: int, key: str, code: str, key_code: int, text: str
) -> None:
    press = parse_key(spec)
    assert (press.label, press.modifier_mask, press.key, press.text) == (label, mask, key, text)
    assert (press.definition.code, press.definition.key_code) == (code, key_code)


def test_a_combination_holds_its_modifiers_around_the_key() -> None:
    events = key_events(parse_key("Control+Shift+K"))
    assert [(e["type"], e["key"], e["modifiers"]) for e in events] == [
        ("rawKeyDown", "Control", 2),
        ("rawKeyDown", "Shift", 10),
        ("rawKeyDown", "K", 10),
        ("keyUp", "K", 10),
        ("keyUp", "Shift", 2),
        ("keyUp", "Control", 0),
    ]


def test_a_printable_key_sends_keydown_with_text() -> None:
    down, up = key_events(parse_key("x"))
    assert down == {
        "type": "keyDown",
        "key": "x",
        "code": "KeyX",
        "windowsVirtualKeyCode": 88,
        "modifiers": 0,
        "text": "x",
        "unmodifiedText": "x",
    }
    assert up["type"] == "keyUp" and "text" not in up


@pytest.mark.parametrize("spec", ["Hyper+x", "Enterr", "Control+", "ab"])
def test_unknown_keys_are_validation_errors_naming_key(spec: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        parse_key(spec)
    assert caught.value.problems[0].field == "key"
    assert "Enter" in caught.value.problems[0].expected
