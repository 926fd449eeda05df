"""The call stack answer on hand-built frames: source lines, scopes innermost first, the
global ones summarised, frames beyond the limit counted, and the async boundaries after them."""

from __future__ import annotations

from cdpilot.answers.call_stack_answers import call_stack_lines, scope_line
from cdpilot.browser.debugger.debugger_facts import (
    AsyncFrame,
    AsyncSegment,
    CallStack,
    Frame,
    FrameDetail,
    Location,
    Pause,
    Scope,
    ScopeVariables,
    ThrownAt,
    Variable,
)
from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace

APP = "http://127.0.0.1:8000/static/app.js"
SCRIPT = Scope("script", "", "o-script", "Object")
GLOBAL = Scope("global", "", "o-global", "Window")


def read(scope: Scope, *variables: tuple[str, str], total: int | None = None) -> ScopeVariables:
    shown = tuple(Variable(name, value) for name, value in variables)
    return ScopeVariables(scope, shown, len(shown) if total is None else total)


def globals_read() -> tuple[ScopeVariables, ...]:
    return (ScopeVariables(SCRIPT, (), 0), ScopeVariables(GLOBAL, (), 0))


INCREMENT_SCOPES = (Scope("local", "increment", "o1", "Object"), Scope("closure", "makeCounter", "o2", "Object"))
INCREMENT = Frame(0, "increment", Location("7", APP, 15, 5), None, "cf0", (*INCREMENT_SCOPES, SCRIPT, GLOBAL))
HANDLER = Frame(1, "", Location("7", APP, 70, 62), None, "cf1", (Scope("local", "", "o3", "Object"), SCRIPT, GLOBAL))
PAUSE = Pause(4, "breakpoint bp4", None, (INCREMENT, HANDLER), after_step=False)


def test_every_frame_with_its_line_and_scopes() -> None:
    stack = CallStack(
        PAUSE,
        (
            FrameDetail(
                INCREMENT,
                "count += step;                             // @closure-body",
                (read(INCREMENT_SCOPES[0], ("step", "2")), read(INCREMENT_SCOPES[1], ("count", "0")), *globals_read()),
            ),
            FrameDetail(
                HANDLER,
                'document.getElementById("result").textContent = "count " + counter(2);',
                (read(HANDLER.scopes[0]), *globals_read()),
            ),
        ),
    )
    assert call_stack_lines(stack) == [
        "Paused (breakpoint bp4); 2 frames (0 = top):",
        "#0 increment app.js:15:5",
        "  15 | count += step; // @closure-body",
        "  local increment: step = 2",
        "  closure makeCounter: count = 0",
        "  script: Object (not listed)",
        "  global: Window (not listed)",
        "#1 (anonymous) app.js:70:62",
        '  70 | document.getElementById("result").textContent = "count " + counter(2);',
        "  local: (empty)",
        "  script: Object (not listed)",
        "  global: Window (not listed)",
    ]


def test_frames_and_variables_beyond_the_limits_are_counted() -> None:
    local = Scope("local", "square", "o1", "Object")
    square = Frame(0, "square", Location("7", APP, 22, 18), None, "cf0", (local, SCRIPT, GLOBAL))
    caller = Frame(1, "compute", Location("7", APP, 28, 19), None, "cf1", ())
    stack = CallStack(
        Pause(2, "step", None, (square, caller), after_step=True),
        (FrameDetail(square, "const result = x * x;    // @square-body", (read(local, ("x", "3"), total=2),)),),
    )
    assert call_stack_lines(stack) == [
        "Paused (step); 2 frames (0 = top):",
        "#0 square app.js:22:18",
        "  22 | const result = x * x; // @square-body",
        "  local square: x = 3, …1 more",
        "…1 more frame from #1: raise {param:debugger_get_call_stack.max_frames}.",
        "A scope lists its first variables; read others by name: {tool:debugger_evaluate_on_call_frame}.",
    ]


