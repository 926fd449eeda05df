"""Input tools (smart: click_element, fill_element, interact(action=…)).

Each answer leads with what was done, then what it caused and, when context is wanted, the
element's state and where the page is (`cdpilot.answers.action_answers`). An action whose
event handlers run into a breakpoint answers with the pause bundle instead.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from cdpilot.answers import action_answers as answers
from cdpilot.answers.drag_answers import dragged_text
from cdpilot.answers.form_answers import filled_form_text
from cdpilot.answers.page_answers import close_answered_answer
from cdpilot.answers.page_leaving_answers import closed_itself_line
from cdpilot.answers.pause_answers import pause_bundle_lines
from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot
from cdpilot.browser.dom import actions, drag_drop, forms, scrolling
from cdpilot.browser.dom.drag_facts import FileDrop
from cdpilot.browser.dom.element_facts import ActionReport
from cdpilot.browser.dom.keys import parse_key
from cdpilot.browser.page import tabs
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import BrowserConnectionError, StateError
from cdpilot.handlers.common import browser, downloaded_files, wants_context
from cdpilot.text import clip, one_line, plural
from cdpilot.upload_files import resolve_upload_files, upload_root

if TYPE_CHECKING:
    from cdpilot_generated.models import (
        ClickElementArgs,
        DragElementArgs,
        FillElementArgs,
        FillFormArgs,
        HandleDialogArgs,
        HoverElementArgs,
        PressKeyArgs,
        ScrollArgs,
        SelectOptionArgs,
        UploadFileArgs,
    )

# An error answer is not cut by the registry as a success is: a form's is cut here, leaving room for the notes
# the registry puts above it (a browser launched on the way).
NOTES_ROOM = 300


async def click_element(args: ClickElementArgs, ctx: ToolContext) -> ToolResult:
    """A click that makes its page close itself (a sign-in popup's button) is no failure: the page that opened it
    (or another) becomes current, and the answer says so."""
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    try:
        report = await actions.click(
            conn,
            args.selector,
            args.index,
            button=args.button,
            click_count=args.click_count,
            timeout_ms=args.timeout_ms,
            with_context=full,
        )
    except BrowserConnectionError as exc:
        return await _closed_itself(conn, exc, f"Clicked {one_line(args.selector)}")
    first = answers.clicked_line(report, button=args.button, click_count=args.click_count)
    return await _answer(conn, first, report, full)


async def fill_element(args: FillElementArgs, ctx: ToolContext) -> ToolResult:
    """A submit (Enter) that makes its page close itself answers as such a click does."""
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    try:
        report = await actions.fill(
            conn,
            args.selector,
            args.index,
            args.text,
            clear=args.clear,
            submit=args.submit,
            timeout_ms=args.timeout_ms,
            with_context=full,
        )
    except BrowserConnectionError as exc:  # the typed text is not echoed: the field may be a password
        done = f"Filled {one_line(args.selector)} with {plural(len(args.text), 'character')}"
        return await _closed_itself(conn, exc, done + (" and pressed Enter" if args.submit else ""))
    return await _answer(conn, answers.filled_line(report, args.text, submitted=args.submit), report, full)


async def handle_dialog(args: HandleDialogArgs, ctx: ToolContext) -> ToolResult:
    """A beforeunload dialog raised by closing the page finishes (or drops) the close; one
    raised by a navigation always says where the page is afterwards."""
    conn = await browser(ctx, args.connection_id)
    dialogs = conn.features.dialogs
    if dialogs.closing is not None:
        pending = dialogs.closing
        return ToolResult(close_answered_answer(pending.closing, await tabs.answer_close(conn, pending, args.accept)))
    leaving = dialogs.open is not None and dialogs.open.type == "beforeunload"
    full = leaving or wants_context(args.include_context, ctx)
    dialog, report = await actions.answer_dialog(conn, args.accept, args.prompt_text, with_context=full)
    first = answers.dialog_answered_line(dialog, accepted=args.accept, prompt_text=args.prompt_text)
    return await _answer(conn, first, report, full)


async def upload_file(args: UploadFileArgs, ctx: ToolContext) -> ToolResult:
    settings = ctx.settings
    root = await asyncio.to_thread(upload_root, settings.upload_dir, settings.output_dir)
    files = await asyncio.to_thread(resolve_upload_files, [item.root for item in args.files], root)
    sizes = [(path.name, (await asyncio.to_thread(path.stat)).st_size) for path in files]
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    given = await drag_drop.give_files(conn, args.selector, args.index, files, with_context=full)
    if isinstance(given, FileDrop):
        return await _answer(conn, answers.dropped_line(given, sizes), given.action, full)
    return await _answer(conn, answers.uploaded_line(given, sizes), given, full)


async def hover_element(args: HoverElementArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    report = await actions.hover(conn, args.selector, args.index, timeout_ms=args.timeout_ms, with_context=full)
    return await _answer(conn, answers.hovered_line(report), report, full)


async def drag_element(args: DragElementArgs, ctx: ToolContext) -> ToolResult:
    offset = drag_drop.check_destination(args.to_selector, args.offset_x, args.offset_y)
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    report = await drag_drop.drag(
        conn,
        args.selector,
        args.index,
        to_selector=args.to_selector,
        to_index=args.to_index,
        offset=offset,
        timeout_ms=args.timeout_ms,
        with_context=full,
    )
    return await _answer(conn, dragged_text(report), report.action, full)


async def press_key(args: PressKeyArgs, ctx: ToolContext) -> ToolResult:
    """A key (Enter in a popup's form) that makes its page close itself answers as such a click does."""
    keypress = parse_key(args.key)
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    try:
        report = await actions.press(conn, keypress, args.selector, args.index, with_context=full)
    except BrowserConnectionError as exc:
        where = f" in {one_line(args.selector)}" if args.selector is not None else ""
        return await _closed_itself(conn, exc, f"Pressed {keypress.label}{where}")
    return await _answer(conn, answers.pressed_line(report, keypress.label), report, full)


async def select_option(args: SelectOptionArgs, ctx: ToolContext) -> ToolResult:
    actions.check_select_choice(args.value, args.label)
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    report = await actions.select(
        conn,
        args.selector,
        args.index,
        value=args.value,
        label=args.label,
        timeout_ms=args.timeout_ms,
        with_context=full,
    )
    return await _answer(conn, answers.selected_line(report), report, full)


async def scroll(args: ScrollArgs, ctx: ToolContext) -> ToolResult:
    scrolling.check_scroll(args.to, args.until)
    conn = await browser(ctx, args.connection_id)
    report = await scrolling.scroll(
        conn, args.selector, args.index, to=args.to, until=args.until, max_steps=args.max_steps
    )
    return ToolResult(answers.scrolled_line(report))


async def _closed_itself(conn: BrowserConnection, exc: BrowserConnectionError, done: str) -> ToolResult:
    """The answer to an action whose page session ended with `exc`: when the page closed itself (a sign-in popup
    once it has told its opener), what was `done` and the page current now; else `exc`, the connection lost."""
    gone = await tabs.replace_closed_page(conn)
    if gone is None:
        raise exc
    return ToolResult(closed_itself_line(done, gone))


async def _answer(conn: BrowserConnection, first: str, report: ActionReport, full: bool) -> ToolResult:
    lines = answers.action_lines(first, report)
    if report.effects.pause is not None:
        lines += pause_bundle_lines(await take_pause_snapshot(conn, report.effects.pause, full=full, console_mark=None))
    return ToolResult("\n".join(lines), files=downloaded_files(report.effects.downloads))


async def fill_form(args: FillFormArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    full = wants_context(args.include_context, ctx)
    fields = [forms.FormField(field.selector, field.value, field.index) for field in args.fields]
    report = await forms.fill_form(conn, fields, timeout_ms=args.timeout_ms, with_context=full)
    answer = await _answer(conn, filled_form_text(report.fields), report.action, full)
    if any(field.error for field in report.fields):  # an error result, still saying what did take
        raise StateError(clip(answer.text, ctx.settings.max_answer_chars - NOTES_ROOM, keep="ends"), suggestion="")
    return answer
