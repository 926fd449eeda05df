"""What a breakpoint request means, before any browser is asked: its arguments checked, the
URL regex a script name stands for, and the condition that carries a logpoint's message and
a hit count (the browser has neither; both ride on the breakpoint's condition).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable

from cdpilot.browser.debugger.debugger_facts import BreakpointSpec
from cdpilot.browser.sourcemaps.source_names import matches_path
from cdpilot.browser.sourcemaps.sourcemap_facts import SourceEntry, split_lines
from cdpilot.errors import ArgumentError, FieldProblem, StateError


def cdp_condition(spec: BreakpointSpec, place: Callable[[str], str] = str) -> str | None:
    """The condition the browser evaluates at the breakpoint: the user's, then the hit count
    (kept under a symbol-keyed global, so no page code sees it), then the logpoint's message,
    which logs and answers false so the page never stops. `place` gives each expression of
    the user's as the script runs it (its original names replaced, in a bundle).

    It never throws into the page: an error (a name that is not defined there) makes it false
    and is kept under another symbol-keyed global, for the breakpoint list to report."""
    if spec.condition is None and spec.hit_count is None and spec.log_message is None:
        return None
    expression = f"({place(spec.condition)})" if spec.condition is not None else "true"
    if spec.hit_count is not None:
        key = json.dumps(spec.id)
        counter = f"((hits) => (hits[{key}] = (hits[{key}] || 0) + 1) === {spec.hit_count})"
        expression += f" && {counter}(globalThis[Symbol.for('cdpilot.hits')] ??= {{}})"
    if spec.log_message is not None:
        expression += f" && (console.log({log_arguments(spec.log_message, place)}), false)"
    errors = f"(globalThis[Symbol.for({json.dumps(CONDITION_ERRORS)})] ??= {{}})"
    return (
        f"(() => {{ try {{ return {expression}; }} catch (error) {{ "
        f"{errors}[{json.dumps(spec.id)}] = String(error); return false; }} }})()"
    )


CONDITION_ERRORS = "cdpilot.conditionErrors"  # the symbol under which failed conditions are kept


def log_arguments(template: str, place: Callable[[str], str] = str) -> str:
    """console.log's arguments for a logpoint message: its text, and each ``{expression}`` as
    a value of its own (so objects show as objects, not as "[object Object]")."""
    parts = []
    for index, piece in enumerate(log_pieces(template)):
        if index % 2:
            parts.append(f"({place(piece)})")
        elif piece.strip():
            parts.append(json.dumps(piece.strip()))
    return ", ".join(parts) or '""'


def log_pieces(template: str) -> list[str]:
    """A logpoint message cut into text and expressions: the expressions at odd indexes."""
    return re.split(r"\{([^{}]+)\}", template)


def user_expressions(spec: BreakpointSpec) -> list[str]:
    """The expressions of the user's a breakpoint runs: its condition and its message's."""
    found = [spec.condition] if spec.condition is not None else []
    if spec.log_message is not None:
        found += log_pieces(spec.log_message)[1::2]
    return found


def suffix_regex(name: str) -> str:
    """A URL regex for scripts whose path ends with `name` at a ``/``; a leading ``/`` anchors
    it at the site root (``/dist/app.js``)."""
    name = name.replace("\\", "/").removeprefix("./")
    if name.startswith("/"):
        return r"^[a-zA-Z][\w+.-]*://[^/]*" + re.escape(name) + r"(?:[?#].*)?$"
    return r"(?:^|/)" + re.escape(name) + r"(?:[?#].*)?$"


def url_ends_with(url: str, name: str) -> bool:
    """Whether a script URL's path ends with `name` at a ``/`` (as `suffix_regex` matches)."""
    return re.search(suffix_regex(name), url) is not None