def test_a_long_source_line_is_cut_and_a_lost_one_left_out() -> None:
    frame = Frame(0, "f", Location("9", APP, 1, 1), None, "cf0", ())
    stack = CallStack(
        Pause(1, "pause requested", None, (frame,), after_step=False),
        (FrameDetail(frame, "x" * 150, ()),),
    )
    assert call_stack_lines(stack) == [
        "Paused (pause requested); 1 frame (0 = top):",
        "#0 f app.js:1:1",
        "  1 | " + "x" * 88 + "…[+62 chars]",
    ]
    lost = CallStack(stack.pause, (FrameDetail(frame, "", ()),))
    assert call_stack_lines(lost) == ["Paused (pause requested); 1 frame (0 = top):", "#0 f app.js:1:1"]


def test_a_global_scope_without_a_description_is_named_by_its_kind() -> None:
    assert scope_line(ScopeVariables(Scope("global", "", None, ""), (), 0)) == "  global: global (not listed)"
    assert scope_line(read(Scope("block", "", "o", "Object"), ("i", "4"), ("total", "6"))) == (
        "  block: i = 4, total = 6"
    )


def test_a_mapped_frame_shows_the_original_place_then_the_generated_one() -> None:
    cart = OriginalPlace("src/cart.ts", "http://127.0.0.1:8000/src/cart.ts", 20, 5)
    mapped = Frame(0, "total", Location("7", APP, 33, 20, cart), None, "cf0", ())
    stack = CallStack(Pause(5, "step", None, (mapped,), after_step=True), (FrameDetail(mapped, "subtotal += 1;", ()),))
    assert call_stack_lines(stack) == [
        "Paused (step); 1 frame (0 = top):",
        f"#0 total src/cart.ts:20:5 ({APP}:33:20)",
        "  20 | subtotal += 1;",
    ]


MAIN = OriginalPlace("app/src/main.ts", "http://127.0.0.1:8000/app/src/main.ts", 22, 23)
BUNDLE = "http://127.0.0.1:8000/dist/app.js"


def async_frame(name: str, line: int, original: OriginalPlace | None = None) -> AsyncFrame:
    return AsyncFrame(name, Location("8", BUNDLE, line, 5, original))


def with_async(*segments: AsyncSegment, cut: bool = False) -> CallStack:
    top = Frame(0, "loadPrice", Location("8", BUNDLE, 19, 17), None, "cf0", ())
    pause = Pause(3, "breakpoint bp1", None, (top,), after_step=False, async_segments=segments, async_cut=cut)
    return CallStack(pause, (FrameDetail(top, "", ()),))


def test_async_boundaries_follow_the_frames_each_with_the_frames_that_scheduled_the_work() -> None:
    awaited = AsyncSegment("await", (async_frame("onPrice", 40, MAIN), async_frame("", 52)))
    timer = AsyncSegment("setTimeout", (async_frame("schedule", 60),))
    assert call_stack_lines(with_async(awaited, timer)) == [
        "Paused (breakpoint bp1); 1 frame (0 = top):",
        "#0 loadPrice app.js:19:17",
        "-- await --",
        "  at onPrice app/src/main.ts:22:23",
        "  at (anonymous) app.js:52:5",
        "-- setTimeout --",
        "  at schedule app.js:60:5",
    ]


def test_async_segments_and_their_frames_beyond_the_limits_are_counted() -> None:
    deep = AsyncSegment("Promise.then", tuple(async_frame(f"f{i}", i) for i in range(1, 8)))
    lines = call_stack_lines(with_async(*[deep] * 5))
    assert lines[2:10] == [
        "-- Promise.then --",
        "  at f1 app.js:1:5",
        "  at f2 app.js:2:5",
        "  at f3 app.js:3:5",
        "  at f4 app.js:4:5",
        "  at f5 app.js:5:5",
        "  …2 more frames",
        "-- Promise.then --",
    ]
    assert len(lines) == 2 + 3 * 7 + 1
    assert lines[-1] == "…2 more async segments (not shown)"


