"""The emulate tool (smart: page action emulate): what the current tab pretends to be.

Every value is checked before a browser is asked for (unknown device, timezone or locale, a
place off the globe, clear beside a setting), so a wrong call starts nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cdpilot.answers.emulation_answers import emulation_answer
from cdpilot.browser.emulation import page_emulation
from cdpilot.browser.emulation.emulation_presets import check_clear_alone, emulation_change
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser

if TYPE_CHECKING:
    from cdpilot_generated.models import EmulateArgs


async def emulate(args: EmulateArgs, ctx: ToolContext) -> ToolResult:
    settings = args.model_dump(exclude={"clear", "connection_id"})
    check_clear_alone(bool(args.clear), settings)
    change = emulation_change(**settings)
    conn = await browser(ctx, args.connection_id)
    if args.clear:
        report = await page_emulation.clear(conn)
    elif any(value is not None for value in settings.values()):
        report = await page_emulation.emulate(conn, change)
    else:
        report = page_emulation.current(conn)
    return ToolResult(emulation_answer(report))
