"""Original names in real minified production builds, through the real server in both modes:
the Vite React app's ``vite build`` and webpack's production build with ``source-map``.

Minifiers rename a module's variables too (``items`` runs as one letter at the module's top
level, ``store`` as one letter in webpack's closure around the modules), and those letters
stand for other names in other functions of the same bundle. A pause in a function still
evaluates such a variable of an outer scope by its original name, and the call stack lists it
under that name. Async frames and the stacks of console errors name their functions as the
sources do, as the frames of the call stack do."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import anyio
import pytest

from tests.e2e.harness import ModeClient
from tests.support.devservers import APP_READY_MS, BuiltSite, built_site_fixture, marker_line, source

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


vite_react_build = built_site_fixture("vite-react")
webpack_build = built_site_fixture("webpack")

CART = source("vite-react", "src/cart.ts")
CART_UI = source("vite-react", "src/Cart.tsx")
PRICING = source("webpack", "src/pricing.ts")
BUNDLE_NAME = r"[A-Za-z_$][\w$]*"  # a letter or two, whichever the minifier chose


async def evaluate(client: ModeClient, expression: str, frame: int = 0) -> str:
    return await client.ok("debugger_evaluate_on_call_frame", call_frame_id=frame, expression=expression)


async def refused(client: ModeClient, expression: str) -> str:
    kind, text = await client.error("debugger_evaluate_on_call_frame", call_frame_id=0, expression=expression)
    assert kind == "STATE", text
    return text


@pytest.fixture
async def paused_in_add_item(debugging: ModeClient, vite_react_build: BuiltSite) -> AsyncIterator[ModeClient]:
    """Paused in cart.ts's addItem (the minified build's ``f.push(e)``, say), before the push."""
    client = debugging
    await client.ok("navigate", url=vite_react_build.url + "/")
    await client.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=marker_line(CART, "cart-add-push"))
    await client.ok("click_element", selector="#add")
    yield client
    await client.ok("debugger_resume")


async def test_a_module_variable_of_the_vite_build_evaluates_by_its_original_name(
    paused_in_add_item: ModeClient,
) -> None:
    client = paused_in_add_item
    items = await evaluate(client, "items")
    assert re.fullmatch(rf"items \({BUNDLE_NAME} in the bundle\) = \[\]", items), items
    length = await evaluate(client, "items.length + 1")
    assert re.fullmatch(rf"items.length \+ 1 \({BUNDLE_NAME}.length \+ 1 in the bundle\) = 1", length), length
    item = await evaluate(client, "item.sku")  # the parameter, as before
    assert re.fullmatch(rf'item.sku \({BUNDLE_NAME}.sku in the bundle\) = "sku-1"', item), item


async def test_the_vite_build_still_refuses_a_name_it_removed(paused_in_add_item: ModeClient) -> None:
    client = paused_in_add_item
    with_tax = await evaluate(client, "withTax(10)")  # a module-level function: kept, renamed
    assert re.fullmatch(rf"withTax\(10\) \({BUNDLE_NAME}\(10\) in the bundle\) = 12", with_tax), with_tax
    text = await refused(client, "lines()")  # exported, never imported: the build dropped it
    assert "lines has no variable at this pause in the bundle" in text and "removed" in text, text


@pytest.fixture
async def webpack_paused(debugging: ModeClient, webpack_build: BuiltSite) -> ModeClient:
    await debugging.ok("navigate", url=webpack_build.url + "/")
    await debugging.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    return debugging


async def test_a_closure_variable_of_the_webpack_build_evaluates_and_lists_by_its_original_name(
    webpack_paused: ModeClient,
) -> None:
    client = webpack_paused
    await client.ok("debugger_set_breakpoint", url="src/pricing.ts", line_number=marker_line(PRICING, "pricing-loop"))
    await client.ok("click_element", selector="#add")
    lines = await evaluate(client, "store.lines.length")
    assert re.fullmatch(rf"store.lines.length \({BUNDLE_NAME}.lines.length in the bundle\) = 1", lines), lines
    currency = await evaluate(client, "store.currency")
    assert currency.startswith("store.currency (") and currency.endswith(' = "EUR"'), currency
    stack = await client.ok("debugger_get_call_stack")
    closure = [line for line in stack.splitlines() if line.startswith("  closure")]
    assert any(re.search(rf"store \({BUNDLE_NAME}\) = \{{lines: Array\(1\)", line) for line in closure), stack
    assert any(re.search(rf"discount \({BUNDLE_NAME}\) = ", line) for line in closure), stack
    await client.ok("debugger_resume")


async def test_a_closure_variable_hidden_by_a_local_of_the_same_bundle_name_is_refused_naming_both(
    webpack_paused: ModeClient,
) -> None:
    """In the closure ``discounter`` returns, the minifier calls ``amount`` by the same letter as
    ``store`` around it, so ``store`` cannot be reached from there; and ``target`` is gone (the
    minifier put the 5 it was called with in its place)."""
    client = webpack_paused
    line = marker_line(PRICING, "pricing-closure")
    await client.ok("debugger_set_breakpoint", url="src/pricing.ts", line_number=line)
    await client.ok("click_element", selector="#add")
    amount = await evaluate(client, "amount")
    assert re.fullmatch(rf"amount \({BUNDLE_NAME} in the bundle\) = 2.5", amount), amount
    hidden = await refused(client, "store")
    assert re.search(rf"store is {BUNDLE_NAME} in the bundle's closure scope, but", hidden), hidden
    assert "amount" in hidden, hidden
    gone = await refused(client, "target")
    assert "target has no variable at this pause in the bundle" in gone, gone
    await client.ok("debugger_resume")


async def test_async_frames_of_the_vite_build_have_their_original_names(
    debugging: ModeClient, vite_react_build: BuiltSite
) -> None:
    """Paused in confirmOrder after its ``await``: handleCheckout (``a`` in the build) awaits
    it, a frame of the async stack."""
    client = debugging
    await client.ok("navigate", url=vite_react_build.url + "/")
    await client.ok("wait_for", selector="#checkout", timeout_ms=APP_READY_MS)
    returns = marker_line(CART_UI, "ui-confirm-await") + 1  # `return count;`, run after the await
    column = 10  # at `count`: the line's start is the `return await …` the build made of both lines
    await client.ok("debugger_set_breakpoint", url="src/Cart.tsx", line_number=returns, column_number=column)
    click = "document.getElementById('checkout').click(); new Promise((done) => setTimeout(done, 5000))"
    bundle = await client.ok("evaluate_js", expression=click)  # awaited (the default): paused before it is done
    awaits = marker_line(CART_UI, "ui-checkout-await")
    assert f"Paused (breakpoint bp1) at src/Cart.tsx:{returns}:{column}" in bundle, bundle
    if client.mode == "smart":  # the full bundle (legacy's is short)
        assert f"-- await -- handleCheckout src/Cart.tsx:{awaits}:" in bundle, bundle
    stack = await client.ok("debugger_get_call_stack")
    assert f"#0 confirmOrder src/Cart.tsx:{returns}:{column}" in stack, stack
    assert f"-- await --\n  at handleCheckout src/Cart.tsx:{awaits}:" in stack, stack
    await client.ok("debugger_remove_breakpoint", breakpoint_id="bp1")
    await client.ok("debugger_resume")


async def test_a_console_error_stack_of_the_vite_build_names_its_functions(
    debugging: ModeClient, vite_react_build: BuiltSite
) -> None:
    client = debugging
    await client.ok("navigate", url=vite_react_build.url + "/")
    await client.ok("click_element", selector="#checkout")  # its async handler throws, uncaught
    with anyio.fail_after(10):
        while True:
            logs = await client.ok("get_console_logs", filter_level="error", expand_errors=True)
            if "checkout failed" in logs:
                break
            await anyio.sleep(0.05)
    throws = marker_line(CART_UI, "ui-checkout-throw")
    assert f"at handleCheckout (src/Cart.tsx:{throws}:" in logs, logs
