"""Filling a whole form in one action: each field as its kind takes a value, each on its own.

Text fields (and passwords, textareas, contenteditables) are typed into as `actions.fill`
types: the old text selected, then real input, then one `change` (`commit_change.js`); such a
field is filled only if it then holds what was typed (a number field given letters, a
maxlength, the page's own handler can each make it hold something else). Every other kind is
set by the page-side ``fill_field.js``, which decides by the element: the options of a select,
a checkbox or radio clicked only when it must change (a radio given a string: the radio of its
group with that value or label; a custom-styled one, its input hidden, through a real click on
its shown label, as `toggle_labels` does), a date, time, colour or range set and kept only if it reads
back as given. A field that fails (no match, not a field, disabled, a value of the wrong type
for its kind, a value refused or not kept) says why in its outcome and the others go on; only
a dialog or a debugger pause, which stop the page, stop the form.

The fields run in order inside one `perform`, so what the form caused (a navigation, a
dialog, console output) is reported once, and a field that an earlier one reveals or
enables is ready by its turn. Each field waits (up to the timeout) to be visible and still,
but not to be enabled: a field that stays disabled would hold up every call by the timeout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cdpilot.browser.dom.element_facts import ActionReport, ChosenOption, FieldOutcome, FormReport
from cdpilot.browser.dom.element_input import call_script, send_keys, wait_actionable
from cdpilot.browser.dom.keys import parse_key
from cdpilot.browser.dom.query import ElementHandle, resolve_element
from cdpilot.browser.dom.toggle_labels import click_label, label_to_click
from cdpilot.browser.dom.watch import page_context, perform
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import (
    ArgumentError,
    BrowserConnectionError,
    CdpilotError,
    DialogOpenError,
    ExecutionPausedError,
    StateError,
)
from cdpilot.text import clip, one_line, plural

VALUE_CHARS = 80
MAX_OPTIONS_LISTED = 10
# What a date, time, month, week or colour input takes, said when it refuses a value.
FORMATS = {
    "date": "2026-11-25",
    "time": "13:45",
    "datetime-local": "2026-11-25T13:45",
    "month": "2026-11",
    "week": "2026-W48",
    "color": "#ff8800",
}
TAKES = {
    "checkbox": 'true, false or "on"',
    "radio": "true (it checks it), or the value or label of a radio of its group",
    "select": "a string (an option's value or label)",
    "select multiple": "a string or a list of strings (options' values or labels)",
}


@dataclass(frozen=True)
class FormField:
    """One field to fill: the element (as `resolve_element` counts matches) and its value."""

    selector: str
    value: str | bool | list[str]
    index: int | None = None


async def fill_form(
    conn: BrowserConnection, fields: list[FormField], *, timeout_ms: int, with_context: bool = False
) -> FormReport:
    """Fill `fields` in order, each on its own (see the module docstring); every field's outcome."""
    conn.features.raise_if_blocked("Filling a form needs the page running.")
    outcomes: list[FieldOutcome] = []

    async def events() -> None:
        for field in fields:
            outcomes.append(await _fill_field(conn, field, timeout_ms))

    effects = await perform(conn, events, timeout_ms=timeout_ms)
    # A dialog or a pause stopped the loop: at the field that caused it, before the ones after it.
    blocker = "a dialog opened" if effects.dialog is not None else "the page paused in the debugger"
    for number, field in enumerate(fields[len(outcomes) :]):
        error = (
            f"Unfinished: {blocker} while it was being filled (below); fill it again once that is dealt with."
            if number == 0
            else "Not filled: the form stopped at an earlier field."
        )
        outcomes.append(FieldOutcome(field.selector, field.index, error=error))
    context = await page_context(conn, None, effects) if with_context and effects.pause is None else None
    return FormReport(tuple(outcomes), ActionReport(None, effects, context=context))


async def _fill_field(conn: BrowserConnection, field: FormField, timeout_ms: int) -> FieldOutcome:
    """One field's outcome; its failure is its own, except what stops the page for every field."""
    kind = ""
    try:
        element = await resolve_element(conn, field.selector, field.index or 0)
        if await label_to_click(conn, element) is None:
            await wait_actionable(conn, element, timeout_ms, need_enabled=False, need_editable=False)
            reply = await call_script(conn, element, "fill_field", field.value, "click")
        else:
            reply = await _through_label(conn, element, field.value, timeout_ms)
        kind = str(reply["kind"])
        return await _outcome(conn, element, field, reply)
    except (DialogOpenError, ExecutionPausedError, BrowserConnectionError):
        raise
    except CdpilotError as exc:
        return FieldOutcome(field.selector, field.index, kind, error=f"{exc.message} {exc.suggestion}".strip())


async def _through_label(
    conn: BrowserConnection, element: ElementHandle, value: str | bool | list[str], timeout_ms: int
) -> dict[str, Any]:
    """`fill_field.js`'s reply for a hidden checkbox or radio, set as a user sets it: a real click on its label
    (named in the reply's ``label``), then its state read back. The radio a group's value chooses may be shown
    itself: it is then clicked as any field is."""
    reply = await call_script(conn, element, "fill_field", value, "label")
    if reply.get("through") != "label":  # as asked already, or a problem
        return dict(reply)
    label = await label_to_click(conn, element, stashed=True)
    if label is None:
        await wait_actionable(conn, element, timeout_ms, need_enabled=False, need_editable=False)
        return dict(await call_script(conn, element, "fill_field", value, "click"))
    await click_label(conn, label, timeout_ms)
    return {**await call_script(conn, element, "fill_field", value, "read"), "label": label.description}


