"""Acting on elements as a user would: click, hover, fill, press, select, upload and answering
dialogs, each with real mouse and keyboard events once the element is ready (`element_input`),
and the report of what it caused (`watch`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from cdpilot.browser.dom.element_facts import ActionReport, ChosenOption, Effects
from cdpilot.browser.dom.element_input import (
    actionable_point,
    arm_landing,
    call_script,
    landed,
    next_paint,
    send_keys,
    send_mouse,
    wait_actionable,
)
from cdpilot.browser.dom.keys import KeyPress, parse_key
from cdpilot.browser.dom.query import ElementHandle, resolve_element
from cdpilot.browser.dom.toggle_labels import label_to_click
from cdpilot.browser.dom.watch import page_context, perform
from cdpilot.browser.page.page_facts import DialogInfo
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, FieldProblem, StateError
from cdpilot.text import clip, one_line

BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}
DEFAULT_TIMEOUT_MS = 5000
MAX_OPTIONS_LISTED = 10
# Said, before the element is looked for, when the page is paused: it would neither get the
# events nor finish making its elements (a pause in its first render leaves them missing).
NEEDS_RUNNING = "{doing} needs the page running."


async def click(
    conn: BrowserConnection,
    selector: str,
    index: int,
    *,
    button: str,
    click_count: int,
    timeout_ms: int,
    with_context: bool = False,
) -> ActionReport:
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="A click"))
    element = await resolve_element(conn, selector, index)
    label = await label_to_click(conn, element)  # a hidden custom checkbox or radio: its label, as a user clicks
    pressed = label or element
    x, y = await actionable_point(conn, pressed, timeout_ms, need_enabled=True)
    downloads = button == "left" and bool(await call_script(conn, element, "download_link"))
    mouse = {"x": x, "y": y, "button": button}

    async def press_and_release() -> None:
        await send_mouse(conn, {"type": "mouseMoved", "x": x, "y": y})
        for count in range(1, click_count + 1):
            await send_mouse(
                conn, {**mouse, "type": "mousePressed", "buttons": BUTTON_BITS[button], "clickCount": count}
            )
            await send_mouse(conn, {**mouse, "type": "mouseReleased", "buttons": 0, "clickCount": count})

    async def events() -> None:
        if not element.frames:
            return await press_and_release()
        # Inside a cross-origin iframe: a click the browser routed around it is sent once more,
        # after the frame has painted again; a second miss is an error, never "Clicked".
        for _ in range(2):
            await arm_landing(conn, pressed)
            await press_and_release()
            if await landed(conn, pressed):
                return None
            await next_paint(conn, element)
        raise StateError(
            f"The click at ({x:.0f}, {y:.0f}) did not reach {pressed.description} in its cross-origin iframe: "
            "the browser sent it to the page around the frame, twice.",
            suggestion="Retry once the frame has finished loading; {tool:browser_screenshot} shows what is there.",
        )

    effects = await perform(conn, events, timeout_ms=timeout_ms, downloads=downloads)
    report = await action_report(conn, element, effects, with_context)
    if label is None:
        return report
    if effects.navigation is not None or effects.dialog is not None or effects.pause is not None:
        return replace(report, through_label=label.description)  # the input can no longer say
    return replace(report, through_label=label.description, checked=await call_script(conn, element, "is_checked"))


async def hover(
    conn: BrowserConnection, selector: str, index: int, *, timeout_ms: int, with_context: bool = False
) -> ActionReport:
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="Hovering"))
    element = await resolve_element(conn, selector, index)
    x, y = await actionable_point(conn, element, timeout_ms, need_enabled=False)
    effects = await perform(
        conn, lambda: send_mouse(conn, {"type": "mouseMoved", "x": x, "y": y}), timeout_ms=timeout_ms
    )
    return await action_report(conn, element, effects, with_context)


async def fill(
    conn: BrowserConnection,
    selector: str,
    index: int,
    text: str,
    *,
    clear: bool,
    submit: bool,
    timeout_ms: int,
    with_context: bool = False,
) -> ActionReport:
    """Type `text` with ``Input.insertText`` (the page sees input events), then fire ``change``.

    The change event is dispatched rather than caused by a blur: blurring would close the
    suggestion list of an autocomplete field the caller is about to pick from."""
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="Typing"))
    element = await resolve_element(conn, selector, index)
    kind = await call_script(conn, element, "input_kind")
    if kind not in ("text", "password", "value", "contenteditable"):
        raise _not_fillable(element, kind)
    await wait_actionable(conn, element, timeout_ms, need_enabled=True, need_editable=True)
    outcome: list[str] = []

    async def events() -> None:
        if kind == "value":  # date, colour, range…: no text entry to type into
            if not await call_script(conn, element, "set_value", text):
                raise ArgumentError(
                    "The field refused the value.",
                    problems=[FieldProblem("text", f"a value this {element.description} accepts", repr(text))],
                    suggestion="Give the value in the field's own format (a date as 2024-05-31, a colour as "
                    "#ff0000), then call {tool:fill_element} again.",
                )
        else:
            if await call_script(conn, element, "prepare_fill", clear) == "selected" and not text:
                await send_keys(conn, parse_key("Delete"))
            if text:
                await conn.features.unless_blocked(conn.page.send("Input.insertText", {"text": text}))
            outcome.append(await call_script(conn, element, "commit_change"))
        if submit:
            await send_keys(conn, parse_key("Enter"))

    effects = await perform(conn, events, timeout_ms=timeout_ms)
    masked = kind == "password"
    report = await action_report(conn, element, effects, with_context)
    changed = bool(outcome) and clear and outcome[0] != text and not masked
    return replace(report, value_after=outcome[0] if changed else None, masked=masked)


async def press(
    conn: BrowserConnection, keypress: KeyPress, selector: str | None, index: int, *, with_context: bool = False
) -> ActionReport:
    """Press `keypress` (from `keys.parse_key`) in the element, or wherever the focus is."""
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="A key press"))
    element = None
    if selector is not None:
        element = await resolve_element(conn, selector, index)
        await wait_actionable(conn, element, DEFAULT_TIMEOUT_MS, need_enabled=False, need_editable=False)
        if not await call_script(conn, element, "focus_element"):
            raise StateError(
                f"{element.description} cannot take the keyboard focus.",
                suggestion="Target a focusable element (input, button, link, [tabindex]), or leave out the "
                "selector to press the key wherever the focus is; {tool:query_elements} lists candidates.",
            )
    effects = await perform(conn, lambda: send_keys(conn, keypress), timeout_ms=DEFAULT_TIMEOUT_MS)
    return await action_report(conn, element, effects, with_context)


def check_select_choice(value: str | None, label: str | None) -> None:
    if (value is None) == (label is None):
        given = "both" if value is not None else "neither"
        raise ArgumentError(
            "Give exactly one of value and label.",
            problems=[FieldProblem("value", "exactly one of value or label", given)],
            suggestion="Call {tool:select_option} with {param:select_option.value}=… (the option's value) or "
            "{param:select_option.label}=… (its text), not both.",
        )


async def select(
    conn: BrowserConnection,
    selector: str,
    index: int,
    *,
    value: str | None,
    label: str | None,
    timeout_ms: int,
    with_context: bool = False,
) -> ActionReport:
    """Choose one option of a <select> by value or by its visible label (one of them, as
    `check_select_choice` allows); fires input and change."""
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="Choosing an option"))
    element = await resolve_element(conn, selector, index)
    kind = await call_script(conn, element, "input_kind")
    if kind != "select":
        raise ArgumentError(
            "select_option works on <select> elements only.",
            problems=[FieldProblem("selector", "a <select> element", element.description)],
            suggestion="Type into fields with {tool:fill_element}; open a custom dropdown and pick from it "
            "with {tool:click_element}.",
        )
    await wait_actionable(conn, element, timeout_ms, need_enabled=True, need_editable=False)
    chosen: list[ChosenOption] = []
    by, wanted = ("value", value) if value is not None else ("label", label)

    async def events() -> None:
        reply = await call_script(conn, element, "choose_option", by, wanted)
        if "options" in reply:
            raise _no_such_option(element, by, str(wanted), reply)
        chosen.append(ChosenOption(label=str(reply["label"]), value=str(reply["value"])))

    effects = await perform(conn, events, timeout_ms=timeout_ms)
    return replace(await action_report(conn, element, effects, with_context), chosen=tuple(chosen))


async def upload(
    conn: BrowserConnection, element: ElementHandle, files: list[Path], *, with_context: bool = False
) -> ActionReport:
    """Give the file input `element` `files` (checked paths), as a user picking them would: the
    page gets its input and change events. No visibility is needed: pages often hide the input
    behind a styled button. (`drag_drop.give_files` drops them on any other element.)"""
    facts = await call_script(conn, element, "file_input")
    if facts["disabled"]:
        raise StateError(f"{element.description} is disabled.", suggestion="Do what enables it first, then retry.")
    if len(files) > 1 and not facts["multiple"]:
        raise ArgumentError(
            f"{element.description} takes one file, not {len(files)}.",
            problems=[FieldProblem("files", "one file (the input has no multiple attribute)", f"{len(files)} files")],
        )
    params = {"files": [str(path) for path in files], "objectId": element.object_id}

    async def events() -> None:
        await conn.features.unless_blocked(element.session.send("DOM.setFileInputFiles", params))

    effects = await perform(conn, events, timeout_ms=DEFAULT_TIMEOUT_MS)
    report = await action_report(conn, element, effects, with_context)
    if effects.navigation is not None or effects.dialog is not None or effects.pause is not None:
        return replace(report, uploaded=tuple(path.name for path in files))  # the input can no longer say
    held = await call_script(conn, element, "file_input")  # a change handler may have emptied it already
    return replace(report, uploaded=tuple(str(name) for name in held["names"]))


async def answer_dialog(
    conn: BrowserConnection, accept: bool, prompt_text: str | None, *, with_context: bool = False
) -> tuple[DialogInfo, ActionReport]:
    """Accept or dismiss the open dialog, and report what the page did once it went on."""
    answered: list[DialogInfo] = []
    dialog = conn.features.dialogs.open
    leaves = accept and dialog is not None and dialog.type == "beforeunload"

    async def events() -> None:
        answered.append(await conn.features.dialogs.handle(conn.page, accept, prompt_text))

    effects = await perform(conn, events, timeout_ms=DEFAULT_TIMEOUT_MS, answers_dialog=True, leaves=leaves)
    return answered[0], await action_report(conn, None, effects, with_context)


async def action_report(
    conn: BrowserConnection, element: ElementHandle | None, effects: Effects, with_context: bool
) -> ActionReport:
    """The action's report; with the page's context after it when asked for and the page did
    not pause (a pause answers with its own bundle instead)."""
    context = await page_context(conn, element, effects) if with_context and effects.pause is None else None
    return ActionReport(element.target if element is not None else None, effects, context=context)


def _not_fillable(element: ElementHandle, kind: str) -> ArgumentError:
    suggestion = {
        "select": "Choose an option with {tool:select_option}.",
        "toggle": "Tick or untick it with {tool:click_element}.",
    }.get(kind, "Target an input, textarea or contenteditable element; {tool:query_elements} lists them.")
    return ArgumentError(
        "fill_element types into text fields only.",
        problems=[FieldProblem("selector", "an input, textarea or contenteditable element", element.description)],
        suggestion=suggestion,
    )


def _no_such_option(element: ElementHandle, by: str, wanted: str, reply: dict[str, Any]) -> StateError:
    options = [
        f'"{clip(one_line(v), 40)}" ({clip(one_line(label), 40)})' for v, label in reply["options"][:MAX_OPTIONS_LISTED]
    ]
    more = reply["total"] - len(options)
    listed = ", ".join(options) + (f", …{more} more" if more > 0 else "")
    return StateError(
        f'{element.description} has no option with {by} "{clip(one_line(wanted), 80)}". '
        f"Options (value (label)): {listed}.",
        suggestion="Call {tool:select_option} again with one of the values ({param:select_option.value}=…) or labels "
        "({param:select_option.label}=…) above.",
    )
