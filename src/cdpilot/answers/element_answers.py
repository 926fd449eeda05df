"""Answers about elements: query cards, selector suggestions, finished waits.

A query or an inspection may find more than the answer budget holds. Rather than refuse
the whole answer, each block is given in full while that still leaves room for the short
forms of all the blocks after it, and the answer closes by saying how many were shortened.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.browser.dom.element_facts import (
    SCOPE_MARK,
    ElementSummary,
    InspectFindings,
    InteractiveControl,
    QueryFindings,
    SimilarNames,
    UnsearchedFrame,
    WaitResult,
)
from cdpilot.text import plural

BUDGET_MARGIN = 200  # room under the answer limit for the closing note
MAX_CLASSES_SHOWN = 4


def blocks_answer(summary: str, blocks: Sequence[tuple[str, str]], max_chars: int, advice: str) -> str:
    """The summary and the (full, short) blocks within `max_chars`, saying how many were shortened."""
    budget = max_chars - BUDGET_MARGIN
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


def element_head_line(el: ElementSummary, selector: str = "") -> str:
    """`[3] button#go.btn.primary "Go" visible, disabled`: who it is, in one line; for an element
    in a cross-origin frame, the frame-scoped form of `selector` that reaches it there."""
    classes = "".join(f".{c}" for c in el.classes[:MAX_CLASSES_SHOWN])
    classes += "…" if len(el.classes) > MAX_CLASSES_SHOWN else ""
    line = f"[{el.index}] {el.tag}{'#' + el.id if el.id else ''}{classes}"
    if el.text:
        line += f' "{el.text}"'
    flags = ["visible" if el.visible else "hidden"]
    flags += ["disabled"] if el.disabled else []
    flags += ["checked"] if el.checked else []
    if el.value:
        flags.append(f'value="{el.value}"')
    if el.where:
        flags.append(f"in {el.where}")
    if el.scope and selector:
        flags.append(f"select with: {el.scope}{selector}")
    return f"{line} {', '.join(flags)}"


def _control(item: InteractiveControl) -> str:
    if item.kind:
        return f"{item.selector} ({item.kind})"
    return f'{item.selector} "{item.text}"' if item.text else item.selector


def element_block_text(el: ElementSummary, selector: str = "") -> str:
    lines = [element_head_line(el, selector), f"  {el.opening_tag}"]
    if el.children:
        lines.append(f"  {el.structure} ({plural(el.children, 'child', 'children')}, {el.descendants} descendants)")
    if el.interactive:
        shown = ", ".join(_control(i) for i in el.interactive)
        more = el.interactive_total - len(el.interactive)
        rest = f", +{more} more ({{tool:query_elements}} with a selector inside it lists them)" if more else ""
        lines.append(f"  interactive ({el.interactive_total}): {shown}{rest}")
    return "\n".join(lines)


def unsearched_line(frames: Sequence[UnsearchedFrame]) -> str:
    """`1 cross-origin iframe was not searched: iframe#pay (http://…): its frame is not attached yet.`"""
    named = "; ".join(f"{f.where} ({f.url}): {f.reason}" if f.url else f"{f.where}: {f.reason}" for f in frames)
    many = "iframes were" if len(frames) != 1 else "iframe was"
    return f"{len(frames)} cross-origin {many} not searched: {named}."


def no_match_answer(
    selector: str,
    similar: SimilarNames,
    *,
    cross_origin: Sequence[str] = (),
    unsearched: Sequence[UnsearchedFrame] = (),
) -> str:
    """Nothing matched: what was searched (naming the cross-origin iframes), what could not be,
    and names close to the selector's."""
    searched = [plural(similar.elements, "element")]
    if similar.shadow_roots:
        searched.append(plural(similar.shadow_roots, "shadow root"))
    if similar.frames:
        searched.append(plural(similar.frames, "iframe"))
    if cross_origin:
        searched.append(f"{plural(len(cross_origin), 'cross-origin iframe')}: {', '.join(cross_origin)}")
    lines = [f'No element matches "{selector}" (searched {", ".join(searched)}).']
    if unsearched:
        lines.append(unsearched_line(unsearched))
    for label, mark, names in (
        ("Similar ids", "#", similar.ids),
        ("Similar classes", ".", similar.classes),
        ("Similar tags", "", similar.tags),
    ):
        if names:
            lines.append(f"{label}: {', '.join(mark + n for n in names)}")
    if len(lines) == 1 + bool(unsearched):
        some = ", ".join("#" + i for i in similar.some_ids)
        lines.append(f"Ids on the page: {some} ({similar.id_count} in all)." if some else "The page has no ids.")
    lines.append(
        'Try a broader selector, or {tool:inspect_element} with {param:inspect_element.description}="…" '
        "to find one from words."
    )
    return "\n".join(lines)


