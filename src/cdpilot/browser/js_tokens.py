"""JavaScript (and TypeScript) read as tokens, and the names a piece of it declares: enough
to find the variables an expression refers to and what a source file binds, without a parser.

The tokenizer knows strings, template literals (the code inside ``${…}`` is read as code),
comments, regular expressions, numbers and private names. A ``/`` after ``)``, ``]`` or ``}``
is read as a division, never as the start of a regular expression. Declarations
(`declared_names`) cover variables and their destructuring patterns, functions, classes,
enums, imports, and the parameters of functions, arrows and catch clauses. Type annotations
are read as code, so ``let a: Map<K, V>`` declares ``V`` too: readings err towards more
names, never fewer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cdpilot.browser.sourcemaps.source_map import IDENTIFIER
from cdpilot.browser.sourcemaps.sourcemap_facts import LINE_BREAK

TokenKind = Literal["name", "punct", "literal", "private"]

# Words never looked up as variables: the reserved words, those that read as keywords in an
# expression (async, of), and names that only ever mean the language's own (undefined, arguments).
KEYWORDS = frozenset(
    (
        *("await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do"),
        *("else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in"),
        *("instanceof", "let", "new", "null", "of", "return", "static", "super", "switch", "this", "throw", "true"),
        *("try", "typeof", "undefined", "var", "void", "while", "with", "yield", "arguments", "async"),
    )
)
# Words after which a ``/`` starts a regular expression rather than a division.
REGEX_AFTER = frozenset(
    ("return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield")
)
STATEMENT_END = frozenset(("name", "literal", "private"))  # a token after which a line break may end a statement
MULTI_PUNCT = ("...", "?.", "=>", "++", "--")
OPENING = {"(": ")", "[": "]", "{": "}"}
CLOSING = (")", "]", "}")
HEAD_TOKENS = 12  # how far from where a function starts its parameters are looked for
NUMBER = re.compile(r"(?:\d|\.\d)(?:[eE][+-]?\d|[\w.])*")


@dataclass(frozen=True)
class Token:
    """A token, where it is in the source (offsets), and whether a line break comes before it
    (where a statement may end without a semicolon)."""

    kind: TokenKind
    text: str
    start: int
    end: int
    line_break_before: bool = False


def js_tokens(source: str) -> list[Token]:
    """The tokens of JavaScript (or TypeScript) `source`, without comments. Strings, numbers,
    regular expressions and each piece of a template's text are ``literal`` tokens."""
    tokens: list[Token] = []
    substitutions: list[int] = []  # braces open inside each ``${`` being read
    index, line_break = 0, False
    while index < len(source):
        char = source[index]
        if char.isspace():
            line_break = line_break or char in "\n\r\u2028\u2029"
            index += 1
            continue
        end, kind = _token_end(source, index, tokens, substitutions)
        if kind is None:  # a comment
            line_break = line_break or LINE_BREAK.search(source, index, end) is not None
        else:
            tokens.append(Token(kind, source[index:end], index, end, line_break))
            line_break = False
        index = end
    return tokens


def _token_end(source: str, index: int, tokens: list[Token], substitutions: list[int]) -> tuple[int, TokenKind | None]:
    """Where the token at `index` ends, and its kind (None for a comment). A ``}`` that closes a
    template's ``${`` goes on with the template's text; the braces inside are counted for that."""
    char = source[index]
    if source.startswith("//", index):
        found = LINE_BREAK.search(source, index)
        return (found.start() if found else len(source)), None
    if source.startswith("/*", index):
        close = source.find("*/", index + 2)
        return (len(source) if close < 0 else close + 2), None
    if char in "'\"":
        return _string_end(source, index), "literal"
    if char == "`" or (char == "}" and substitutions and substitutions[-1] == 0):
        if char == "}":
            substitutions.pop()
        end, opens = _template_end(source, index + 1)
        if opens:
            substitutions.append(0)
        return end, "literal"
    if char == "/" and _regex_may_start(tokens):
        regex_end = _regex_end(source, index)
        if regex_end is not None:
            return regex_end, "literal"
    number = NUMBER.match(source, index)
    if number:
        return number.end(), "literal"
    name = IDENTIFIER.match(source, index + (char == "#"))
    if name:
        return name.end(), ("private" if char == "#" else "name")
    for punct in MULTI_PUNCT:
        if source.startswith(punct, index) and not (punct == "?." and source[index + 2 : index + 3].isdigit()):
            return index + len(punct), "punct"
    if substitutions and char in "{}":
        substitutions[-1] += 1 if char == "{" else -1
    return index + 1, "punct"


def _string_end(source: str, index: int) -> int:
    """The end of the string at `index`; one left open ends with its line, so it spoils no more."""
    quote, index = source[index], index + 1
    while index < len(source) and source[index] != quote and source[index] not in "\n\r":
        index += 2 if source[index] == "\\" else 1
    return min(index + 1, len(source))


def _template_end(source: str, index: int) -> tuple[int, bool]:
    """Where a template's text ends, and whether a ``${`` ends it (else the closing backtick)."""
    while index < len(source):
        if source[index] == "\\":
            index += 2
        elif source[index] == "`":
            return index + 1, False
        elif source.startswith("${", index):
            return index + 2, True
        else:
            index += 1
    return len(source), False


