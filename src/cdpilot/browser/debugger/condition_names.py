"""A breakpoint's condition and logpoint expressions, written with the author's names, as the
bundle runs them.

A condition runs in the generated script, where bundlers and minifiers renamed the author's
variables (``i`` runs as ``t``; an imported ``store`` as ``r.store``). Run as written it
reaches another binding (a minified ``i`` that holds a function) or none (a ReferenceError),
so each original name is replaced by the generated code that stands for it at the
breakpoint, before the browser gets the condition.

There is no paused frame to ask (the condition is set before it runs), so the name is looked
up statically: the nearest occurrence of the name in the original source at or before the
breakpoint's line (the binding in scope there, as a reader would take it; after it when the
name only occurs later), placed in the generated script by the map, and the identifier found
there is what stands for it (with the object before it, when the bundle reads an import as a
property). A name the original source never mentions is a global or the expression's own
and stays as written. A name the source mentions but the map places nowhere has nothing left
by it in the bundle: it cannot be mapped, and the caller refuses it or says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cdpilot.browser.debugger.debugger_facts import FrameExpression
from cdpilot.browser.debugger.frame_expressions import free_references, offset_of, rewritten
from cdpilot.browser.js_tokens import KEYWORDS, Token, declared_names, js_tokens, text_at
from cdpilot.browser.sourcemaps.source_map import IDENTIFIER, SourceMap
from cdpilot.browser.sourcemaps.sourcemap_facts import SourceEntry, split_lines, utf16_column, utf16_index

WHITESPACE = re.compile(r"\s+")
MEMBER_BEFORE = re.compile(r"((?:[A-Za-z_$][\w$]*\s*\.\s*)+)$")  # ``r.`` of ``r.store``, read backwards


@dataclass(frozen=True)
class PlacedExpression:
    """An expression of a breakpoint as the bundle runs it, and the names no map could place."""

    expression: FrameExpression
    unmapped: tuple[str, ...]


@dataclass(frozen=True)
class BreakpointSite:
    """Where a breakpoint binds in one bundle: what a name lookup there needs."""

    source_map: SourceMap
    entry: SourceEntry
    original_text: str
    original_line: int  # 0-based, the line it is bound on
    generated_lines: Sequence[str]


def placed(site: BreakpointSite, expression: str) -> PlacedExpression:
    """`expression` with each original name replaced by what stands for it at `site`."""
    tokens = js_tokens(expression)
    references = free_references(tokens, declared_names(tokens))
    names = list(dict.fromkeys(found.token.text for found in references))
    occurrences = _occurrences(js_tokens(site.original_text), set(names))
    generated: dict[str, str] = {}
    unmapped: list[str] = []
    for name in names:
        found = _standing_for(site, occurrences.get(name, []))
        if found is not None:
            generated[name] = found
        elif name in occurrences:
            unmapped.append(name)
    return PlacedExpression(rewritten(expression, references, generated), tuple(unmapped))


def _occurrences(tokens: Sequence[Token], names: set[str]) -> dict[str, list[Token]]:
    """Where each of `names` occurs as a variable in the original source (not as a property)."""
    found: dict[str, list[Token]] = {}
    for index, token in enumerate(tokens):
        is_variable = (
            token.kind == "name" and token.text not in KEYWORDS and text_at(tokens, index - 1) not in (".", "?.")
        )
        if is_variable and token.text in names:
            found.setdefault(token.text, []).append(token)
    return found


def _standing_for(site: BreakpointSite, occurrences: list[Token]) -> str | None:
    """The generated code that stands for a name, from its nearest placed occurrence: at or
    before the breakpoint's line, nearest first, then after it."""
    line_end = offset_of(site.original_text, site.original_line + 2, 1)
    before = [token for token in occurrences if token.start < line_end]
    after = [token for token in occurrences if token.start >= line_end]
    for token in [*reversed(before), *after]:
        found = _generated_at(site, token)
        if found is not None:
            return found
    return None


def _generated_at(site: BreakpointSite, token: Token) -> str | None:
    """The generated identifier (with the object it is read from) that the map places at the
    original `token`; None when the map places nothing exactly there."""
    line, column = _line_and_column(site.original_text, token.start)
    lookup = site.source_map.generated_positions(site.entry, line, column)
    if lookup is None or lookup.line != line:
        return None
    for position in lookup.positions:
        back = site.source_map.original_position(position.line, position.column)
        if back is None or (back.line, back.column) != (line, column) or position.line >= len(site.generated_lines):
            continue
        text = site.generated_lines[position.line]
        index = utf16_index(text, position.column)
        match = IDENTIFIER.match(text, index)
        if match is None:
            continue
        member = MEMBER_BEFORE.search(text[:index])
        if member is not None and match.group() == token.text:  # ``r.store``, placed at ``store``
            return f"({WHITESPACE.sub('', member.group(1))}{match.group()})"
        read = re.match(r"\s*\.\s*" + re.escape(token.text) + r"(?![\w$])", text[match.end() :])
        if read is not None:  # ``r.store``, placed at ``r``
            return f"({match.group()}.{token.text})"
        return match.group()
    return None


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    """0-based line and UTF-16 column of `offset` in `text`, as maps count them."""
    lines = split_lines(text[:offset])
    last = lines[-1] if lines else ""
    return len(lines) - 1 if lines else 0, utf16_column(last, len(last))