def test_a_chain_the_browser_sent_only_part_of_says_there_is_more() -> None:
    awaited = AsyncSegment("await", (async_frame("onPrice", 40, MAIN),))
    assert call_stack_lines(with_async(awaited, cut=True))[2:] == [
        "-- await --",
        "  at onPrice app/src/main.ts:22:23",
        "…at least 1 more async segment (not shown)",
    ]
    assert call_stack_lines(with_async(*[awaited] * 4, cut=True))[-1] == "…at least 2 more async segments (not shown)"


def test_a_boundary_the_page_named_itself_is_cut_to_a_label() -> None:
    named = AsyncSegment("task " + "x" * 100, (async_frame("run", 3),))
    assert call_stack_lines(with_async(named))[2:] == [
        "-- task " + "x" * 43 + "…[+57 chars] --",
        "  at run app.js:3:5",
    ]


def test_renamed_functions_and_variables_show_the_original_names_then_the_generated_ones() -> None:
    minified = "http://127.0.0.1:8000/esbuild-minified/app.js"
    cart = OriginalPlace("app/src/cart.ts", "http://127.0.0.1:8000/app/src/cart.ts", 20, 22)
    block = Scope("block", "s", "o1", "Object", original_name="total")
    local = Scope("local", "s", "o2", "Object", original_name="total")
    closure = Scope("closure", "c", "o3", "Object", original_name="makeCart")
    chain = (block, local, closure, GLOBAL)
    total = Frame(0, "s", Location("3", minified, 1, 340, cart), None, "cf0", chain, original_name="total")
    glue = Frame(1, "r", Location("3", minified, 1, 900), None, "cf1", (), original_name="run")  # no map covers it
    plain = Frame(2, "main", Location("9", APP, 3, 1), None, "cf2", ())
    scopes = (
        ScopeVariables(block, (Variable("m", '{sku: "A-1"}', original_name="item"),), 1),
        ScopeVariables(
            local, (Variable("t", "Array(1)", original_name="items"), Variable("e", "0", original_name="subtotal")), 2
        ),
        ScopeVariables(closure, (Variable("i", "function i(t,e)", original_name="addItem"), Variable("n", "1")), 2),
        ScopeVariables(GLOBAL, (), 0),
    )
    stack = CallStack(
        Pause(6, "breakpoint bp1", None, (total, glue, plain), after_step=False),
        (FrameDetail(total, "subtotal += item.price;", scopes), FrameDetail(glue, "", ()), FrameDetail(plain, "", ())),
    )
    assert call_stack_lines(stack) == [
        "Paused (breakpoint bp1); 3 frames (0 = top):",
        f"#0 total app/src/cart.ts:20:22 (s at {minified}:1:340)",
        "  20 | subtotal += item.price;",
        '  block total: item (m) = {sku: "A-1"}',
        "  local total: items (t) = Array(1), subtotal (e) = 0",
        "  closure makeCart: addItem (i) = function i(t,e), n = 1",
        "  global: Window (not listed)",
        "#1 run esbuild-minified/app.js:1:900 (r)",  # two app.js: each named by enough of its path
        "#2 main static/app.js:3:1",
    ]


def test_two_scripts_of_one_name_are_told_apart_in_the_frames_and_the_async_frames() -> None:
    a, b = "http://127.0.0.1:8000/lib/a/util.js", "http://127.0.0.1:8000/lib/b/util.js"
    inner = Frame(0, "utilB", Location("2", b, 2, 11), None, "cf0", ())
    outer = Frame(1, "utilA", Location("1", a, 3, 19), None, "cf1", ())
    scheduled = AsyncSegment("setTimeout", (AsyncFrame("start", Location("1", a, 9, 3)),))
    pause = Pause(7, "breakpoint bp1", None, (inner, outer), after_step=False, async_segments=(scheduled,))
    stack = CallStack(pause, (FrameDetail(inner, "", ()), FrameDetail(outer, "", ())))
    assert call_stack_lines(stack) == [
        "Paused (breakpoint bp1); 2 frames (0 = top):",
        "#0 utilB b/util.js:2:11",
        "#1 utilA a/util.js:3:19",
        "-- setTimeout --",
        "  at start a/util.js:9:3",
    ]


