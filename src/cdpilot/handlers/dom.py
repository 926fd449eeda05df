"""DOM tools: query elements by selector, suggest selectors from a description, wait for things,
outline the page from its accessibility tree.

The page-side work is in `cdpilot.browser.dom.query`; the answers in `cdpilot.answers.element_answers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cdpilot.answers.element_answers import inspect_answer, query_answer, wait_answer
from cdpilot.answers.outline_answers import outline_answer
from cdpilot.browser.dom import query
from cdpilot.browser.outline import ax_outline
from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers.common import browser

if TYPE_CHECKING:
    from cdpilot_generated.models import InspectElementArgs, PageOutlineArgs, QueryElementsArgs, WaitForArgs


async def query_elements(args: QueryElementsArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    found = await query.query_elements(
        conn, args.selector, limit=args.limit, text_contains=args.text_contains, include_hidden=args.include_hidden
    )
    return ToolResult(
        query_answer(
            found, selector=args.selector, text_contains=args.text_contains, max_chars=ctx.settings.max_answer_chars
        )
    )


async def inspect_element(args: InspectElementArgs, ctx: ToolContext) -> ToolResult:
    query.check_inspect_request(args.description, args.text, args.attributes)
    conn = await browser(ctx, args.connection_id)
    found = await query.inspect_element(
        conn, description=args.description, text=args.text, attributes=args.attributes, limit=args.limit
    )
    wanted = [f'"{args.description}"'] if args.description else []
    wanted += [f'text "{args.text}"'] if args.text else []
    wanted += [" ".join(f'{k}="{v}"' for k, v in args.attributes.items())] if args.attributes else []
    return ToolResult(inspect_answer(found, wanted=wanted, max_chars=ctx.settings.max_answer_chars))


async def wait_for(args: WaitForArgs, ctx: ToolContext) -> ToolResult:
    texts = [t.root for t in args.texts] if args.texts is not None else None
    query.check_wait_request(args.selector, texts)
    conn = await browser(ctx, args.connection_id)
    result = await query.wait_for(
        conn, selector=args.selector, state=args.state, texts=texts, timeout_ms=args.timeout_ms
    )
    return ToolResult(wait_answer(result, selector=None if texts is not None else args.selector, state=args.state))


async def page_outline(args: PageOutlineArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    outline = await ax_outline.page_outline(conn, selector=args.selector, max_chars=args.max_chars, offset=args.offset)
    return ToolResult(outline_answer(outline, max_chars=args.max_chars, offset=args.offset))