def query_answer(found: QueryFindings, *, selector: str, text_contains: str | None, max_chars: int) -> str:
    if found.similar is not None:
        return no_match_answer(selector, found.similar, cross_origin=found.cross_origin, unsearched=found.unsearched)
    removed = []
    if found.hidden:
        removed.append(f"{found.hidden} hidden removed")
    if found.without_text:
        removed.append(f'{found.without_text} without text "{text_contains}" removed')
    if found.kept:
        summary = f'{found.total} match "{selector}"' + (f" ({', '.join(removed)})" if removed else "")
        summary += f"; showing {len(found.elements)} of {found.kept}."
        if removed:
            summary += " [index] counts all matches, as {tool:click_element} does."
    else:
        summary = f'{found.total} match "{selector}", {_none_kept_text(found, text_contains)}'
    if found.unsearched:
        summary += "\n" + unsearched_line(found.unsearched)
    own = selector.rsplit(SCOPE_MARK, 1)[-1].strip()  # a match's own part, after its frame's scope
    blocks = [(element_block_text(e, own), element_head_line(e, own)) for e in found.elements]
    return blocks_answer(summary, blocks, max_chars, "query an element on its own for its details")


def _none_kept_text(found: QueryFindings, text_contains: str | None) -> str:
    """Why a query that matched shows nothing: its matches are hidden, or lack the text asked for."""
    if not found.without_text:
        return "all hidden; {param:query_elements.include_hidden}=true shows them."
    if not found.hidden:
        return f'none with text "{text_contains}".'
    return (
        f'{found.hidden} hidden, the other {found.without_text} without text "{text_contains}"; '
        "{param:query_elements.include_hidden}=true shows the hidden ones."
    )


def inspect_answer(found: InspectFindings, *, wanted: Sequence[str], max_chars: int) -> str:
    """`wanted` names what was asked for, e.g. ['"login button"', 'text "Sign in"']."""
    if not found.candidates:
        return (
            f"No element resembles {', '.join(wanted)} (scored {found.scored} elements).\n"
            'List elements by CSS with {tool:query_elements} and a {param:query_elements.selector} such as "button", '
            '"a", "input" or "form *", '
            "or describe it with the words it shows (its text, label or placeholder)."
        )
    summary = (
        f"{plural(found.total, 'candidate')} for {', '.join(wanted)}; "
        f"showing {len(found.candidates)}, best first. Selectors are unique, ranked by stability (0-100)."
    )
    blocks = []
    for rank, candidate in enumerate(found.candidates, 1):
        where = f", in {candidate.where}" if candidate.where else ""
        visible = "visible" if candidate.visible else "hidden"
        matched = ", ".join(candidate.reasons)
        head = f"{rank}. {candidate.description} ({visible}{where}) match {candidate.score}%: {matched}"
        suggestions = [f"  {s.score:>2} {s.selector}  ({s.reason})" for s in candidate.selectors]
        blocks.append(("\n".join([head, *suggestions]), "\n".join([head, *suggestions[:1]])))
    return blocks_answer(summary, blocks, max_chars, "a lower limit shows every selector")


def wait_answer(result: WaitResult, *, selector: str | None, state: str) -> str:
    where = f" (in {result.where})" if result.where else ""
    if selector is None:
        return f'Text "{result.found}" appeared after {result.elapsed_ms} ms{where}.'
    if state == "hidden":
        how = "no element matches any more" if not result.count else f"{result.count} match, none visible"
        return f'"{selector}" is hidden after {result.elapsed_ms} ms ({how}).'
    return f'"{selector}" is {state} after {result.elapsed_ms} ms: {result.found}{where}.'
