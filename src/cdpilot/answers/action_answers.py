"""Answers after an action (click, fill, hover, press, select, a dialog answered): what was
done, then what it caused (a dialog, a navigation, a new tab or popup, a file chooser, a
download, console output) and, when context was asked for, the element's state and where the page is.

``{tool:…}`` references are left in the text; the registry spells them for the active mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.answers.console_answers import console_bundle_lines
from cdpilot.answers.page_answers import download_line
from cdpilot.answers.page_leaving_answers import action_leave_asked_lines, leave_answered_line
from cdpilot.browser.dom.drag_facts import FileDrop
from cdpilot.browser.dom.element_facts import (
    ActionReport,
    Effects,
    ElementTarget,
    FileChooser,
    OpenedPage,
    PageContext,
)
from cdpilot.browser.dom.scroll_facts import SEARCH_LIMIT_S, ScrollMove, ScrollReport
from cdpilot.browser.page.page_facts import DialogInfo
from cdpilot.text import clip, exact_size, one_line, plural

URL_CHARS = 160
TITLE_CHARS = 80
VALUE_CHARS = 80
DROP_TEXT_CHARS = 300  # a drop zone often lists what it took
CLICK_VERBS = {1: "Clicked", 2: "Double-clicked", 3: "Triple-clicked"}


def target_text(element: ElementTarget | None) -> str:
    """`button#go "Go" (in iframe#pay) (match 2 of 3)`, or "the page" for a key pressed anywhere."""
    if element is None:
        return "the page"
    text = element.description
    if element.where:
        text += f" (in {element.where})"
    if element.match_count > 1:
        text += f" (match {element.index + 1} of {element.match_count})"
    return text


def clicked_line(report: ActionReport, *, button: str, click_count: int) -> str:
    with_button = "" if button == "left" else f" with the {button} button"
    line = f"{CLICK_VERBS[click_count]} {target_text(report.element)}{with_button}"
    if report.through_label:
        line += f" through its label {report.through_label} (the input itself is hidden)"
    if report.checked is not None:
        line += f"; it is now {'checked' if report.checked else 'not checked'}"
    return line + "."


def filled_line(report: ActionReport, text: str, *, submitted: bool) -> str:
    typed = f"{len(text)} characters" if report.masked else f'"{clip(one_line(text), VALUE_CHARS)}"'
    line = f"Filled {target_text(report.element)} with {typed}" + (" and pressed Enter." if submitted else ".")
    if report.value_after is not None:
        line += f' Now the field holds "{clip(one_line(report.value_after), VALUE_CHARS)}".'
    return line


def hovered_line(report: ActionReport) -> str:
    return f"Hovered {target_text(report.element)}."


def pressed_line(report: ActionReport, key_label: str) -> str:
    where = f" in {target_text(report.element)}" if report.element is not None else ""
    return f"Pressed {key_label}{where}."


def selected_line(report: ActionReport) -> str:
    chosen = ", ".join(
        f'"{clip(one_line(o.label), VALUE_CHARS)}" (value "{clip(one_line(o.value), VALUE_CHARS)}")'
        for o in report.chosen
    )
    return f"Selected {chosen or 'the option'} in {target_text(report.element)}."


def uploaded_line(report: ActionReport, files: Sequence[tuple[str, int]]) -> str:
    """``Uploaded 2 files into input#docs: a.txt (1,200 bytes (1 KB)), b.txt (10 B).``, and what the input
    holds afterwards when the page changed it (a change handler that empties it, say)."""
    listed = ", ".join(f"{clip(one_line(name), VALUE_CHARS)} ({exact_size(size)})" for name, size in files)
    count = "1 file" if len(files) == 1 else f"{len(files)} files"
    line = f"Uploaded {count} into {target_text(report.element)}: {listed}."
    if list(report.uploaded) != [name for name, _ in files]:
        held = ", ".join(clip(one_line(name), VALUE_CHARS) for name in report.uploaded)
        line += f" Now the input holds: {held}." if held else " The page emptied the input afterwards."
    return line


def dropped_line(drop: FileDrop, files: Sequence[tuple[str, int]]) -> str:
    """``Dropped 2 files onto div#zone "Drop here": a.txt (10 B), b.txt (4 B); the page took the
    drop. Now div#zone reads "a.txt, b.txt".``"""
    listed = ", ".join(f"{clip(one_line(name), VALUE_CHARS)} ({exact_size(size)})" for name, size in files)
    element = target_text(drop.action.element)
    line = f"Dropped {plural(len(files), 'file')} onto {element}: {listed}; the page took the drop."
    if drop.text_after:
        line += f' Now it reads "{clip(one_line(drop.text_after), DROP_TEXT_CHARS)}".'
    return line


