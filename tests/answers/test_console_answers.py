"""Console entries and the console tool's answer, on hand-built console facts: the header and
its notes (what the limit, the budget and the log's bounds left out), page separators, stacks,
the cut to the answer budget, and the bundle lines shown after an action or in a pause."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cdpilot.answers.console_answers import console_answer, console_bundle_lines, console_entry_line
from cdpilot.browser.observe.console_facts import ConsoleBucket, ConsoleEntry, ConsoleView, StackFrame

SITE = "http://127.0.0.1:8000"
PAGE = f"{SITE}/console"
BUCKETS = (ConsoleBucket(("error", "warning"), 1000), ConsoleBucket(("log", "info", "debug"), 1000))


def entry(text: str, level: str = "log", *, line: int | None = 2, generation: int = 1, count: int = 1) -> ConsoleEntry:
    return ConsoleEntry(level, text, PAGE if line else None, line, (), generation, count)


LOADED = entry("console page loaded", "info", line=7)
CLICKED = entry("button clicked 42")
REPEATED = entry("same again", line=5, count=5)
THROWN = replace(
    entry("Uncaught TypeError: boom from page", "error", line=6),
    stack=(StackFrame("", PAGE, 6, 38), StackFrame("fire", f"{SITE}/lib/timers.js", 12, 3)),
)


def view(*entries: ConsoleEntry, **changes: Any) -> ConsoleView:
    made = ConsoleView(
        entries=entries,
        level=None,
        include_previous_pages=False,
        generation=1,
        page_urls={},
        earlier_pages=0,
        dropped={},
        buckets=BUCKETS,
    )
    return replace(made, **changes)


def answer(
    shown: ConsoleView,
    *,
    limit: int = 20,
    expand_errors: bool = False,
    max_chars: int = 5000,
    page_url: str = PAGE,
    node: bool = False,
) -> str:
    return console_answer(
        shown, page_url=page_url, limit=limit, expand_errors=expand_errors, max_chars=max_chars, node=node
    )


def test_an_entry_line_says_where_it_was_logged_and_how_often() -> None:
    assert console_entry_line(REPEATED, text_chars=None, origin=SITE) == "[log] same again (×5)  @ /console:5"
    elsewhere = replace(CLICKED, url="http://other.test/app.js")
    assert console_entry_line(elsewhere, origin=SITE) == "[log] button clicked 42  @ http://other.test/app.js:2"
    assert console_entry_line(replace(CLICKED, line=None), origin=SITE) == "[log] button clicked 42  @ /console"
    assert console_entry_line(REPEATED) == "[log] same again (×5)"


def test_an_entry_line_keeps_or_cuts_a_long_text() -> None:
    two_lines = entry("first\n  second " + "x" * 200)
    assert console_entry_line(two_lines, text_chars=None) == "[log] first ⏎   second " + "x" * 200
    assert console_entry_line(two_lines) == "[log] first second " + "x" * 94 + "…[+106 chars]"


def test_an_expanded_entry_lists_its_stack() -> None:
    assert console_entry_line(THROWN, text_chars=None, origin=SITE, expand=True) == (
        "[error] Uncaught TypeError: boom from page  @ /console:6\n"
        f"    at (anonymous) ({PAGE}:6:38)\n"
        f"    at fire ({SITE}/lib/timers.js:12:3)"
    )
    no_url = replace(THROWN, stack=(StackFrame("run", "", 1, 1),))
    assert console_entry_line(no_url, expand=True) == (
        "[error] Uncaught TypeError: boom from page\n    at run (<anonymous>:1:1)"
    )


def test_the_console_answer_lists_the_entries_under_a_header() -> None:
    assert answer(view(LOADED, CLICKED, REPEATED, THROWN)) == (
        f"Console on the current page ({PAGE}): 4 entries\n"
        "[info] console page loaded  @ /console:7\n"
        "[log] button clicked 42  @ /console:2\n"
        "[log] same again (×5)  @ /console:5\n"
        "[error] Uncaught TypeError: boom from page  @ /console:6"
    )


def test_a_node_programs_console_is_named_as_the_programs() -> None:
    script = "file:///srv/app/dist/server.js"
    assert answer(view(CLICKED), page_url=script, node=True).startswith(
        f"Console of the Node.js program ({script}): 1 entry\n"
    )
    assert answer(view(), page_url=script, node=True) == f"No console messages of the Node.js program ({script})."


def test_expand_errors_adds_the_stacks() -> None:
    assert answer(view(CLICKED, THROWN, level="error"), expand_errors=True) == (
        f"Console at level error on the current page ({PAGE}): 2 entries\n"
        "[log] button clicked 42  @ /console:2\n"
        "[error] Uncaught TypeError: boom from page  @ /console:6\n"
        f"    at (anonymous) ({PAGE}:6:38)\n"
        f"    at fire ({SITE}/lib/timers.js:12:3)"
    )


def test_no_entries_says_so_and_points_at_earlier_pages() -> None:
    assert answer(view()) == f"No console messages on the current page ({PAGE})."
    assert answer(view(earlier_pages=3)) == (
        f"No console messages on the current page ({PAGE}). Earlier pages logged 3 "
        f"({{param:get_console_logs.include_previous_pages}}=true)."
    )
    assert answer(view(level="debug", earlier_pages=3, include_previous_pages=True)) == (
        "No console messages at level debug on all recorded pages."
    )


def test_older_entries_left_out_by_the_limit_and_the_bounds_are_counted() -> None:
    entries = [entry(f"n{i}") for i in range(6)]
    assert answer(view(*entries, dropped={"log": 1500, "debug": 12}), limit=2) == (
        f"Console on the current page ({PAGE}): 6 entries, last 2 shown; "
        "4 older omitted (raise {param:get_console_logs.limit}, max 100); "
        "1,512 older log/info/debug entries were dropped (the log keeps the newest 1,000)\n"
        "[log] n4  @ /console:2\n"
        "[log] n5  @ /console:2"
    )
    assert answer(view(*entries[:1], dropped={"log": 7, "error": 1, "warning": 2})) == (
        f"Console on the current page ({PAGE}): 1 entry; "
        "3 older error/warning entries were dropped (the log keeps the newest 1,000); "
        "7 older log/info/debug entries were dropped (the log keeps the newest 1,000)\n"
        "[log] n0  @ /console:2"
    )


def test_a_level_asked_for_says_what_it_lost_or_that_only_other_levels_did() -> None:
    errors = view(THROWN, level="error", dropped={"log": 1512})
    assert answer(errors) == (
        f"Console at level error on the current page ({PAGE}): 1 entry; "
        "no error entry was dropped (1,512 older entries at other levels were)\n"
        "[error] Uncaught TypeError: boom from page  @ /console:6"
    )
    assert (
        answer(replace(errors, dropped={"info": 1}))
        .splitlines()[0]
        .endswith("1 entry; no error entry was dropped (1 older entry at other levels was)")
    )
    debug = view(entry("tick", "debug"), level="debug", dropped={"debug": 1, "log": 40})
    assert answer(debug).splitlines()[0] == (
        f"Console at level debug on the current page ({PAGE}): 1 entry; "
        "1 older debug entry was dropped (the log keeps the newest 1,000 log/info/debug entries)"
    )


def test_a_level_whose_entries_were_all_dropped_is_not_called_empty() -> None:
    assert answer(view(level="debug", dropped={"debug": 5}, earlier_pages=1200)) == (
        f"Console at level debug on the current page ({PAGE}): none held; "
        "5 older debug entries were dropped (the log keeps the newest 1,000 log/info/debug entries). "
        "Earlier pages logged 1,200 ({param:get_console_logs.include_previous_pages}=true)."
    )
    assert answer(view(dropped={"warning": 1}, include_previous_pages=True)) == (
        "Console on all recorded pages: none held; "
        "1 older error/warning entry was dropped (the log keeps the newest 1,000)."
    )
    # Other levels lost entries, this one never had any: that is what "No console messages" means.
    assert answer(view(level="error", dropped={"log": 1512})) == (
        f"No console messages at level error on the current page ({PAGE})."
    )


def test_a_long_answer_keeps_the_newest_entries_that_fit() -> None:
    entries = [entry(f"{i} " + "x" * 60) for i in range(10)]
    text = answer(view(*entries), max_chars=340)
    assert text == (
        f"Console on the current page ({PAGE}): 10 entries, last 2 shown; "
        "8 older omitted (more would not fit: filter by {param:get_console_logs.filter_level})\n"
        f"[log] 8 {'x' * 60}  @ /console:2\n"
        f"[log] 9 {'x' * 60}  @ /console:2"
    )
    assert len(text) == 338
    assert answer(view(*entries), max_chars=10) == (  # one entry at least, even over the budget
        f"Console on the current page ({PAGE}): 10 entries, last 1 shown; "
        "9 older omitted (more would not fit: filter by {param:get_console_logs.filter_level})\n"
        f"[log] 9 {'x' * 60}  @ /console:2"
    )


def test_every_page_starts_with_a_separator_when_earlier_pages_are_included() -> None:
    earlier = entry("on the first page", line=None, generation=0)
    unnamed = entry("on a page that never navigated", line=None, generation=1)
    current = entry("on welcome", line=None, generation=2)
    shown = view(earlier, unnamed, current, include_previous_pages=True, generation=2, page_urls={0: f"{SITE}/first"})
    assert console_answer(shown, page_url=f"{SITE}/welcome", limit=20, expand_errors=False, max_chars=5000) == (
        "Console on all recorded pages: 3 entries\n"
        f"--- page {SITE}/first ---\n"
        "[log] on the first page\n"
        "--- page (an earlier page) ---\n"
        "[log] on a page that never navigated\n"
        f"--- current page {SITE}/welcome ---\n"
        "[log] on welcome"
    )


def test_a_separator_cuts_a_long_url_in_the_middle() -> None:
    long_url = f"{SITE}/" + "a" * 200 + "/end"
    shown = view(entry("x", line=None), include_previous_pages=True)
    assert console_answer(shown, page_url=long_url, limit=20, expand_errors=False, max_chars=5000) == (
        "Console on all recorded pages: 1 entry\n"
        f"--- current page {long_url[:44]}…[+139 chars]{long_url[-43:]} ---\n"
        "[log] x"
    )


def test_a_bundle_shows_one_entry_on_its_title_line() -> None:
    assert console_bundle_lines([REPEATED], "Console") == ["Console: [log] same again (×5)"]
    assert console_bundle_lines([], "Console") == []


def test_a_bundle_shows_the_first_five_then_how_many_more() -> None:
    entries = [entry(f"line {i}", "warning" if i == 1 else "log") for i in range(7)]
    assert console_bundle_lines(entries, "Console since the last action") == [
        "Console since the last action (7):",
        "  [log] line 0",
        "  [warning] line 1",
        "  [log] line 2",
        "  [log] line 3",
        "  [log] line 4",
        "  …2 more: {tool:get_console_logs}",
    ]
