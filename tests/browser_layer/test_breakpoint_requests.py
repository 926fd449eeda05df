"""The conditions cdpilot gives the browser for logpoints and hit counts, and the URL regexes
for breakpoints named by the end of a script URL (pure functions, no browser)."""

from __future__ import annotations

import re

import pytest

from cdpilot.browser.debugger.breakpoint_requests import cdp_condition, log_arguments, suffix_regex
from cdpilot.browser.debugger.debugger_facts import BreakpointSpec


def spec(**extra: object) -> BreakpointSpec:
    return BreakpointSpec("bp3", "app.js", None, 4, None, **extra)  # type: ignore[arg-type]


def test_a_plain_breakpoint_has_no_condition() -> None:
    assert cdp_condition(spec(condition=None)) is None


def test_the_parts_of_a_condition_in_order() -> None:
    assert cdp_condition(spec(condition="i > 2", hit_count=5, log_message="at {i}")) == (
        "(() => { try { return "
        '(i > 2) && ((hits) => (hits["bp3"] = (hits["bp3"] || 0) + 1) === 5)'
        "(globalThis[Symbol.for('cdpilot.hits')] ??= {}) && (console.log(\"at\", (i)), false)"
        "; } catch (error) { "
        '(globalThis[Symbol.for("cdpilot.conditionErrors")] ??= {})["bp3"] = String(error); return false; } })()'
    )


def test_each_expression_of_the_user_is_placed_in_the_running_scripts_names() -> None:
    placed = cdp_condition(spec(condition="i > 2", log_message="at {i} of {items}"), lambda e: e.replace("i", "t"))
    assert placed is not None and "return (t > 2)" in placed and 'console.log("at", (t), "of", (ttems))' in placed


@pytest.mark.parametrize(
    ("template", "arguments"),
    [
        ("subtotal is {subtotal}", '"subtotal is", (subtotal)'),
        ("{a}{b.c}", "(a), (b.c)"),
        ("no values", '"no values"'),
        ("", '""'),
    ],
)
def test_a_logpoint_message_becomes_console_log_arguments(template: str, arguments: str) -> None:
    assert log_arguments(template) == arguments


@pytest.mark.parametrize(
    ("name", "url", "matches"),
    [
        ("app.js", "http://127.0.0.1:8000/dist/app.js", True),
        ("dist/app.js", "http://127.0.0.1:8000/dist/app.js?v=3", True),
        ("/dist/app.js", "http://127.0.0.1:8000/dist/app.js", True),
        ("/app.js", "http://127.0.0.1:8000/dist/app.js", False),
        ("pp.js", "http://127.0.0.1:8000/dist/app.js", False),
    ],
)
def test_a_url_end_matches_at_a_path_boundary(name: str, url: str, matches: bool) -> None:
    assert (re.search(suffix_regex(name), url) is not None) is matches