def dialog_answered_line(dialog: DialogInfo, *, accepted: bool, prompt_text: str | None) -> str:
    if dialog.type == "beforeunload":
        return leave_answered_line(accepted=accepted)
    line = f'{"Accepted" if accepted else "Dismissed"} the {dialog.type} dialog "{dialog.preview}"'
    if accepted and prompt_text is not None and dialog.type == "prompt":
        line += f' with "{clip(one_line(prompt_text), VALUE_CHARS)}"'
    return line + "."


def effects_lines(effects: Effects) -> list[str]:
    """What the action caused: a dialog it opened, a navigation, a new page, a file chooser, a
    download, console output."""
    lines: list[str] = []
    nav = effects.navigation
    if effects.dialog is not None and effects.dialog.type == "beforeunload":
        held = nav if nav is not None and not nav.finished else None  # it waits for the answer
        lines += action_leave_asked_lines(held.url if held is not None else "")
        nav = None if held is not None else nav
    elif effects.dialog is not None:
        kind, preview = effects.dialog.type, effects.dialog.preview
        lines.append(f'Opened {_article(kind)} {kind} dialog: "{preview}" — answer it with {{tool:handle_dialog}}.')
    if nav is not None:
        url = clip(one_line(nav.url), URL_CHARS)
        if nav.same_document:
            lines.append(f"Navigated within the page to {url}.")
        elif nav.finished:
            lines.append(f'Navigated to {url} (title "{clip(one_line(nav.title), TITLE_CHARS)}").')
        else:
            lines.append(f"A navigation to {url} started; not loaded within {effects.timeout_ms} ms.")
    lines += [opened_page_line(page) for page in effects.opened_pages]
    if effects.file_chooser is not None:
        lines.append(file_chooser_line(effects.file_chooser))
    lines += [download_line(download) for download in effects.downloads]
    return lines + console_bundle_lines(effects.console, "Console")


def opened_page_line(page: OpenedPage) -> str:
    """The new tab or popup, and the call that makes it current (actions go to the current page)."""
    url = clip(one_line(page.url), URL_CHARS) or "about:blank"
    # Until its document has a title, Chrome titles a page with its URL (without the scheme).
    placeholder = page.title in (page.url, page.url.partition("://")[2])
    title = f' "{clip(one_line(page.title), TITLE_CHARS)}"' if page.title and not placeholder else ""
    if page.index is None:
        return f"Opened a new page{title} at {url}; it closed again at once."
    return (
        f"Opened a new page [{page.index}]{title} at {url}; this page stays current: "
        f"{{tool:switch_target}} with {{param:switch_target.index}}={page.index} switches to it."
    )


def file_chooser_line(chooser: FileChooser) -> str:
    for_what = f" for {chooser.element}" if chooser.element else ""
    files = "several files" if chooser.multiple else "a file"
    into = f"{{tool:upload_file}} into {chooser.element}" if chooser.element else "{tool:upload_file} into its input"
    return f"Opened a file chooser{for_what} (to pick {files}); cdpilot closed it unanswered: upload with {into}."


