"""The answer of a form fill: how many fields were filled (a field counts only when it holds
what was given), then a line per field in the order given, with what it holds now or why it
was not filled and what to do. A password field shows its length only. What the fill caused
follows, as after any action (`action_answers`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.browser.dom.element_facts import FieldOutcome
from cdpilot.text import clip, one_line, plural

VALUE_CHARS = 80
SELECTOR_CHARS = 80


def filled_form_text(fields: Sequence[FieldOutcome]) -> str:
    """``Filled 4 of 5 fields:`` and a line per field: ``  #terms (checkbox): checked``."""
    filled = sum(not field.error for field in fields)
    lines = [f"Filled {filled} of {plural(len(fields), 'field')}:"]
    lines += [f"  {_label(field)}: {_state(field)}" for field in fields]
    return "\n".join(lines)


def _label(field: FieldOutcome) -> str:
    """The selector as given (and its index, when given), with the kind of field it found."""
    label = clip(one_line(field.selector), SELECTOR_CHARS)
    if field.index is not None:
        label += f" [{field.index}]"
    return f"{label} ({field.kind})" if field.kind else label


def _state(field: FieldOutcome) -> str:
    if field.error:
        return one_line(field.error)
    chosen = ", ".join(f"{_quoted(option.label)} (value {_quoted(option.value)})" for option in field.chosen)
    if field.checked is not None:  # a radio chosen by its group's value or label names it
        state = ("checked" if field.checked else "not checked") + (f" {chosen}" if chosen else "")
        return state + (f", set through its label {field.through_label}" if field.through_label else "")
    if field.kind in ("select", "select multiple"):
        return chosen or "nothing selected"
    return plural(field.length, "character") if field.kind == "password" else _quoted(field.value_after or "")


def _quoted(text: str) -> str:
    return f'"{clip(one_line(text), VALUE_CHARS)}"'
