"""Expressions evaluated in a paused frame, written with the author's names.

Bundlers rename locals (``items`` runs as ``items2``, or ``t`` once minified), so an original
name evaluated as it is reaches something else: another module's ``items``, or, where nothing
is left by that name, a global of the same name (the window's named access answers
``total`` with the element whose id is "total"). So before a frame evaluates an expression,
its original identifiers are replaced by the generated names that stand for them at the pause
(`OriginalNames.generated_names` finds those in the frame's scope chain), and the answer shows
the replacement.

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
from cdpilot.browser.sourcemaps.sourcemap_facts import LINE_BREAK

if TYPE_CHECKING:
    from cdpilot.browser.debugger.debugger_facts import Frame
    from cdpilot.browser.debugger.page_debugger import PageDebugger


@dataclass(frozen=True)
class FrameExpression:
    """An expression as the agent wrote it, and as the paused frame evaluates it."""

    written: str
    evaluated: str
    renamed: tuple[tuple[str, str], ...] = ()  # (original name, generated name), in order of first use


@dataclass(frozen=True)
class OriginalDeclarations:
    """The names an original source declares, for the names with nothing left by them."""

    in_file: frozenset[str]  # anywhere in the file: imports, declarations, parameters
    in_function: frozenset[str] | None  # by the function around the pause (None: not found)


async def in_frame(debugger: PageDebugger, frame: Frame, expression: str) -> FrameExpression:
    """`expression` as `frame` of the current pause must evaluate it: its original names
    replaced by the generated ones where a source map covers the place it paused at."""
    pause = await debugger.names.annotate(debugger.require_paused())
    frame = pause.frames[frame.index]
    tokens = js_tokens(expression)
    own = declared_names(tokens)
    references = free_references(tokens, own)
    names = list(dict.fromkeys(found.token.text for found in references))
    if frame.location.original is None or not names:
        return FrameExpression(expression, expression)
    generated = await debugger.names.generated_names(frame, names, own)
    return rewritten(expression, references, generated)


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