def _regex_may_start(tokens: list[Token]) -> bool:
    """Whether a ``/`` after `tokens` starts a regular expression: where a value may begin."""
    if not tokens:
        return True
    last = tokens[-1]
    if last.kind == "name":
        return last.text in REGEX_AFTER
    if last.kind == "punct":
        return last.text not in (")", "]", "}", "++", "--")
    return last.kind == "literal" and last.text.endswith("${")


def _regex_end(source: str, index: int) -> int | None:
    """The end of the regular expression literal at `index` (flags included); None when the
    line ends first, so it was a division after all."""
    in_class, index = False, index + 1
    while index < len(source) and source[index] not in "\n\r":
        char = source[index]
        if char == "\\":
            index += 1
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            flags = IDENTIFIER.match(source, index + 1)
            return flags.end() if flags else index + 1
        index += 1
    return None


def partners(tokens: Sequence[Token]) -> dict[int, int]:
    """Index of each bracket token → index of the one that closes it (unclosed ones: none)."""
    found: dict[int, int] = {}
    open_at: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in OPENING:
            open_at.append(index)
        elif token.text in CLOSING:
            while open_at and OPENING[tokens[open_at[-1]].text] != token.text:
                open_at.pop()  # a bracket left open in broken code: skipped
            if open_at:
                found[open_at.pop()] = index
    return found


def text_at(tokens: Sequence[Token], index: int) -> str:
    """The text of the token at `index`; "" past either end."""
    return tokens[index].text if 0 <= index < len(tokens) else ""


# --- declarations --------------------------------------------------------------------------


def declared_names(tokens: Sequence[Token]) -> frozenset[str]:
    """Every name that `tokens` declare, at any depth: variables, functions, classes, enums,
    imports, and the parameters of functions, arrows and catch clauses."""
    closing = partners(tokens)
    opening = {close: open_ for open_, close in closing.items()}
    names: set[str] = set()
    for index, token in enumerate(tokens):
        if token.kind == "name":
            names |= declared_at(tokens, index, closing)
            if token.text == "function":
                names |= _parameters(tokens, index, closing)
        elif token.kind == "punct" and token.text == "=>":
            before = index - 1
            if before >= 0 and tokens[before].kind == "name":
                names.add(tokens[before].text)
            elif before in opening:
                names |= pattern_names(tokens, opening[before], before)
    return frozenset(names)


def declared_at(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> set[str]:
    """The names the declaration starting at `index` binds, if a declaration starts there."""
    word = tokens[index].text
    after = text_at(tokens, index + 1)
    if word in ("let", "const", "var"):
        return _declarators(tokens, index + 1, closing)
    if word in ("class", "enum", "function"):
        name = index + 2 if after == "*" else index + 1
        return {tokens[name].text} if name < len(tokens) and tokens[name].kind == "name" else set()
    if word == "catch" and after == "(" and index + 1 in closing:
        return pattern_names(tokens, index + 1, closing[index + 1])
    if word == "import" and after not in ("(", "."):
        return _imported(tokens, index + 1)
    return set()


def _declarators(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> set[str]:
    """``let a = 1, {b, c: d} = e``: a, b and d; stops where the declaration ends."""
    names: set[str] = set()
    while index < len(tokens):
        token = tokens[index]
        if token.kind == "name":
            names.add(token.text)
            index += 1
        elif token.text in ("{", "[") and index in closing:
            names |= pattern_names(tokens, index, closing[index])
            index = closing[index] + 1
        else:
            return names
        while index < len(tokens):  # its type and initializer, up to the next declarator
            token = tokens[index]
            new_line = token.line_break_before and token.kind == "name" and tokens[index - 1].kind in STATEMENT_END
            if token.text in (";", "of", "in", *CLOSING) or new_line:
                return names
            if token.text == ",":
                index += 1
                break
            index = closing.get(index, index) + 1
    return names


def pattern_names(tokens: Sequence[Token], open_: int, close: int) -> set[str]:
    """The names a parameter list or a destructuring pattern binds: not an object pattern's
    keys, defaults or (in parameters) type annotations."""
    names = set()
    innermost = [tokens[open_].text]
    for index in range(open_ + 1, close):
        token = tokens[index]
        if token.kind == "punct" and token.text in OPENING:
            innermost.append(token.text)
        elif token.kind == "punct" and token.text in CLOSING and len(innermost) > 1:
            innermost.pop()
        if token.kind != "name" or token.text in KEYWORDS:
            continue
        before, after = text_at(tokens, index - 1), text_at(tokens, index + 1)
        in_object = innermost[-1] == "{"
        if in_object and after == ":":
            continue  # a key: `{b: c}` binds c
        if before in ("(", "[", "{", ",", "...") or (in_object and before == ":"):
            names.add(token.text)
    return names


def _parameters(tokens: Sequence[Token], index: int, closing: dict[int, int]) -> set[str]:
    """The parameters of the ``function`` at `index`."""
    head = range(index + 1, min(index + HEAD_TOKENS, len(tokens)))
    opening = next((i for i in head if tokens[i].text == "("), None)
    if opening is None or opening not in closing:
        return set()
    return pattern_names(tokens, opening, closing[opening])


def _imported(tokens: Sequence[Token], index: int) -> set[str]:
    """``import a, {b, c as d, type E} from "x"``: a, b, d (and E, a type)."""
    names = set()
    while index < len(tokens) and tokens[index].kind != "literal" and tokens[index].text != "from":
        token = tokens[index]
        if token.kind == "name" and token.text not in ("as", "type") and text_at(tokens, index + 1) != "as":
            names.add(token.text)
        index += 1
    return names