def context_lines(context: PageContext) -> list[str]:
    """The short state bundle: the element's state, when the page could say, and the page."""
    lines = [f"Element: {context.element_state}"] if context.element_state else []
    title = clip(one_line(context.title), TITLE_CHARS)
    lines.append(f'Page: "{title}" {clip(one_line(context.url), URL_CHARS)}')
    return lines


def action_lines(first: str, report: ActionReport) -> list[str]:
    """The first line, the effects, and the context when the report carries one."""
    lines = [first, *effects_lines(report.effects)]
    if report.context is not None:
        lines += context_lines(report.context)
    return lines


def _article(word: str) -> str:
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def scrolled_line(report: ScrollReport) -> str:
    """What a scroll moved and where each box is now; for a search, what it found or what
    stopped it. E.g. ``Scrolled the page down 630 px (now at 630–1,350 of 8,000 px).``"""
    moves = ", ".join(_move_text(move) for move in report.moves)
    if report.until is not None:
        return _search_text(report, moves)
    if report.asked == "into_view":
        element = target_text(report.element)
        if not report.moves:
            line = f"{element} was in view already; nothing scrolled."
        else:
            line = f"Scrolled {element} into view: {moves}."
        return line if report.in_view else line + " It is still not in the viewport (hidden, or clipped by its box)."
    move = report.moves[0]
    if move.after == move.before:
        return f"Nothing moved: {_box(move)} is {_position_text(move)}."
    return f"Scrolled {moves}."


def _search_text(report: ScrollReport, moves: str) -> str:
    wanted = f'"{clip(one_line(report.until or ""), VALUE_CHARS)}"'
    steps = plural(report.steps, "step") + (" up" if report.asked == "up" else " down")
    moved = any(move.after != move.before for move in report.moves)
    if report.found:
        how = f"the selector {wanted}" if report.found_by == "selector" else wanted
        after = f"after {steps}" if report.steps else "without a page step"
        line = f"Found {how} in {clip(one_line(report.found), VALUE_CHARS)} {after}; "
        line += f"scrolled it into view: {moves}." if moved else "it was in view already."
        return line if report.in_view else line + " It is still not in the viewport (hidden, or clipped by its box)."
    box = _box(report.moves[0]) if report.moves else "the page"
    stopped = {
        "steps": f"stopped after {steps}, the most this search takes",
        "time": f"stopped after {steps} (the search's {SEARCH_LIMIT_S:.0f} s limit)",
    }.get(report.stop, f"reached the {'top' if report.asked == 'up' else 'bottom'} of {box} after {steps}")
    where = moves if moved else f"{box} is {_position_text(report.moves[0])}" if report.moves else ""
    return f"{wanted} is not in the page: {stopped} without finding it" + (f"; {where}." if where else ".")


def _box(move: ScrollMove) -> str:
    return move.box if move.box == "the page" else clip(one_line(move.box), VALUE_CHARS)


def _move_text(move: ScrollMove) -> str:
    """``div#list down 1,200 px (now at 1,200–1,500 of 6,000 px)``."""
    delta = move.after - move.before
    way = f"down {delta:,} px" if delta > 0 else f"up {-delta:,} px" if delta < 0 else "not moved"
    return f"{_box(move)} {way} (now {_position_text(move)})"


def _position_text(move: ScrollMove) -> str:
    """Where a box is: ``at the bottom, 7,280–8,000 of 8,000 px``, ``at 630–1,350 of 8,000 px``."""
    if move.height <= move.client:
        return f"not scrollable (all {move.height:,} px fit)"
    shown = f"{move.after:,}–{min(move.after + move.client, move.height):,} of {move.height:,} px"
    if move.after <= 0:
        return f"at the top, {shown}"
    if move.after + move.client >= move.height - 1:
        return f"at the bottom, {shown}"
    return f"at {shown}"
