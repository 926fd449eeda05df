"""The debugger's setup answers on hand-built facts: on and off, pause settings, and
breakpoints set, listed and removed, resolved or not."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.debugger_setup_answers import (
    breakpoint_list_lines,
    breakpoint_removed_line,
    breakpoint_set_lines,
    disabled_line,
    enabled_lines,
    exception_state_line,
    function_breakpoint_lines,
    scripts_line,
    skip_pauses_line,
    trigger_set_lines,
)
from cdpilot.browser.debugger.debugger_facts import (
    Breakpoint,
    BreakpointSpec,
    DisableOutcome,
    Location,
    Trigger,
    TriggerSpec,
)
from cdpilot.browser.debugger.source_facts import FunctionPlace
from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace

SITE = "http://127.0.0.1:8000"
APP = f"{SITE}/static/app.js"
SCRIPTS = [f"{SITE}/debug", APP]


def at(line: int, column: int) -> Location:
    return Location("7", APP, line, column)


BY_URL = Breakpoint(BreakpointSpec("bp1", APP, None, 27, None, None), ("cdp-1",), "url", (at(27, 16),))
BY_REGEX = Breakpoint(BreakpointSpec("bp3", None, r"app\.js$", 7, None, "i === 4"), ("cdp-3",), "regex", (at(7, 5),))
NOWHERE = Breakpoint(BreakpointSpec("bp2", f"{SITE}/nothing.js", None, 3, 4, "a  >\n 1"), ("cdp-2",), "url")
CART = OriginalPlace("src/cart.ts", f"{SITE}/src/cart.ts", 20, 5)


def test_a_resolved_breakpoint_says_where_it_bound() -> None:
    assert breakpoint_set_lines(BY_URL, SCRIPTS) == [f"Breakpoint bp1 at {APP}:27, resolved in app.js:27:16."]
    assert breakpoint_set_lines(BY_REGEX, SCRIPTS) == [
        r"Breakpoint bp3 at /app\.js$/:7 when i === 4, resolved in app.js:7:5."
    ]


def test_an_original_breakpoint_shows_the_original_place_and_the_generated_one() -> None:
    spec = BreakpointSpec("bp4", "cart.ts", None, 19, None, None)
    place = replace(at(1, 2345), original=CART)
    live = Breakpoint(
        spec,
        ("cdp-4",),
        "original",
        (place,),
        sources=("src/cart.ts",),
        notes=("no code on line 19 of src/cart.ts; bound on line 20",),
    )
    assert breakpoint_set_lines(live, SCRIPTS) == [
        "Breakpoint bp4 at cart.ts:19, resolved in src/cart.ts:20:5 (app.js:1:2345).",
        "Note: no code on line 19 of src/cart.ts; bound on line 20.",
    ]


def test_a_name_that_matches_several_scripts_says_so() -> None:
    spec = BreakpointSpec("bp5", "util.js", None, 3, None, None)
    a, b = Location("1", f"{SITE}/a/util.js", 3, 1), Location("2", f"{SITE}/b/util.js", 3, 1)
    live = Breakpoint(spec, ("cdp-5",), "suffix", (a, b), sources=(a.url, b.url))
    assert breakpoint_set_lines(live, SCRIPTS) == [
        "Breakpoint bp5 at util.js:3, resolved in a/util.js:3:1 and b/util.js:3:1.",
        f"It matches 2 scripts, and is bound in each: {a.url}, {b.url}.",
    ]


def test_scripts_are_named_by_as_much_of_their_path_as_tells_them_apart() -> None:
    spec = BreakpointSpec("bp5", None, r"util\.js$", 2, None, None)
    deep = [f"{SITE}/static/a/util.js", f"{SITE}/static/b/util.js", f"{SITE}/util.js", f"{SITE}/static/a/app.js"]
    places = tuple(Location(str(i), url, 2, 11) for i, url in enumerate(deep))
    assert breakpoint_list_lines([Breakpoint(spec, ("cdp-5",), "regex", places)])[1] == (
        r"- bp5 at /util\.js$/:2, resolved in a/util.js:2:11, b/util.js:2:11, util.js:2:11 and app.js:2:11"
    )
    other_origin = (places[2], Location("9", "http://localhost:9000/util.js", 2, 11))
    assert breakpoint_list_lines([Breakpoint(spec, ("cdp-5",), "regex", other_origin)])[1] == (
        rf"- bp5 at /util\.js$/:2, resolved in {SITE}/util.js:2:11 and http://localhost:9000/util.js:2:11"
    )


def test_a_mapped_place_in_two_bundles_names_each_bundle_beside_the_original() -> None:
    spec = BreakpointSpec("bp6", "cart.ts", None, 20, None, None)
    main = replace(Location("1", f"{SITE}/main/app.js", 1, 340), original=CART)
    worker = replace(Location("2", f"{SITE}/worker/app.js", 1, 90), original=CART)
    live = Breakpoint(spec, ("cdp-6",), "original", (main, worker), sources=("src/cart.ts",))
    assert breakpoint_set_lines(live, SCRIPTS) == [
        "Breakpoint bp6 at cart.ts:20, resolved in src/cart.ts:20:5 (main/app.js:1:340) "
        "and src/cart.ts:20:5 (worker/app.js:1:90)."
    ]


def test_an_unknown_file_names_the_files_of_that_name() -> None:
    spec = BreakpointSpec("bp6", "lib/cart.ts", None, 3, None, None)
    assert breakpoint_set_lines(Breakpoint(spec, ("cdp-6",), "suffix"), SCRIPTS, ["src/cart.ts"]) == [
        "Breakpoint bp6 at lib/cart.ts:3, not resolved yet.",
        "No loaded script matches yet; it binds when a matching script loads (also after a reload).",
        "Files and scripts with that name: src/cart.ts.",
        f"Scripts: {SITE}/debug, {APP}",
    ]


def test_an_unresolved_breakpoint_lists_the_scripts_the_page_has() -> None:
    assert breakpoint_set_lines(NOWHERE, SCRIPTS) == [
        f"Breakpoint bp2 at {SITE}/nothing.js:3:4 when a > 1, not resolved yet.",
        "No loaded script matches yet; it binds when a matching script loads (also after a reload).",
        f"Scripts: {SITE}/debug, {APP}",
    ]
    assert breakpoint_set_lines(NOWHERE, [])[-1] == "No scripts with a URL are loaded yet."


def test_a_breakpoint_bound_in_many_places_is_listed_whole_and_set_with_three_and_the_rest_counted() -> None:
    everywhere = Breakpoint(BY_REGEX.spec, ("cdp-3",), "regex", tuple(at(7, column) for column in range(1, 6)))
    assert breakpoint_list_lines([everywhere]) == [
        "1 breakpoint(s):",
        r"- bp3 at /app\.js$/:7 when i === 4, resolved in app.js:7:1, app.js:7:2, app.js:7:3, app.js:7:4 "
        "and app.js:7:5",
    ]
    assert breakpoint_set_lines(everywhere, [APP])[0].endswith(
        "resolved in app.js:7:1, app.js:7:2, app.js:7:3 and 2 more "
        "({tool:debugger_list_breakpoints} lists every place)."
    )
    three = replace(everywhere, resolved=everywhere.resolved[:3])
    assert breakpoint_list_lines([three])[1].endswith("resolved in app.js:7:1, app.js:7:2 and app.js:7:3")


def test_the_list_of_breakpoints() -> None:
    assert breakpoint_list_lines([BY_URL, NOWHERE]) == [
        "2 breakpoint(s):",
        f"- bp1 at {APP}:27, resolved in app.js:27:16",
        f"- bp2 at {SITE}/nothing.js:3:4 when a > 1, not resolved yet",
    ]
    assert breakpoint_list_lines([]) == ["No breakpoints. Set one with {tool:debugger_set_breakpoint}."]


def test_a_removed_breakpoint_is_named_with_its_place() -> None:
    assert breakpoint_removed_line(BY_REGEX.spec) == r"Removed breakpoint bp3 at /app\.js$/:7."


def test_a_long_condition_is_cut() -> None:
    spec = BreakpointSpec("bp9", APP, None, 1, None, "x === " + "1" * 100)
    assert breakpoint_list_lines([Breakpoint(spec, ("cdp-9",), "url")])[1] == (
        f"- bp9 at {APP}:1 when x === " + "1" * 62 + "…[+38 chars], not resolved yet"
    )


def test_turning_the_debugger_on_lists_the_scripts() -> None:
    assert enabled_lines(True, f"{SITE}/debug", SCRIPTS) == [
        f"Debugger enabled on {SITE}/debug.",
        f"Scripts: {SITE}/debug, {APP}",
    ]
    assert enabled_lines(False, None, []) == [
        "The debugger was already enabled on the page.",
        "No scripts with a URL are loaded yet.",
    ]


def test_many_scripts_are_counted_and_long_urls_keep_both_ends() -> None:
    urls = [f"{SITE}/s{i}.js" for i in range(10)]
    assert scripts_line(urls) == "Scripts (+2 more: {tool:debugger_list_scripts} lists them all): " + ", ".join(
        urls[:8]
    )
    long_url = f"{SITE}/{'a' * 120}/bundle.js"
    assert scripts_line([long_url]) == f"Scripts: {SITE}/" + "a" * 22 + "…[+64 chars]" + "a" * 34 + "/bundle.js"


def test_turning_it_off_counts_the_breakpoints_dropped() -> None:
    assert disabled_line(DisableOutcome(2, resumed=True)) == (
        "Debugger disabled; 2 breakpoint(s) removed. Execution resumed."
    )
    assert disabled_line(DisableOutcome(0, resumed=False)) == "Debugger disabled; 0 breakpoint(s) removed."


def test_skipping_pauses_and_pausing_on_exceptions() -> None:
    assert skip_pauses_line(True, enabled_now=True) == (
        "Debugger enabled. Skipping every pause: breakpoints and debugger; statements are ignored."
    )
    assert skip_pauses_line(False, enabled_now=False) == "Pauses are honoured again."
    assert exception_state_line("none") == "No longer pausing on exceptions."
    assert exception_state_line("uncaught") == "Pausing on uncaught exceptions (caught ones run on)."
    assert exception_state_line("all") == "Pausing on every exception, caught or not."


def test_a_logpoint_and_a_hit_count_say_what_they_do() -> None:
    spec = BreakpointSpec("bp7", APP, None, 9, None, None, log_message="total is {total}", hit_count=3)
    assert breakpoint_list_lines([Breakpoint(spec, ("cdp-7",), "url", (at(9, 3),))])[1] == (
        f'- bp7 at {APP}:9 on hit 3 logs "total is {{total}}" (no pause), resolved in app.js:9:3'
    )


def test_trigger_breakpoints_are_set_listed_and_removed_by_what_they_watch() -> None:
    xhr = Trigger(TriggerSpec("bp8", "xhr", "/api/price"), bound=True)
    dom = Trigger(TriggerSpec("bp9", "dom", "#list", "subtree_modified"), bound=True)
    timer = Trigger(TriggerSpec("bp10", "event", "setTimeout"), bound=True)
    assert trigger_set_lines(xhr) == ['Breakpoint bp8 on requests whose URL contains "/api/price".']
    assert trigger_set_lines(dom) == [
        "Breakpoint bp9 on subtree modified of #list.",
        "It holds that element; after a reload the selector is looked up again.",
    ]
    assert breakpoint_list_lines([BY_URL, timer]) == [
        "2 breakpoint(s):",
        f"- bp1 at {APP}:27, resolved in app.js:27:16",
        "- bp10 on event setTimeout",
    ]
    assert breakpoint_removed_line(dom.spec) == "Removed breakpoint bp9 on subtree modified of #list."


def test_a_function_breakpoint_says_where_the_function_is() -> None:
    place = FunctionPlace("src/cart.ts", 17, 18, ("src/old.ts:4",))
    spec = BreakpointSpec("bp11", "src/cart.ts", None, 18, None, None)
    lines = function_breakpoint_lines(place, Breakpoint(spec, ("c",), "original"), SCRIPTS)
    assert lines[:2] == [
        "Found src/cart.ts:17 (also declared at src/old.ts:4; set one by line for those).",
        "Breakpoint bp11 at src/cart.ts:18, not resolved yet.",
    ]
