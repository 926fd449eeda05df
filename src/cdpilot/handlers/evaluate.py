"""JavaScript evaluation (smart: `evaluate` without call_frame_id), and the answer both
evaluations give: the page's and the paused frame's (`debugger_evaluate_on_call_frame`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot.answers.page_answers import paused_evaluation_answer
from cdpilot.answers.pause_answers import pause_bundle_lines
from cdpilot.answers.value_answers import evaluation_answer, saved_text, saved_value_answer, stopped_page_script_answer
from cdpilot.browser.debugger.debugger_facts import pause_of
from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot
from cdpilot.browser.frames.frame_search import expression_frame
from cdpilot.browser.page.evaluation import evaluate
from cdpilot.browser.value_facts import INLINE_LIMITS, SAVED_LIMITS, ReadLimits, Value
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import ExecutionPausedError
from cdpilot.handlers.common import target, wants_context
from cdpilot.output_files import check_output_path, write_output

if TYPE_CHECKING:
    from cdpilot_generated.models import EvaluateJsArgs

NOTES_ROOM = 300  # of the answer limit, kept for what the registry puts above an answer (a launch note)
STOPPED_ROOM = 250  # of the answer limit, kept for saying that the page's own script was stopped


def read_limits(save_to: str | None) -> ReadLimits:
    """How much of the value to read: a saved value whole (or as near as a bounded read gets).
    A save_to path that could never be written is refused here, before the expression runs."""
    if save_to is None:
        return INLINE_LIMITS
    check_output_path(save_to, field="save_to")  # refused before the expression runs
    return SAVED_LIMITS


async def value_result(
    value: Value, save_to: str | None, ctx: ToolContext, *, stopped_page_s: float | None = None
) -> ToolResult:
    """The answer for an evaluated value; with `save_to`, after writing the whole value there.
    `stopped_page_s`: the page's own script was stopped, after running that long, for the value."""
    max_chars = ctx.settings.max_answer_chars - NOTES_ROOM - (0 if stopped_page_s is None else STOPPED_ROOM)
    files: tuple[Path, ...] = ()
    if save_to is None:
        text = evaluation_answer(value, max_chars=max_chars)
    else:
        data = saved_text(value).encode()
        path = await asyncio.to_thread(write_output, ctx.settings.output_dir, save_to, data, field="save_to")
        text, files = saved_value_answer(value, str(path), max_chars=max_chars), (path,)
    if stopped_page_s is not None:
        text = stopped_page_script_answer(stopped_page_s, text)
    return ToolResult(text, files=files)


async def evaluate_js(args: EvaluateJsArgs, ctx: ToolContext) -> ToolResult:
    limits = read_limits(args.save_to)
    conn = await target(ctx, args.connection_id)
    mark = conn.features.console.mark()
    frame, expression = await expression_frame(conn, args.expression)  # `iframe#pay >> …` runs in that iframe
    try:
        evaluated = await evaluate(
            conn, expression, await_promise=args.await_promise, timeout_ms=args.timeout_ms, limits=limits, frame=frame
        )
    except ExecutionPausedError as exc:  # the expression ran into a breakpoint: that is the news
        snapshot = await take_pause_snapshot(conn, pause_of(exc), full=wants_context(None, ctx), console_mark=mark)
        lines = pause_bundle_lines(snapshot)
        return ToolResult(paused_evaluation_answer(lines))
    return await value_result(evaluated.value, args.save_to, ctx, stopped_page_s=evaluated.stopped_page_script_after_s)