def no_code_error(spec: BreakpointSpec, entries: list[SourceEntry]) -> ArgumentError | StateError:
    """No line from the asked one to the end of the file has code: past its end, or after the last code."""
    entry = entries[0]
    count = entry.line_count
    if count is not None and spec.line > count:
        return ArgumentError(
            f"{entry.name} has {count} lines; line {spec.line} is past its end.",
            problems=[FieldProblem("line_number", f"a line from 1 to {count}", str(spec.line))],
            suggestion="Read the file with {tool:debugger_read_source} to pick a line.",
        )
    return StateError(
        f"No code on line {spec.line} of {entry.name} or after it in the loaded scripts.",
        suggestion="Pick a line with code: {tool:debugger_read_source} shows the file.",
    )


def unmapped_names_error(spec: BreakpointSpec, file: str, names: list[str]) -> ArgumentError:
    """A condition or message names variables of the original file that the bundle's map
    places nowhere: nothing is left by them where the breakpoint runs."""
    field = "condition" if spec.condition is not None and any(n in spec.condition for n in names) else "log_message"
    listed = ", ".join(names)
    return ArgumentError(
        f"{listed}: {file} has {'this name' if len(names) == 1 else 'these names'}, but its source map places "
        "none of them in the running script, so the breakpoint cannot read them (inlined or removed by the build).",
        problems=[FieldProblem(field, "names the running script has", listed)],
        suggestion="Use other variables, or set the breakpoint and read them with "
        "{tool:debugger_evaluate_on_call_frame} when it pauses.",
    )


def no_runtime_code_error(name: str) -> StateError:
    """A file that compiles to no code (TypeScript types and interfaces only)."""
    return StateError(
        f"{name} has no code that runs: it compiles to nothing (only types or interfaces), "
        "so a breakpoint there can never pause.",
        suggestion="Set it where the code using those types runs; {tool:debugger_search_sources} finds it.",
    )


def file_name(path: str) -> str:
    """The last part of a path or URL: ``cart.ts`` of ``src/cart.ts``."""
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def origin_of(url: str) -> str:
    """``http://host:port`` of an http(s) URL; "" for any other."""
    found = re.match(r"(https?://[^/?#]+)", url)
    return found.group(1) if found else ""


def check_script_choice(url: str | None, url_regex: str | None) -> None:
    if (url is None) == (url_regex is None):
        given = "both" if url is not None else "neither"
        raise ArgumentError(
            "A breakpoint needs a script: {param:url} or {param:url_regex}.",
            problems=[FieldProblem("url / url_regex", "exactly one of them", given)],
            suggestion="Give the script's URL or the end of it (app.js), an original file (src/cart.ts), "
            "or a regex that matches the script's URL.",
        )
    if url_regex is not None:
        try:
            re.compile(url_regex)
        except re.error as exc:
            raise ArgumentError(
                "{param:url_regex} is not a valid regular expression.",
                problems=[FieldProblem("url_regex", "a regular expression", f"one that fails: {exc}")],
            ) from exc


def same_place(spec: BreakpointSpec, url: str | None, url_regex: str | None, line: int, column: int | None) -> bool:
    return (spec.url, spec.url_regex, spec.line, spec.column) == (url, url_regex, line, column)


def matching_names(name: str, candidates: list[str]) -> list[str]:
    """Files and scripts that share `name`'s file name: what a breakpoint on an unknown file
    may have meant."""
    base = file_name(name)
    return [candidate for candidate in candidates if matches_path(candidate.split("?", 1)[0], base)]


def line_after_edit(old_text: str, new_text: str, line: int) -> tuple[int, bool]:
    """Where 1-based `line` of `old_text` is in `new_text`, and whether it is there unchanged.
    A changed or removed line goes to where its block is now (the edit's first line)."""
    matcher = difflib.SequenceMatcher(None, split_lines(old_text), split_lines(new_text), autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if old_start <= line - 1 < old_end or (tag == "insert" and old_start == line - 1 == old_end):
            if tag == "equal":
                return new_start + (line - 1 - old_start) + 1, True
            if tag == "insert":
                continue  # lines were added before it: it is in the next block
            return min(new_start + (line - 1 - old_start), max(new_end - 1, new_start)) + 1, False
    return len(split_lines(new_text)), False
