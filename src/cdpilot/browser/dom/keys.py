"""Key names as people write them (``Enter``, ``Control+Shift+K``), turned into CDP key events.

Chrome needs more than a key name to act like a real keyboard: ``code`` (the physical key),
``windowsVirtualKeyCode`` (what default actions such as Tab navigation and Enter submission
look at) and ``text`` (what a printable key inserts). The table follows a US layout, as
Puppeteer's and Playwright's do, so pages see the same events under every tool.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from cdpilot.errors import ArgumentError, FieldProblem
from cdpilot.text import clip


@dataclass(frozen=True)
class KeyDefinition:
    key: str  # KeyboardEvent.key without Shift
    code: str  # KeyboardEvent.code
    key_code: int  # windowsVirtualKeyCode
    text: str = ""  # what the key types without Shift ("" for none)
    shifted: str = ""  # KeyboardEvent.key (and text) with Shift, for printable keys


MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}
MODIFIER_ALIASES = {
    "alt": "Alt",
    "option": "Alt",
    "control": "Control",
    "ctrl": "Control",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "shift": "Shift",
}

SPACE = KeyDefinition(" ", "Space", 32, " ", " ")
_NAMED = [
    KeyDefinition("Enter", "Enter", 13, "\r"),
    KeyDefinition("Tab", "Tab", 9),
    KeyDefinition("Escape", "Escape", 27),
    KeyDefinition("Backspace", "Backspace", 8),
    KeyDefinition("Delete", "Delete", 46),
    KeyDefinition("Insert", "Insert", 45),
    KeyDefinition("ArrowUp", "ArrowUp", 38),
    KeyDefinition("ArrowDown", "ArrowDown", 40),
    KeyDefinition("ArrowLeft", "ArrowLeft", 37),
    KeyDefinition("ArrowRight", "ArrowRight", 39),
    KeyDefinition("Home", "Home", 36),
    KeyDefinition("End", "End", 35),
    KeyDefinition("PageUp", "PageUp", 33),
    KeyDefinition("PageDown", "PageDown", 34),
    KeyDefinition("Alt", "AltLeft", 18),
    KeyDefinition("Control", "ControlLeft", 17),
    KeyDefinition("Meta", "MetaLeft", 91),
    KeyDefinition("Shift", "ShiftLeft", 16),
    *(KeyDefinition(f"F{n}", f"F{n}", 111 + n) for n in range(1, 13)),
]
_PUNCTUATION = [  # (unshifted, shifted, code, virtual key code) on a US layout
    ("-", "_", "Minus", 189),
    ("=", "+", "Equal", 187),
    ("[", "{", "BracketLeft", 219),
    ("]", "}", "BracketRight", 221),
    ("\\", "|", "Backslash", 220),
    (";", ":", "Semicolon", 186),
    ("'", '"', "Quote", 222),
    (",", "<", "Comma", 188),
    (".", ">", "Period", 190),
    ("/", "?", "Slash", 191),
    ("`", "~", "Backquote", 192),
]

NAMED_KEYS: dict[str, KeyDefinition] = {d.key.lower(): d for d in _NAMED}
NAMED_KEYS.update({"space": SPACE, "esc": NAMED_KEYS["escape"], "return": NAMED_KEYS["enter"]})
NAMED_KEYS.update({"del": NAMED_KEYS["delete"], "up": NAMED_KEYS["arrowup"], "down": NAMED_KEYS["arrowdown"]})
NAMED_KEYS.update({"left": NAMED_KEYS["arrowleft"], "right": NAMED_KEYS["arrowright"]})
NAMED_KEYS.update({name: NAMED_KEYS[alias.lower()] for name, alias in MODIFIER_ALIASES.items()})

CHARACTER_KEYS: dict[str, KeyDefinition] = {" ": SPACE}
for letter in string.ascii_lowercase:
    CHARACTER_KEYS[letter] = KeyDefinition(letter, f"Key{letter.upper()}", ord(letter.upper()), letter, letter.upper())
for digit, shifted in zip("0123456789", ")!@#$%^&*(", strict=True):
    CHARACTER_KEYS[digit] = KeyDefinition(digit, f"Digit{digit}", ord(digit), digit, shifted)
for plain, shifted, code, key_code in _PUNCTUATION:
    CHARACTER_KEYS[plain] = KeyDefinition(plain, code, key_code, plain, shifted)
SHIFTED_CHARACTERS = {d.shifted: d for d in CHARACTER_KEYS.values() if d.shifted and d.shifted != d.key}

VALID_NAMES_HINT = (
    "a key name (Enter, Tab, Escape, Backspace, Delete, ArrowUp/Down/Left/Right, Home, End, PageUp, "
    "PageDown, F1-F12, Space), a single character, or a combination such as Control+A or Shift+Tab"
)


@dataclass(frozen=True)
class KeyPress:
    """One key with the modifiers held around it, ready to send as CDP events."""

    modifiers: tuple[str, ...]
    definition: KeyDefinition
    key: str  # KeyboardEvent.key as the page will see it
    text: str  # what the press types ("" when a command modifier is held, or for non-printing keys)

    @property
    def modifier_mask(self) -> int:
        return sum(MODIFIER_BITS[m] for m in self.modifiers)

    @property
    def label(self) -> str:
        return "+".join([*self.modifiers, "Space" if self.key == " " else self.key])


def parse_key(spec: str) -> KeyPress:
    """``Control+Shift+K`` → a KeyPress; ArgumentError naming `key` for anything unknown."""
    if spec == "+" or spec.endswith("++"):  # the "+" key itself, alone or as in "Control++"
        head = spec[:-2]
        parts = [*(head.split("+") if head else []), "+"]
    else:
        parts = spec.split("+")
    *modifier_names, name = parts
    modifiers: list[str] = []
    for raw in modifier_names:
        modifier = MODIFIER_ALIASES.get(raw.strip().lower())
        if modifier is None:
            raise _unknown(spec, f"{raw!r} is not a modifier (Control, Shift, Alt, Meta)")
        if modifier not in modifiers:
            modifiers.append(modifier)
    ordered = tuple(m for m in MODIFIER_BITS if m in modifiers)
    return _press(spec, ordered, name)


def _press(spec: str, modifiers: tuple[str, ...], name: str) -> KeyPress:
    shift = "Shift" in modifiers
    commands = any(m in modifiers for m in ("Alt", "Control", "Meta"))
    if len(name) == 1:
        lower = name.lower() if name in string.ascii_uppercase else name
        definition = CHARACTER_KEYS.get(lower) or SHIFTED_CHARACTERS.get(name)
        if definition is None:  # any other character: typed as text, without a physical key
            return KeyPress(modifiers, KeyDefinition(name, "", 0, name), name, "" if commands else name)
        if name in SHIFTED_CHARACTERS and name not in string.ascii_uppercase:
            key = name
        elif name in string.ascii_uppercase and not modifiers:
            key = name  # "A" alone types a capital, as a user would with Shift
        else:
            key = definition.shifted if shift and definition.shifted else definition.key
        return KeyPress(modifiers, definition, key, "" if commands else key)
    found = NAMED_KEYS.get(name.strip().lower())
    if found is None:
        raise _unknown(spec, f"{name!r} is not a key name")
    return KeyPress(modifiers, found, found.key, "" if commands else found.text)


def _unknown(spec: str, why: str) -> ArgumentError:
    shown = clip(spec, 40)
    return ArgumentError(
        f"Unknown key: {why}.",
        problems=[FieldProblem("key", VALID_NAMES_HINT, repr(shown))],
        suggestion="Call {tool:press_key} with one of the key names above; join modifiers with '+', "
        "e.g. Control+Shift+K.",
    )


def key_events(press: KeyPress) -> list[dict[str, object]]:
    """``Input.dispatchKeyEvent`` parameters, in order: modifiers down, the key down and up,
    modifiers up. A key that types sends ``keyDown`` (Chrome's rawKeyDown + char), others
    ``rawKeyDown``, as a real keyboard would."""
    events: list[dict[str, object]] = []
    held = 0
    for modifier in press.modifiers:
        held |= MODIFIER_BITS[modifier]
        events.append(_event("rawKeyDown", NAMED_KEYS[modifier.lower()], modifier, held))
    down = _event("keyDown" if press.text else "rawKeyDown", press.definition, press.key, held)
    if press.text:
        down.update(text=press.text, unmodifiedText=press.text)
    events += [down, _event("keyUp", press.definition, press.key, held)]
    for modifier in reversed(press.modifiers):
        held &= ~MODIFIER_BITS[modifier]
        events.append(_event("keyUp", NAMED_KEYS[modifier.lower()], modifier, held))
    return events


def _event(kind: str, definition: KeyDefinition, key: str, modifiers: int) -> dict[str, object]:
    return {
        "type": kind,
        "key": key,
        "code": definition.code,
        "windowsVirtualKeyCode": definition.key_code,
        "modifiers": modifiers,
    }