async def _outcome(
    conn: BrowserConnection, element: ElementHandle, field: FormField, reply: dict[str, Any]
) -> FieldOutcome:
    """What the field holds after `fill_field.js` (and, for a text field, the typing); raises its problem."""
    if "problem" in reply:
        raise _problem(element, field.value, reply)
    done = FieldOutcome(field.selector, field.index, str(reply["kind"]), through_label=reply.get("label", ""))
    chosen = tuple(ChosenOption(label=str(lb), value=str(v)) for lb, v in reply.get("chosen", ()))
    if "checked" in reply:
        return replace(done, checked=bool(reply["checked"]), chosen=chosen)
    if "chosen" in reply:
        return replace(done, chosen=chosen)
    if "value" in reply:
        return replace(done, value_after=str(reply["value"]))
    typed = str(field.value)
    held = await _type(conn, element, typed)
    if _as_text(done.kind, held) != _as_text(done.kind, typed):
        raise _not_kept(done.kind, typed, held, int(reply["maxLength"]))
    if done.kind == "password":
        return replace(done, length=len(held))
    return replace(done, value_after=held)


async def _type(conn: BrowserConnection, element: ElementHandle, text: str) -> str:
    """Replace the field's text by typing `text`, as `actions.fill` does with clear=true; what it holds then."""
    if await call_script(conn, element, "prepare_fill", True) == "selected" and not text:
        await send_keys(conn, parse_key("Delete"))
    if text:
        await conn.features.unless_blocked(conn.page.send("Input.insertText", {"text": text}))
    return str(await call_script(conn, element, "commit_change"))


def _as_text(kind: str, value: str) -> str:
    """`value` as a field of `kind` holds text: a textarea keeps line breaks as LF, and a contenteditable's text
    has none (a typed line break becomes an element)."""
    return value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "" if kind == "contenteditable" else "\n")


def _not_kept(kind: str, typed: str, held: str, max_length: int) -> StateError:
    """A typed field that holds something else than was typed: what it holds (a password's length only), and why."""
    if kind == "password":
        holds = f"It holds {plural(len(held), 'character')} after {plural(len(typed), 'character')} were typed"
    else:
        holds = f'It holds "{_short(held)}" after "{_short(typed)}" was typed'
    if kind == "number":
        return StateError(f"{holds}: a number field takes only a number.", suggestion="Give a number, like 42 or 3.5.")
    if 0 <= max_length < len(typed):
        return StateError(
            f"{holds}: it takes at most {plural(max_length, 'character')} (maxlength).",
            suggestion="Give a value that fits.",
        )
    return StateError(
        f"{holds}: the page changed or refused it (its own input handler or mask).",
        suggestion="Give the value in the form the page keeps; {tool:inspect_element} shows the field's attributes.",
    )


def _problem(element: ElementHandle, value: str | bool | list[str], reply: dict[str, Any]) -> CdpilotError:
    """The error a field's problem (as `fill_field.js` names it) stands for. The answer's line names the
    field already, so only a selector that found no field at all gets the element's description."""
    kind, problem = str(reply["kind"]), reply["problem"]
    if problem == "not a field":
        hint = "Target an input, select, textarea or contenteditable element; {tool:query_elements} lists them."
        return ArgumentError(
            f"{element.description} is not a form field.",
            suggestion="Upload files with {tool:upload_file}." if kind == "file" else hint,
        )
    if problem == "disabled":
        return StateError("It is disabled.", suggestion="Do what enables it first, then fill it again.")
    if problem == "readonly":
        return StateError("It is read-only.", suggestion="Fill an editable field; {tool:query_elements} lists them.")
    if problem == "type" and kind == "radio" and value is False:
        return ArgumentError("False cannot uncheck a radio; give true to another radio of its group.", suggestion="")
    if problem == "type":
        given = "a list" if isinstance(value, list) else "true or false" if isinstance(value, bool) else "a string"
        return ArgumentError(f"Give {TAKES.get(kind, 'a string')}, not {given}.", suggestion="")
    if problem == "kept":
        state = "checked" if reply["checked"] else "not checked"
        clicked = f" after a click on its label {reply['label']}" if "label" in reply else ""
        return StateError(
            f"It stayed {state}{clicked}: the page's own click handler kept it so.",
            suggestion="Look at what the page wants first with {tool:browser_screenshot}.",
        )
    if problem == "option":
        return _no_such_option(kind, reply)
    return _refused(kind, str(value), reply)


def _no_such_option(kind: str, reply: dict[str, Any]) -> StateError:
    missing = ", ".join(f'"{_short(w)}"' for w in reply["missing"])
    what, listed_as = ("radio of its group", "Radios") if kind == "radio" else ("option", "Options")
    options = [f'"{_short(v)}" ({_short(label)})' for v, label in reply["options"][:MAX_OPTIONS_LISTED]]
    more = reply["total"] - len(options)
    listed = ", ".join(options) + (f", …{more} more" if more > 0 else "")
    return StateError(
        f"No {what} has the value or label {missing}. {listed_as} (value (label)): {listed or 'none'}.",
        suggestion="Give one of the values or labels above.",
    )


def _refused(kind: str, value: str, reply: dict[str, Any]) -> ArgumentError:
    """A value the input turned into something else: what it made of it, and what it takes."""
    if kind == "range":
        takes = f"a number from {reply['min'] or 0} to {reply['max'] or 100} in steps of {reply['step'] or 1}"
    else:
        takes = f"a value like {FORMATS.get(kind, 'its own format')}"
    return ArgumentError(
        f'The input turned "{_short(value)}" into "{_short(reply["made"])}", so it was left as it was '
        f'("{_short(reply["held"])}").',
        suggestion=f"Give {takes}.",
    )


def _short(text: str) -> str:
    return clip(one_line(str(text)), VALUE_CHARS)
