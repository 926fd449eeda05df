"""Performance tools (smart: `page` actions vitals and trace): the page's measures, and traces.

A trace's default file name carries the time, so traces recorded one after another do not
overwrite each other.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot.answers.performance_answers import metrics_answer, trace_answer
from cdpilot.browser.performance import performance_entries, tracing
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser
from cdpilot.output_files import check_output_path, open_output

if TYPE_CHECKING:
    from cdpilot_generated.models import PerformanceMetricsArgs, RecordTraceArgs


async def performance_metrics(args: PerformanceMetricsArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    return ToolResult(metrics_answer(await performance_entries.measure(conn)))


async def record_trace(args: RecordTraceArgs, ctx: ToolContext) -> ToolResult:
    user_path = args.path if args.path is not None else time.strftime("trace-%Y%m%d-%H%M%S.json")
    check_output_path(user_path, field="path")
    conn = await browser(ctx, args.connection_id)
    recording = await tracing.record(conn, duration_ms=args.duration_ms, reload=args.reload)
    opener = functools.partial(open_output, ctx.settings.output_dir, user_path, field="path")
    trace = await tracing.save(conn, recording, opener)
    answer = trace_answer(trace, url=conn.target_url or "", reload=args.reload)
    return ToolResult(answer, files=(Path(trace.path),))
