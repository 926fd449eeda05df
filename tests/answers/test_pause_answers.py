"""The pause bundle and what resume and the steps answer, on hand-built pauses: the text an
agent reads after an action leaves the page paused, or lets it run on."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.pause_answers import (
    evaluated_answer,
    frame_text,
    pause_bundle_lines,
    pause_pending_line,
    paused_again_lines,
    ran_on_lines,
    script_names,
)
from cdpilot.browser.debugger.debugger_facts import (
    AsyncFrame,
    AsyncSegment,
    Frame,
    FrameExpression,
    Location,
    Pause,
    PauseSnapshot,
    Variable,
)
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace

SITE = "http://127.0.0.1:8000"


def frame(index: int, name: str, url: str, line: int, column: int) -> Frame:
    return Frame(index, name, Location(f"s{index}", url, line, column), None, f"cf{index}", ())


GREETING = frame(0, "greeting", f"{SITE}/greet.js", 2, 22)
CALLER = frame(1, "", f"{SITE}/greet.js", 9, 53)
LOCALS = (
    Variable("email", '"ada@example.test"'),
    Variable("name", "(uninitialized)"),
    Variable("message", "(uninitialized)"),
)


def snapshot(
    pause: Pause,
    *,
    full: bool = True,
    source: str = 'const name = email.split("@")[0];',
    variables: tuple[Variable, ...] = LOCALS,
    console: tuple[ConsoleEntry, ...] = (),
) -> PauseSnapshot:
    return PauseSnapshot(pause, source, full, variables, console)


def log(text: str, level: str = "log", count: int = 1) -> ConsoleEntry:
    return ConsoleEntry(level, text, None, None, (), 0, count)


AT_BREAKPOINT = Pause(1, "breakpoint bp1", None, (GREETING, CALLER), after_step=False)

BUNDLE = [
    f"Paused (breakpoint bp1) at {SITE}/greet.js:2:22",
    '  2 | const name = email.split("@")[0];',
    "Stack (0 = top):",
    "  #0 greeting greet.js:2:22",
    "  #1 (anonymous) greet.js:9:53",
    'Locals (#0): email = "ada@example.test", name = (uninitialized), message = (uninitialized)',
]


def test_the_full_bundle_has_the_place_its_line_the_frames_and_the_locals() -> None:
    assert pause_bundle_lines(snapshot(AT_BREAKPOINT)) == BUNDLE


def test_the_short_bundle_points_at_the_call_stack() -> None:
    assert pause_bundle_lines(snapshot(AT_BREAKPOINT, full=False)) == [
        f"Paused (breakpoint bp1) at {SITE}/greet.js:2:22",
        '  2 | const name = email.split("@")[0];',
        "Frames and variables: {tool:debugger_get_call_stack}.",
    ]


def test_a_step_marks_the_variables_it_changed() -> None:
    stepped = Pause(2, "step", None, (frame(0, "greeting", f"{SITE}/greet.js", 3, 19), CALLER), after_step=True)
    variables = (
        Variable("email", '"ada@example.test"'),
        Variable("name", '"ada"', changed=True),
        Variable("message", "(uninitialized)"),
    )
    source = 'const message = "Hello, " + name + "!";'
    assert pause_bundle_lines(snapshot(stepped, source=source, variables=variables)) == [
        f"Paused (step) at {SITE}/greet.js:3:19",
        '  3 | const message = "Hello, " + name + "!";',
        "Stack (0 = top):",
        "  #0 greeting greet.js:3:19",
        "  #1 (anonymous) greet.js:9:53",
        'Locals (#0): email = "ada@example.test", name = "ada" [CHANGED], message = (uninitialized)',
    ]


def test_an_exception_pause_names_the_thrown_value_and_a_frame_without_locals_shows_none() -> None:
    thrown = Pause(
        3,
        "uncaught exception",
        "TypeError: uncaught failure",
        (frame(0, "failUncaught", f"{SITE}/static/app.js", 45, 3),),
        after_step=False,
    )
    source = 'throw new TypeError("uncaught failure");'
    assert pause_bundle_lines(snapshot(thrown, source=source, variables=())) == [
        f"Paused (uncaught exception) at {SITE}/static/app.js:45:3: TypeError: uncaught failure",
        '  45 | throw new TypeError("uncaught failure");',
        "Stack (0 = top):",
        "  #0 failUncaught app.js:45:3",
    ]


def test_a_long_thrown_value_is_cut_and_a_lost_source_line_is_left_out() -> None:
    thrown = Pause(4, "exception", "Error: " + "x" * 300, (GREETING,), after_step=False)
    lines = pause_bundle_lines(snapshot(thrown, full=False, source=""))
    assert lines == [
        f"Paused (exception) at {SITE}/greet.js:2:22: Error: " + "x" * 140 + "…[+160 chars]",
        "Frames and variables: {tool:debugger_get_call_stack}.",
    ]


def test_more_than_five_frames_are_counted_not_listed() -> None:
    frames = tuple(frame(i, f"level{i}", f"{SITE}/deep.js", 10 + i, 1) for i in range(7))
    deep = Pause(5, "debugger statement", None, frames, after_step=False)
    assert pause_bundle_lines(snapshot(deep, source="debugger;", variables=())) == [
        f"Paused (debugger statement) at {SITE}/deep.js:10:1",
        "  10 | debugger;",
        "Stack (0 = top):",
        "  #0 level0 deep.js:10:1",
        "  #1 level1 deep.js:11:1",
        "  #2 level2 deep.js:12:1",
        "  #3 level3 deep.js:13:1",
        "  #4 level4 deep.js:14:1",
        "  …2 more: {tool:debugger_get_call_stack}",
    ]


def test_the_console_since_the_last_action_follows_the_locals() -> None:
    one = pause_bundle_lines(snapshot(AT_BREAKPOINT, console=(log("computed 45"),)))
    assert one == [*BUNDLE, "Console since the last action: [log] computed 45"]
    several = pause_bundle_lines(snapshot(AT_BREAKPOINT, console=(log("start"), log("slow", "warning", count=3))))
    assert several == [
        *BUNDLE,
        "Console since the last action (2):",
        "  [log] start",
        "  [warning] slow (×3)",
    ]


def test_a_script_without_a_url_is_named_as_anonymous() -> None:
    evaluated = frame(1, "", "", 1, 1)
    assert frame_text(evaluated, script_names([""])) == "#1 (anonymous) (anonymous script):1:1"
    pause = Pause(6, "pause requested", None, (evaluated,), after_step=False)
    assert pause_bundle_lines(snapshot(pause, full=False, source="compute()"))[0] == (
        "Paused (pause requested) at (anonymous script):1:1"
    )


def test_a_long_script_name_loses_its_middle_in_the_frames_list_keeping_its_file_and_line() -> None:
    long_name = frame(0, "f", f"{SITE}/{'m' * 80}.js", 1, 2)
    label = frame_text(long_name, script_names([long_name.location.url]))
    assert label == "#0 f " + "m" * 24 + "…[+35 chars]" + "m" * 21 + ".js:1:2"


def test_a_resume_that_stops_again_says_so_and_a_step_that_stops_is_just_its_pause() -> None:
    stopped = snapshot(AT_BREAKPOINT, console=(log("computed 45"),))
    assert paused_again_lines("resume", stopped) == [
        "Resumed, then paused again:",
        *BUNDLE,
        "Console since the last action: [log] computed 45",
    ]
    assert paused_again_lines("over", snapshot(AT_BREAKPOINT)) == BUNDLE


def test_running_on_says_what_was_done_and_what_the_page_logged() -> None:
    assert ran_on_lines("resume", busy=False, console=[log("greeted ada@example.test")]) == [
        "Resumed; execution ran on without pausing.",
        "Console since the last action: [log] greeted ada@example.test",
    ]
    assert ran_on_lines("over", busy=False, console=[]) == ["Stepped over; execution ran on without pausing."]
    assert ran_on_lines("out", busy=False, console=[log("Uncaught TypeError: uncaught failure", "error")]) == [
        "Stepped out; execution ran on without pausing.",
        "Console since the last action: [error] Uncaught TypeError: uncaught failure",
    ]


def test_a_script_still_running_after_the_wait_is_pointed_at_pause() -> None:
    assert ran_on_lines("into", busy=True, console=[]) == [
        "Stepped into; the page is still running a script (pause it with {tool:debugger_pause})."
    ]
    assert ran_on_lines("resume", busy=True, console=[log("a"), log("b")]) == [
        "Resumed; the page is still running a script (pause it with {tool:debugger_pause}).",
        "Console since the last action (2):",
        "  [log] a",
        "  [log] b",
    ]


def test_a_pause_requested_on_an_idle_page_says_how_to_reach_it() -> None:
    assert pause_pending_line(200) == (
        "Pause requested; no script ran within 200 ms. Execution pauses at the next statement the page runs "
        "(an event handler, a timer): trigger one, e.g. with {tool:click_element}."
    )


def test_a_mapped_pause_shows_the_original_place_line_and_frames() -> None:
    cart = OriginalPlace("src/cart.ts", f"{SITE}/src/cart.ts", 20, 5)
    top = replace(GREETING, location=replace(GREETING.location, url=f"{SITE}/dist/app.js", original=cart))
    pause = Pause(2, "breakpoint bp1", None, (top, CALLER), after_step=False)
    lines = pause_bundle_lines(snapshot(pause, source="subtotal += item.price;"))
    assert lines[:4] == [
        "Paused (breakpoint bp1) at src/cart.ts:20:5 (dist/app.js:2:22)",
        "  20 | subtotal += item.price;",
        "Stack (0 = top):",
        "  #0 greeting src/cart.ts:20:5",
    ]


def test_async_frames_show_as_one_line_after_the_stack_the_rest_counted() -> None:
    main = OriginalPlace("src/main.ts", f"{SITE}/src/main.ts", 22, 23)
    on_price = AsyncFrame("onPrice", Location("s2", f"{SITE}/dist/app.js", 40, 5, main))
    listener = AsyncFrame("", Location("s2", f"{SITE}/dist/app.js", 52, 9))
    awaited = AsyncSegment("await", (on_price, listener))
    pause = replace(AT_BREAKPOINT, async_segments=(awaited, AsyncSegment("setTimeout", (listener,))))
    assert pause_bundle_lines(snapshot(pause, variables=())) == [
        *BUNDLE[:-1],
        "  -- await -- onPrice src/main.ts:22:23 …2 more async frames: {tool:debugger_get_call_stack}",
    ]
    alone = replace(AT_BREAKPOINT, async_segments=(AsyncSegment("setTimeout", (listener,)),))
    assert pause_bundle_lines(snapshot(alone, variables=()))[-1] == "  -- setTimeout -- (anonymous) app.js:52:9"
    cut = replace(alone, async_cut=True)
    assert pause_bundle_lines(snapshot(cut, variables=()))[-1] == (
        "  -- setTimeout -- (anonymous) app.js:52:9 …at least 1 more async frame: {tool:debugger_get_call_stack}"
    )
    assert "-- setTimeout --" not in "\n".join(pause_bundle_lines(snapshot(alone, full=False)))


MINIFIED = f"{SITE}/esbuild-minified/app.js"
CART = OriginalPlace("app/src/cart.ts", f"{SITE}/app/src/cart.ts", 20, 22)
MAIN = OriginalPlace("app/src/main.ts", f"{SITE}/app/src/main.ts", 13, 20)


def test_minified_frames_and_locals_go_by_their_original_names_the_generated_ones_beside() -> None:
    total = Frame(0, "s", Location("3", MINIFIED, 1, 340, CART), None, "cf0", (), original_name="total")
    on_add = Frame(1, "l", Location("3", MINIFIED, 1, 513, MAIN), None, "cf1", (), original_name="onAdd")
    renamed = (
        Variable("m", '{sku: "A-1", price: 250, quantity: 1}', original_name="item"),
        Variable("t", "Array(1) [Object]", original_name="items"),
        Variable("e", "250", changed=True, original_name="subtotal"),
        Variable("kept", "1"),
    )
    pause = Pause(3, "step", None, (total, on_add), after_step=True)
    assert pause_bundle_lines(snapshot(pause, source="subtotal += item.price * item.quantity;", variables=renamed)) == [
        "Paused (step) at app/src/cart.ts:20:22 (esbuild-minified/app.js:1:340)",
        "  20 | subtotal += item.price * item.quantity;",
        "Stack (0 = top):",
        "  #0 total app/src/cart.ts:20:22",
        "  #1 onAdd app/src/main.ts:13:20",
        'Locals (#0): item (m) = {sku: "A-1", price: 250, quantity: 1}, items (t) = Array(1) [Object], '
        "subtotal (e) = 250 [CHANGED], kept = 1",
    ]


def test_a_pause_in_a_script_whose_map_failed_says_why_it_shows_generated_lines() -> None:
    failed = PauseSnapshot(
        AT_BREAKPOINT,
        "x();",
        False,
        (),
        (),
        map_failure="source map http://x/app.js.map: could not be loaded (HTTP 404)",
    )
    assert pause_bundle_lines(failed)[2] == (
        "Its source map could not be used, so this is the generated script: source map http://x/app.js.map: "
        "could not be loaded (HTTP 404)"
    )


def test_a_stack_through_two_files_of_one_name_names_each_by_its_folder() -> None:
    top = frame(0, "utilB", f"{SITE}/b/util.js", 2, 11)
    caller = frame(1, "utilA", f"{SITE}/a/util.js", 3, 19)
    alone = frame(2, "main", f"{SITE}/static/app.js", 5, 1)
    pause = Pause(8, "breakpoint bp1", None, (top, caller, alone), after_step=False)
    assert pause_bundle_lines(snapshot(pause, source="return 2;", variables=()))[2:] == [
        "Stack (0 = top):",
        "  #0 utilB b/util.js:2:11",
        "  #1 utilA a/util.js:3:19",
        "  #2 main app.js:5:1",
    ]


def test_script_names_are_the_shortest_path_ends_that_differ() -> None:
    urls = [f"{SITE}/x/a/util.js", f"{SITE}/y/a/util.js", f"{SITE}/b/util.js", f"{SITE}/util.js", f"{SITE}/main.js"]
    assert script_names(urls) == {
        urls[0]: "x/a/util.js",
        urls[1]: "y/a/util.js",
        urls[2]: "b/util.js",
        urls[3]: "util.js",
        urls[4]: "main.js",
    }
    same_path = [f"{SITE}/app.js?v=1", f"{SITE}/app.js?v=2", f"{SITE}/debug/"]
    assert script_names([*same_path, ""]) == {
        same_path[0]: same_path[0],
        same_path[1]: same_path[1],
        same_path[2]: "debug",
        "": "(anonymous script)",
    }


def test_an_evaluation_shows_the_bundle_names_it_ran_with() -> None:
    plain = FrameExpression("count + 1", "count + 1")
    assert evaluated_answer(plain, "3") == "3"
    renamed = FrameExpression("items", "t", (("items", "t"),))
    assert evaluated_answer(renamed, "[]") == "items (t in the bundle) = []"
    both = FrameExpression("items.length + subtotal", "t.length + e", (("items", "t"), ("subtotal", "e")))
    assert evaluated_answer(both, "251") == "items.length + subtotal (t.length + e in the bundle) = 251"
    long = FrameExpression("items.map((item) =>\n item.price)" + " + 1" * 30, "t.map((item) => item.price)")
    assert evaluated_answer(replace(long, renamed=(("items", "t"),)), "[250]") == (
        "items.map((item) => item…[+104 chars]+ 1 + 1 + 1 + 1 + 1 + 1 (t.map((item) => item.price) in the bundle) "
        "= [250]"
    )
