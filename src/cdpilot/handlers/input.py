"""Input tools (smart: click_element, fill_element, interact(action=…)).

Each answer leads with what was done, then what it caused (a dialog, a navigation,
console output) and, when context is wanted, the element's state and where the page is.
"""

from __future__ import annotations

from cdpilot_generated.models import (
    ClickElementArgs,
    FillElementArgs,
    HandleDialogArgs,
    HoverElementArgs,
    PressKeyArgs,
    SelectOptionArgs,
)

from cdpilot.answers.pause_bundle import pause_bundle_lines
from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot
from cdpilot.browser.dom import actions
from cdpilot.browser.dom.actions import ActionReport
from cdpilot.browser.dom.watch import context_lines
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import wants_context
from cdpilot.text import clip, one_line

CLICK_VERBS = {1: "Clicked", 2: "Double-clicked", 3: "Triple-clicked"}


async def click_element(args: ClickElementArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    report = await actions.click(
        conn, args.selector, args.index, button=args.button, click_count=args.click_count, timeout_ms=args.timeout_ms
    )
    button = "" if args.button == "left" else f" with the {args.button} button"
    first = f"{CLICK_VERBS[args.click_count]} {_target(report)}{button}."
    return await _answer(ctx, conn, first, report, args.include_context)


async def fill_element(args: FillElementArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    report = await actions.fill(
        conn, args.selector, args.index, args.text, clear=args.clear, submit=args.submit, timeout_ms=args.timeout_ms
    )
    typed = f"{len(args.text)} characters" if report.masked else f'"{clip(one_line(args.text), 80)}"'
    first = f"Filled {_target(report)} with {typed}" + (" and pressed Enter." if args.submit else ".")
    if report.detail:
        first += f" Now {report.detail}."
    return await _answer(ctx, conn, first, report, args.include_context)


async def handle_dialog(args: HandleDialogArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    dialog, effects = await actions.answer_dialog(conn, args.accept, args.prompt_text)
    verb = "Accepted" if args.accept else "Dismissed"
    first = f'{verb} the {dialog.type} dialog "{dialog.preview}"'
    if args.accept and args.prompt_text is not None and dialog.type == "prompt":
        first += f' with "{clip(one_line(args.prompt_text), 80)}"'
    return await _answer(ctx, conn, first + ".", ActionReport(None, effects), args.include_context)


async def hover_element(args: HoverElementArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    report = await actions.hover(conn, args.selector, args.index, timeout_ms=args.timeout_ms)
    return await _answer(ctx, conn, f"Hovered {_target(report)}.", report, args.include_context)


async def press_key(args: PressKeyArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    keypress, report = await actions.press(conn, args.key, args.selector, args.index)
    where = f" in {_target(report)}" if report.element is not None else ""
    return await _answer(ctx, conn, f"Pressed {keypress.label}{where}.", report, args.include_context)


async def select_option(args: SelectOptionArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    report = await actions.select(
        conn, args.selector, args.index, value=args.value, label=args.label, timeout_ms=args.timeout_ms
    )
    chosen = report.detail or "the option"
    return await _answer(ctx, conn, f"Selected {chosen} in {_target(report)}.", report, args.include_context)


def _target(report: ActionReport) -> str:
    element = report.element
    if element is None:
        return "the page"
    text = element.description
    if element.where:
        text += f" (in {element.where})"
    if element.match_count > 1:
        text += f" (match {element.index + 1} of {element.match_count})"
    return text


async def _answer(
    ctx: ToolContext, conn: BrowserConnection, first: str, report: ActionReport, include_context: bool | None
) -> ToolResult:
    lines = [first, *report.effects.lines()]
    full = wants_context(include_context, ctx)
    if report.effects.pause is not None:
        lines += pause_bundle_lines(await take_pause_snapshot(conn, report.effects.pause, full=full, console_mark=None))
    elif full:
        lines += await context_lines(conn, report.element, report.effects)
    return ToolResult("\n".join(lines))
