"""The call stack answer on hand-built frames: source lines, scopes innermost first, the
global ones summarised, and frames beyond the limit counted."""

from __future__ import annotations

from cdpilot.answers.call_stack import call_stack_lines, scope_line
from cdpilot.browser.debugger.debugger_facts import (
    CallStack,
    Frame,
    FrameDetail,
    Location,
    Pause,
    Scope,
    ScopeVariables,
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
        "…1 more frames: raise max_frames.",
    ]


def test_a_long_source_line_is_cut_and_a_lost_one_left_out() -> None:
    frame = Frame(0, "f", Location("9", APP, 1, 1), None, "cf0", ())
    stack = CallStack(
        Pause(1, "pause requested", None, (frame,), after_step=False),
        (FrameDetail(frame, "x" * 150, ()),),
    )
    assert call_stack_lines(stack) == [
        "Paused (pause requested); 1 frames (0 = top):",
        "#0 f app.js:1:1",
        "  1 | " + "x" * 88 + "…[+62 chars]",
    ]
    lost = CallStack(stack.pause, (FrameDetail(frame, "", ()),))
    assert call_stack_lines(lost) == ["Paused (pause requested); 1 frames (0 = top):", "#0 f app.js:1:1"]


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
        "Paused (step); 1 frames (0 = top):",
        f"#0 total src/cart.ts:20:5 ({APP}:33:20)",
        "  20 | subtotal += 1;",
    ]
