"""DOM tools: query elements by selector, suggest selectors from a description, wait for things.

The page-side work is in `cdpilot.browser.dom.query`; these functions turn its findings into
compact text. Blocks past the answer budget are shortened to one line rather than the
whole answer being refused.
"""

from __future__ import annotations

from cdpilot_generated.models import InspectElementArgs, QueryElementsArgs, WaitForArgs

from cdpilot.browser.dom import query
from cdpilot.context import ToolContext, ToolResult
from cdpilot.text import plural

BUDGET_MARGIN = 200  # room under the registry's size limit for the closing note


def _fit(summary: str, blocks: list[tuple[str, str]], ctx: ToolContext, advice: str) -> str:
    """The summary and the blocks, within the answer budget: a block is given in full while
    that still leaves room for the short forms of all the blocks after it."""
    budget = ctx.settings.max_answer_chars - BUDGET_MARGIN
    parts, size, shortened = [summary], len(summary), 0
    rest = sum(len(short) + 1 for _, short in blocks)
    for full, short in blocks:
        rest -= len(short) + 1
        block = full if size + len(full) + rest < budget else short
        shortened += block != full
        parts.append(block)
        size += len(block) + 1
    if shortened:
        parts.append(f"(Shortened {shortened} of {len(blocks)} to stay under the answer limit; {advice}.)")
    return "\n".join(parts)


def _head(el: query.ElementInfo) -> str:
    """`[3] button#go.btn.primary "Go" visible, disabled` — who it is, in one line."""
    classes = "".join(f".{c}" for c in el["classes"][:4]) + ("…" if len(el["classes"]) > 4 else "")
    line = f"[{el['index']}] {el['tag']}{'#' + el['id'] if el['id'] else ''}{classes}"
    if el["text"]:
        line += f' "{el["text"]}"'
    flags = ["visible" if el["visible"] else "hidden"]
    flags += ["disabled"] if el["disabled"] else []
    flags += ["checked"] if el["checked"] else []
    if el["value"]:
        flags.append(f'value="{el["value"]}"')
    if el["where"]:
        flags.append(f"in {el['where']}")
    return f"{line} {', '.join(flags)}"


def _interactive(item: query.Interactive) -> str:
    if item["kind"]:
        return f"{item['selector']} ({item['kind']})"
    return f'{item["selector"]} "{item["text"]}"' if item["text"] else item["selector"]


def _block(el: query.ElementInfo) -> str:
    lines = [_head(el), f"  {el['open']}"]
    if el["children"]:
        children = "1 child" if el["children"] == 1 else f"{el['children']} children"
        lines.append(f"  {el['structure']} ({children}, {el['descendants']} descendants)")
    if el["interactive"]:
        shown = ", ".join(_interactive(i) for i in el["interactive"])
        more = el["interactiveTotal"] - len(el["interactive"])
        lines.append(f"  interactive ({el['interactiveTotal']}): {shown}{f', +{more} more' if more else ''}")
    return "\n".join(lines)


def _no_match(selector: str, similar: query.Similar) -> str:
    searched = [plural(similar["elements"], "element")]
    if similar["shadowRoots"]:
        searched.append(plural(similar["shadowRoots"], "shadow root"))
    if similar["frames"]:
        searched.append(plural(similar["frames"], "iframe"))
    lines = [f'No element matches "{selector}" (searched {", ".join(searched)}).']
    for label, mark, names in (
        ("Similar ids", "#", similar["ids"]),
        ("Similar classes", ".", similar["classes"]),
        ("Similar tags", "", similar["tags"]),
    ):
        if names:
            lines.append(f"{label}: {', '.join(mark + n for n in names)}")
    if len(lines) == 1:
        some = ", ".join("#" + i for i in similar["someIds"])
        lines.append(f"Ids on the page: {some} ({similar['idCount']} in all)." if some else "The page has no ids.")
    lines.append('Try a broader selector, or inspect_element(description="…") to find one from words.')
    return "\n".join(lines)


async def query_elements(args: QueryElementsArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    found = await query.query_elements(
        conn, args.selector, limit=args.limit, text_contains=args.text_contains, include_hidden=args.include_hidden
    )
    if found["similar"] is not None:
        return ToolResult(_no_match(args.selector, found["similar"]))
    removed = []
    if found["hidden"]:
        removed.append(f"{found['hidden']} hidden removed")
    if found["withoutText"]:
        removed.append(f'{found["withoutText"]} without text "{args.text_contains}" removed')
    summary = f'{found["total"]} match "{args.selector}"' + (f" ({', '.join(removed)})" if removed else "")
    summary += f"; showing {len(found['elements'])} of {found['kept']}."
    if removed:
        summary += " [index] counts all matches, as click_element does."
    if not found["kept"] and found["hidden"]:
        summary += " Use include_hidden=true to see the hidden ones."
    blocks = [(_block(element), _head(element)) for element in found["elements"]]
    return ToolResult(_fit(summary, blocks, ctx, "query an element on its own for its details"))


async def inspect_element(args: InspectElementArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    found = await query.inspect_element(
        conn, description=args.description, text=args.text, attributes=args.attributes, limit=args.limit
    )
    wanted = [f'"{args.description}"'] if args.description else []
    wanted += [f'text "{args.text}"'] if args.text else []
    wanted += [" ".join(f'{k}="{v}"' for k, v in args.attributes.items())] if args.attributes else []
    if not found["candidates"]:
        return ToolResult(
            f"No element resembles {', '.join(wanted)} (scored {found['scored']} elements).\n"
            'List elements by CSS with query_elements(selector="button") (or "a", "input", "form *"), '
            "or describe it with the words it shows (its text, label or placeholder)."
        )
    summary = (
        f"{plural(found['total'], 'candidate')} for {', '.join(wanted)}; "
        f"showing {len(found['candidates'])}, best first. Selectors are unique, ranked by stability (0-100)."
    )
    blocks = []
    for rank, candidate in enumerate(found["candidates"], 1):
        where = f", in {candidate['where']}" if candidate["where"] else ""
        visible = "visible" if candidate["visible"] else "hidden"
        matched = ", ".join(candidate["reasons"])
        head = f"{rank}. {candidate['description']} ({visible}{where}) match {candidate['score']}%: {matched}"
        suggestions = [f"  {s['score']:>2} {s['selector']}  ({s['reason']})" for s in candidate["selectors"]]
        blocks.append(("\n".join([head, *suggestions]), "\n".join([head, *suggestions[:1]])))
    return ToolResult(_fit(summary, blocks, ctx, "a lower limit shows every selector"))


async def wait_for(args: WaitForArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    texts = [t.root for t in args.texts] if args.texts is not None else None
    result = await query.wait_for(
        conn, selector=args.selector, state=args.state, texts=texts, timeout_ms=args.timeout_ms
    )
    where = f" (in {result.where})" if result.where else ""
    if args.texts is not None:
        return ToolResult(f'Text "{result.found}" appeared after {result.elapsed_ms} ms{where}.')
    if args.state == "hidden":
        how = "no element matches any more" if not result.count else f"{result.count} match, none visible"
        return ToolResult(f'"{args.selector}" is hidden after {result.elapsed_ms} ms ({how}).')
    return ToolResult(f'"{args.selector}" is {args.state} after {result.elapsed_ms} ms: {result.found}{where}.')