DEPS = "http://127.0.0.1:5173/.vite/deps/react-dom_client.js?v=1"


def library_frame(index: int, name: str) -> Frame:
    return Frame(index, name, Location("9", DEPS, 100 + index, 5), None, f"cf{index}", (SCRIPT, GLOBAL))


def test_library_frames_fold_into_one_line_and_every_frame_of_the_app_is_shown() -> None:
    top = Frame(0, "increment", Location("7", APP, 15, 5), None, "cf0", ())
    handler = Frame(3, "handleAdd", Location("7", APP, 30, 3), None, "cf3", ())
    frames = (top, library_frame(1, "executeDispatch"), library_frame(2, "runWithFiberInDEV"), handler)
    pause = Pause(4, "breakpoint bp4", None, frames, after_step=False)
    stack = CallStack(pause, (FrameDetail(top, "count += step;", ()), FrameDetail(handler, "add();", ())))
    assert call_stack_lines(stack) == [
        "Paused (breakpoint bp4); 4 frames (0 = top):",
        "#0 increment app.js:15:5",
        "  15 | count += step;",
        "#1–#2 … 2 library frames (react-dom_client): executeDispatch, runWithFiberInDEV",
        "#3 handleAdd app.js:30:3",
        "  30 | add();",
    ]


def test_variables_share_one_budget_and_a_scope_seen_already_is_not_listed_again() -> None:
    module = Scope("module", "", "o-module", "Object")
    values = tuple((f"name{i}", "x" * 60) for i in range(40))
    top = Frame(0, "inner", Location("7", APP, 1, 1), None, "cf0", (module,))
    outer = Frame(1, "outer", Location("7", APP, 2, 1), None, "cf1", (module,))
    stack = CallStack(
        Pause(1, "step", None, (top, outer), after_step=True),
        (FrameDetail(top, "", (read(module, *values),)), FrameDetail(outer, "", (read(module, *values),))),
    )
    lines = call_stack_lines(stack)
    assert lines[4] == "  module: as in #0", lines
    assert lines[2].startswith("  module: name0 = ") and lines[2].endswith(" more"), lines
    assert len("\n".join(lines)) < 1800, lines
    assert lines[-1].startswith("A scope lists its first variables"), lines


def test_an_exception_pause_names_the_value_and_one_in_library_code_where_the_app_made_it() -> None:
    top = library_frame(0, "logError")
    made = AsyncFrame("handleCheckout", Location("7", APP, 21, 9))
    pause = Pause(2, "uncaught exception", "Error: checkout failed", (top,), after_step=False)
    stack = CallStack(
        pause, (FrameDetail(top, "throw err;", ()),), ThrownAt(made, 'throw new Error("checkout failed");')
    )
    assert call_stack_lines(stack)[:4] == [
        "Paused (uncaught exception): Error: checkout failed; 1 frame (0 = top):",
        "The pause is in library code, logError (react-dom_client); the Error was made in your code at "
        "handleCheckout app.js:21:9:",
        '  21 | throw new Error("checkout failed");',
        "#0 logError react-dom_client.js:100:5",
    ]


def test_library_runs_of_an_async_segment_fold_too() -> None:
    segment = AsyncSegment(
        "await",
        (
            AsyncFrame("onClick", Location("7", APP, 37, 49)),
            *[AsyncFrame(f"lib{i}", Location("9", DEPS, i, 1)) for i in range(4)],
        ),
    )
    pause = Pause(3, "step", None, (INCREMENT,), after_step=True, async_segments=(segment,))
    assert call_stack_lines(CallStack(pause, (FrameDetail(INCREMENT, "", ()),)))[-3:] == [
        "-- await --",
        "  at onClick app.js:37:49",
        "  … 4 library frames (react-dom_client): lib0, lib1, lib2, …",
    ]
