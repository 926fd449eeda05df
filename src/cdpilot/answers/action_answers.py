"""Answers after an action (click, fill, hover, press, select, a dialog answered): what was
done, then what it caused (a dialog, a navigation, a new tab or popup, a file chooser, a
download, console output) and, when context was asked for, the element's state and where the page is.

``{tool:…}`` references are left in the text; the registry spells them for the active mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.answers.console_answers import console_bundle_lines
from cdpilot.answers.page_leaving_answers import action_leave_asked_lines, leave_answered_line
from cdpilot.browser.dom.element_facts import (
    ActionReport,
    Effects,
    ElementTarget,
    FileChooser,
    OpenedPage,
    PageContext,
)
from cdpilot.browser.page.page_facts import DialogInfo, Download
from cdpilot.text import clip, exact_size, one_line

URL_CHARS = 160
TITLE_CHARS = 80
VALUE_CHARS = 80
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
    return f"{CLICK_VERBS[click_count]} {target_text(report.element)}{with_button}."


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


def download_line(download: Download) -> str:
    """``Downloaded report.csv (8,192 bytes (8 KB)) from <url>: saved as <path>.``, or how far it got (to the byte:
    an agent compares it with what it expected)."""
    url = clip(one_line(download.url), URL_CHARS)
    name = clip(one_line(download.filename), TITLE_CHARS)
    if download.state == "canceled":
        return f"Started a download of {name} from {url}; it was canceled."
    if download.state == "in progress":
        total = f" of {exact_size(download.total_bytes)}" if download.total_bytes else ""
        return (
            f"Started a download of {name} from {url}; {exact_size(download.received_bytes)}{total} so far. "
            "It goes on in the background."
        )
    size = exact_size(download.received_bytes)
    if download.problem:
        return f"Downloaded {name} ({size}) from {url}, but {download.problem}."
    where = f"saved as {download.path}" if download.path else "saved where this browser saves downloads"
    return f"Downloaded {name} ({size}) from {url}: {where}."


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
