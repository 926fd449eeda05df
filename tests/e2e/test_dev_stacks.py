"""Stacks of pauses in real dev apps, through the real server in both modes: a pause under
React's frames lists every frame of the app's code with its line and folds the library ones,
within a few thousand characters; a pause on an uncaught Error of an async handler names it in
every answer, with the awaiting caller behind it; and one that Vue catches and throws again,
so that the pause is in Vue's code, points at the line of the app that threw."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.devservers import APP_READY_MS, DevServer, dev_server_fixture, marker_line, marker_text, save, source

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

vite_react_dev = dev_server_fixture("vite-react")
vue_dev = dev_server_fixture("vue")

CART = source("vite-react", "src/cart.ts")
UI = source("vite-react", "src/Cart.tsx")
APP = source("vue", "src/App.vue")
STACK_CHARS = 3000


async def test_a_pause_under_react_frames_lists_every_frame_of_the_app_and_folds_the_library_ones(
    debugging: ModeClient, vite_react_dev: DevServer
) -> None:
    client = debugging
    await client.ok("navigate", url=vite_react_dev.url + "/")
    await client.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    loop = marker_line(CART, "cart-subtotal-loop")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=loop)
    paused = await client.ok("click_element", selector="#add", include_context=True)
    assert "#2 handleAdd Cart.tsx:" in paused, paused  # the bundle's frames are the app's
    assert "library frames (react-dom): executeDispatch, runWithFiberInDEV, " in paused, paused
    for max_frames in (None, 2) if client.mode == "legacy" else (None,):  # smart leaves max_frames to legacy
        asked = {} if max_frames is None else {"max_frames": max_frames}
        stack = await client.ok("debugger_get_call_stack", **asked)
        assert len(stack) <= STACK_CHARS and "Answer cut" not in stack, f"{len(stack)} characters:\n{stack}"
        assert f"#0 subtotal cart.ts:{loop}:" in stack, stack
        assert f"{loop} | {marker_text(CART, 'cart-subtotal-loop')}" in stack, stack
        total = marker_line(CART, "cart-total-log")
        assert f"#1 total cart.ts:{total}:" in stack and f"\n  {total} | const amount = " in stack, stack
        handle = marker_line(UI, "ui-handle-add-total")
        assert f"#2 handleAdd Cart.tsx:{handle}:" in stack, stack
        assert f"\n  {handle} | {marker_text(UI, 'ui-handle-add-total')}" in stack, stack
        assert "… 8 library frames (react-dom): executeDispatch, runWithFiberInDEV, " in stack, stack
        assert "#3 executeDispatch" not in stack and "tighter selector" not in stack, stack
    await client.ok("debugger_resume")


async def test_an_uncaught_error_of_an_async_react_handler_is_named_with_its_awaiting_caller(
    debugging: ModeClient, vite_react_dev: DevServer
) -> None:
    client = debugging
    await client.ok("navigate", url=vite_react_dev.url + "/")
    await client.ok("wait_for", selector="#checkout", timeout_ms=APP_READY_MS)
    await client.ok("debugger_set_pause_on_exceptions", state="uncaught")
    await client.ok("click_element", selector="#checkout")  # pauses once its await is over
    stack = await client.stack_once_paused()
    thrown = marker_line(UI, "ui-checkout-throw")
    assert stack.startswith("Paused (uncaught promise rejection): Error: checkout failed; "), stack
    assert f"#0 handleCheckout Cart.tsx:{thrown}:" in stack, stack
    assert "-- await --\n  at onClick Cart.tsx:" in stack, stack  # what called and left it awaiting
    assert len(stack) <= STACK_CHARS, stack
    await client.ok("debugger_set_pause_on_exceptions", state="none")
    await client.ok("debugger_resume")


async def test_an_error_vue_throws_again_points_at_the_line_of_the_app_that_made_it(
    debugging: ModeClient, vue_dev: DevServer
) -> None:
    client = debugging
    app = vue_dev.root / "src" / "App.vue"  # a button whose handler's promise Vue awaits: Vue throws it again
    direct = '<button id="checkout-in-vue" @click="handleCheckout">Checkout in Vue</button>'
    save(app, app.read_text().replace("</main>", f"  {direct}\n  </main>"))
    await client.ok("navigate", url=vue_dev.url + "/")
    await client.ok("wait_for", selector="#checkout-in-vue", timeout_ms=APP_READY_MS)
    await client.ok("debugger_set_pause_on_exceptions", state="uncaught")
    await client.ok("click_element", selector="#checkout-in-vue")
    stack = await client.stack_once_paused()
    thrown = marker_line(APP, "vue-checkout-throw")
    assert stack.startswith("Paused (uncaught promise rejection): Error: checkout failed; "), stack
    assert "The pause is in library code, logError (@vue/runtime-core); " in stack, stack
    assert f"the Error was made in your code at handleCheckout App.vue:{thrown}:" in stack, stack
    assert f"\n  {thrown} | {marker_text(APP, 'vue-checkout-throw')}" in stack, stack
    resumed = await client.ok("debugger_resume")
    assert "Resumed" in resumed, resumed
    await client.ok("debugger_set_pause_on_exceptions", state="none")
