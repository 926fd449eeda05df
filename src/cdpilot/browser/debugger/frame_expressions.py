"""Expressions evaluated in a paused frame, written with the author's names.

Bundlers rename locals (``items`` runs as ``items2``, or ``t`` once minified), so an original
name evaluated as it is reaches something else: another module's ``items``, or, where nothing
is left by that name, a global of the same name (the window's named access answers
``total`` with the element whose id is "total"). So before a frame evaluates an expression,
its original identifiers are replaced by the generated names that stand for them at the pause
(`OriginalNames.generated_names` finds those in the frame's scope chain; `PageDebugger.in_frame`
puts the two together), and the answer shows the replacement.

The expression is read as tokens (`js_tokens`), not parsed. A reference is every identifier
that is not a keyword, not a property (after ``.`` or ``?.``), not an object-literal key
(``{items: 1}``) and not a name the expression binds itself (an arrow's or a function's
parameters, a ``let`` inside it); a shorthand property (``{items}``) becomes ``{items: t}``.
Its limits: a method shorthand (``{items() {}}``) is read as a call, and a name the
expression binds is left alone all through it, even outside the scope that binds it.

The original source is read the same way, for the names it declares (`original_declarations`):
a name the paused function declares, with nothing left by it in the generated scopes of that
function, was inlined or removed, and is never looked up further out. The function is found
where the map places the paused function's start, and only if its body holds the pause; a
method's body inside it counts as its own, which only makes an answer refuse rather than guess.
Where no function is found (code the map does not cover there), that check is not made.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from cdpilot.browser.debugger.debugger_facts import FrameExpression
from cdpilot.browser.js_tokens import (
    CLOSING,
    HEAD_TOKENS,
    KEYWORDS,
    OPENING,
    Token,
    declared_at,
    declared_names,
    js_tokens,
    partners,
    pattern_names,
    text_at,
)
from cdpilot.browser.sourcemaps.source_map import BOUND_TO_FUNCTION, IDENTIFIER
from cdpilot.browser.sourcemaps.sourcemap_facts import (
    LINE_BREAK,
    GeneratedPosition,
    NamedPosition,
    utf16_column,
    utf16_index,
)


@dataclass(frozen=True)
class OriginalDeclarations:
    """The names an original source declares, for the names with nothing left by them."""

    in_file: frozenset[str]  # anywhere in the file: imports, declarations, parameters
    in_function: frozenset[str] | None  # by the function around the pause (None: not found)


def rewritten(expression: str, references: Sequence[Reference], generated: dict[str, str]) -> FrameExpression:
    """`expression` with each reference to a name in `generated` replaced by its generated name."""
    renamed = {name: other for name, other in generated.items() if other != name}
    text = expression
    for found in sorted(references, key=lambda r: r.token.start, reverse=True):
        token = found.token
        other = renamed.get(token.text)
        if other is not None:
            replacement = f"{token.text}: {other}" if found.shorthand else other
            text = text[: token.start] + replacement + text[token.end :]
    used = dict.fromkeys(found.token.text for found in references if found.token.text in renamed)
    return FrameExpression(expression, text, tuple((name, renamed[name]) for name in used))


# --- references ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """An identifier of an expression that names a variable."""

    token: Token
    shorthand: bool  # ``{items}``: a key and a reference at once, so it keeps its key


def free_references(tokens: Sequence[Token], own: frozenset[str]) -> list[Reference]:
    """The identifiers of an expression that name variables (see the module docstring), but
    for the names in `own`, which the expression binds itself."""
    found = []
    innermost: list[str] = []
    for index, token in enumerate(tokens):
        if token.kind == "punct" and token.text in OPENING:
            innermost.append(token.text)
        elif token.kind == "punct" and token.text in CLOSING and innermost:
            innermost.pop()
        if token.kind != "name" or token.text in KEYWORDS or token.text in own:
            continue
        before, after = text_at(tokens, index - 1), text_at(tokens, index + 1)
        if before in (".", "?."):
            continue
        in_braces = not innermost or innermost[-1] == "{"
        if after == ":" and before in ("", "{", ",") and in_braces:
            continue  # an object key, or a label
        shorthand = bool(innermost) and in_braces and before in ("{", ",") and after in (",", "}")
        found.append(Reference(token, shorthand))
    return found


# --- declarations in the original source -------------------------------------------------


def original_declarations(source: str, function_start: int | None, pause: int) -> OriginalDeclarations:
    """What original `source` declares: anywhere, and in the function that starts at offset
    `function_start` (where the map places the paused function) if its body holds `pause`."""
    tokens = js_tokens(source)
    in_function = None if function_start is None else _function_names(tokens, function_start, pause)
    return OriginalDeclarations(declared_names(tokens), in_function)


def offset_of(source: str, line: int, column: int) -> int:
    """The index in `source` of a 1-based line and column (columns counting UTF-16 units)."""
    start = 0
    for number, found in enumerate(LINE_BREAK.finditer(source), start=2):
        if number > line:
            break
        start = found.end()
    index, units = start, 0
    while index < len(source) and units < column - 1 and source[index] not in "\n\r":
        units += 2 if ord(source[index]) > 0xFFFF else 1
        index += 1
    return index


def _function_names(tokens: Sequence[Token], start: int, pause: int) -> frozenset[str] | None:
    """The parameters and declarations of the function at offset `start`, nested functions
    left out; None when no function there has a body that holds offset `pause`."""
    closing = partners(tokens)
    first = next((i for i, token in enumerate(tokens) if token.end > start), None)
    if first is None:
        return None
    if tokens[first].kind == "name" and text_at(tokens, first + 1) == "=>":
        return frozenset((tokens[first].text,))  # `item => …`: an expression body declares nothing
    opening = next((i for i in range(first, min(first + HEAD_TOKENS, len(tokens))) if tokens[i].text == "("), None)
    if opening is None or opening not in closing:
        return None
    names = pattern_names(tokens, opening, closing[opening])
    body = _after_return_type(tokens, closing[opening] + 1, closing)
    if text_at(tokens, body) == "=>":
        body += 1
        if text_at(tokens, body) != "{":
            return frozenset(names)
    end = closing.get(body)
    if end is None or not tokens[body].start < pause < tokens[end].end:
        return None
    index = body + 1
    while index < end:
        token = tokens[index]
        if token.kind == "name":
            names |= declared_at(tokens, index, closing)
        if token.kind == "name" and token.text == "function":
            index = _after_function(tokens, index, closing)
        elif token.kind == "punct" and token.text == "=>" and text_at(tokens, index + 1) == "{":
            index = closing.get(index + 1, index) + 1
        else:
            index += 1
    return frozenset(names)


def _after_return_type(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> int:
    """The index of the ``{`` or ``=>`` that follows a function's parameters, past a return
    type (``: Promise<{ price: number }>``): a ``{`` inside angle brackets or right after a
    type's ``:``, ``|``, ``&`` or ``,`` opens an object type, not the body."""
    angles = 0
    while index < len(tokens) and tokens[index].text != ";":
        text = tokens[index].text
        if text == "{" and (angles or text_at(tokens, index - 1) in (":", "|", "&", ",")):
            index = closing.get(index, index) + 1
            continue
        if text in ("{", "=>") and not angles:
            return index
        angles += (text == "<") - (text == ">")
        index += 1
    return index


def _after_function(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> int:
    """The index after a nested function's body (``function name(…) {…}``)."""
    while index < len(tokens) and tokens[index].text != "(":
        index += 1
    index = closing.get(index, index) + 1
    while index < len(tokens) and tokens[index].text != "{":
        index += 1
    return closing.get(index, index) + 1


# --- functions in the generated code -------------------------------------------------------
#
# A minifier gives one letter to many variables, each in its own function: over all the code a
# module's or a closure's scope spans, ``t`` stands for ``store`` and for ``amount`` at once.
# Read only at the scope's own level (its nested functions left out), where ``t`` can only be
# its own variable or one further out, the letter stands for one name again (`own_level`).
# A frame that has no function start (an async frame, a console stack's) finds the function
# it ran in from its name and its place (`function_start`).

CONTROL_HEADS = frozenset(("if", "for", "while", "switch", "catch", "with"))  # `(…) {` that is a block, not a body
MAX_HEAD_TRIES = 16  # places named like the function, nearest first, tried as its start
MAX_FUNCTION_CHARS = 128 * 1024  # how far before its place a function's start is looked for


def own_level(
    lines: Sequence[str],
    start: GeneratedPosition,
    end: GeneratedPosition,
    positions: Sequence[NamedPosition],
    *,
    function: bool,
) -> list[NamedPosition]:
    """The `positions` (inside the code from `start` to `end` of the generated script's
    `lines`: a scope's) that are not inside a function nested in that code. With `function`,
    the code is a function's own (its scope starts at its parameters), not a nested one."""
    if start.line >= len(lines) or not positions:
        return []
    last = min(end.line, len(lines) - 1)
    first_index = utf16_index(lines[start.line], start.column)
    bases: dict[int, int] = {}
    parts: list[str] = []
    length = 0
    for number in range(start.line, last + 1):
        text = lines[number]
        begin = first_index if number == start.line else 0
        stop = utf16_index(text, end.column) if number == end.line else len(text)
        bases[number] = length - begin
        parts.append(text[begin:stop])
        length += len(parts[-1]) + 1
    spans = nested_functions("\n".join(parts), skip_first=function)
    starts = [span[0] for span in spans]
    kept = []
    for position in positions:
        if position.line not in bases:
            continue
        offset = bases[position.line] + utf16_index(lines[position.line], position.column)
        inside = bisect_right(starts, offset) - 1
        if inside < 0 or offset >= spans[inside][1]:
            kept.append(position)
    return kept


def nested_functions(source: str, *, skip_first: bool = False) -> list[tuple[int, int]]:
    """The functions in `source`, outermost only: the offsets of each from its parameters to
    the end of its body, in order. With `skip_first`, a function at the very start is the
    code's own (its parameters and body are not nested in it): the ones inside it count."""
    tokens = js_tokens(source)
    closing = partners(tokens)
    spans = []
    index = 0
    while index < len(tokens):
        last = _function_last(tokens, index, closing)
        if last is None or (skip_first and index == 0):
            index += 1
        else:
            spans.append((tokens[index].start, tokens[last].end))
            index = last + 1
    return spans


def function_start(lines: Sequence[str], name: str, line: int, column: int) -> GeneratedPosition | None:
    """Where the parameters open of the function `name` (as the browser names it) that holds
    0-based `line`/`column` of the generated script's `lines`: the nearest place before it
    named so, followed by parameters and a body that is still open there. None when none is
    found (an anonymous function, a name the function is not written under)."""
    own = IDENTIFIER.findall(name)
    if not own or line >= len(lines):
        return None
    text = lines[line][: utf16_index(lines[line], column)]
    above = line
    while above > 0 and len(text) < MAX_FUNCTION_CHARS:
        above -= 1
        text = lines[above] + "\n" + text
    head = re.compile(rf"(?<![\w$.]){re.escape(own[-1])}{BOUND_TO_FUNCTION}(\(|{IDENTIFIER.pattern}\s*=>)")
    heads = list(head.finditer(text, max(0, len(text) - MAX_FUNCTION_CHARS)))
    read = 0  # characters tokenized: the nearest places are the likely ones, the rest cost more
    for found in reversed(heads[-MAX_HEAD_TRIES:]):
        read += len(text) - found.start(1)
        if read > 2 * MAX_FUNCTION_CHARS:
            break
        if _holds_end(js_tokens(text[found.start(1) :])):
            before = text[: found.start(1)]
            at_line = line - (text.count("\n") - before.count("\n"))
            line_text = before[before.rfind("\n") + 1 :]
            return GeneratedPosition(at_line, utf16_column(line_text, len(line_text)))
    return None


def _holds_end(tokens: Sequence[Token]) -> bool:
    """Whether `tokens` (from a function's parameters) end inside its body: parameters closed,
    then a body not closed (a block) or not ended (an arrow's expression)."""
    closing = partners(tokens)
    if not tokens:
        return False
    if tokens[0].kind == "name" and text_at(tokens, 1) == "=>":
        return _arrow_open(tokens, 2, closing)
    if tokens[0].text != "(" or 0 not in closing:
        return False
    after = closing[0] + 1
    if text_at(tokens, after) == "=>":
        return _arrow_open(tokens, after + 1, closing)
    return text_at(tokens, after) == "{" and after not in closing


def _arrow_open(tokens: Sequence[Token], body: int, closing: dict[int, int]) -> bool:
    if text_at(tokens, body) == "{":
        return body not in closing
    return _arrow_last(tokens, body, closing) == len(tokens) - 1 and body < len(tokens)


def _function_last(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> int | None:
    """The index of the last token of the function whose parameters start at `index`, if one
    does: ``(…) => …``, ``e => …``, or ``(…) {…}`` after a name or ``function`` (not after
    ``if``, ``for`` and the like, whose braces hold a block)."""
    token = tokens[index]
    if token.kind == "name" and text_at(tokens, index + 1) == "=>":
        return _arrow_last(tokens, index + 2, closing)
    if token.kind != "punct" or token.text != "(" or index not in closing:
        return None
    after = closing[index] + 1
    if text_at(tokens, after) == "=>":
        return _arrow_last(tokens, after + 1, closing)
    if text_at(tokens, after) == "{" and after in closing and text_at(tokens, index - 1) not in CONTROL_HEADS:
        return closing[after]
    return None


def _arrow_last(tokens: Sequence[Token], body: int, closing: dict[int, int]) -> int:
    """The index of the last token of an arrow's body starting at `body`: its block, or its
    expression, which ends before a ``,``, a ``;`` or a bracket it did not open."""
    if text_at(tokens, body) == "{":
        return closing.get(body, len(tokens) - 1)
    last, index = body - 1, body
    while index < len(tokens):
        token = tokens[index]
        if token.kind == "punct" and (token.text in (",", ";") or token.text in CLOSING):
            break
        last = closing.get(index, index)
        index = last + 1
    return min(last, len(tokens) - 1)
