"""Original names in source-mapped code, through the real server in both modes: a pause in
the minified bundle names its functions and variables as the TypeScript does (the generated
names beside them), and in the plain bundle a parameter esbuild renamed shows under its own
name, while names it kept stay as they are.

An expression evaluated in a paused frame may use those original names: each is replaced by
the bundle's name for it there, and the answer says so. The pages here also have elements
whose ids are the app's variable names, so that a name looked up as a global would answer
with an element (the window's named access) instead of failing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.harness import ModeClient
from tests.support.bundle_site import BUNDLE_PAGES, BUTTONS, ts_line
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

NAMED_ELEMENTS = '<span id="total">0</span><span id="items">none</span><span id="price">?</span>'
PAGES = {
    **BUNDLE_PAGES,
    **{
        f"/with-ids/{variant}/": (
            200,
            "text/html",
            html("Cart with ids", BUTTONS + NAMED_ELEMENTS + f'<script src="/{variant}/app.js"></script>'),
        )
        for variant in ("esbuild-minified", "esbuild-external")
    },
}
LOOP = ts_line("cart.ts", "cart-total-loop")
ON_ADD_CALL = ts_line("main.ts", "main-add-item") + 2  # const subtotal = total(items);


async def paused_in_total(client: ModeClient, site_url: str, variant: str) -> tuple[str, str, str]:
    """The pause bundle of a click that stops in cart.ts's `total`, the call stack, and the
    bundle of a step over from there (out of the loop)."""
    await client.ok("navigate", url=f"{site_url}/{variant}/")
    await client.ok("debugger_enable")
    await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    paused = await client.ok("click_element", selector="#add", include_context=True)
    stack = await client.ok("debugger_get_call_stack")
    stepped = await client.ok("debugger_step_over", include_context=True)
    await client.ok("debugger_resume")
    await client.ok("debugger_disable")
    return paused, stack, stepped


async def test_minified_frames_and_variables_read_as_the_typescript_does(client: ModeClient, site_url: str) -> None:
    paused, stack, stepped = await paused_in_total(client, site_url, "esbuild-minified")
    assert f"Paused (breakpoint bp1) at app/src/cart.ts:{LOOP}:" in paused, paused
    assert f"  #0 total app/src/cart.ts:{LOOP}:" in paused, paused
    assert f"  #1 onAdd app/src/main.ts:{ON_ADD_CALL}:" in paused, paused
    locals_line = next(line for line in paused.splitlines() if line.startswith("Locals (#0): "))
    assert 'item (m) = {sku: "A-1"' in locals_line, locals_line
    assert "items (t) = Array(1)" in locals_line and "subtotal (e) = 0" in locals_line, locals_line
    assert f"#0 total app/src/cart.ts:{LOOP}:" in stack and "(s at http://" in stack, stack
    assert f"#1 onAdd app/src/main.ts:{ON_ADD_CALL}:" in stack and "(l at http://" in stack, stack
    assert '  block total: item (m) = {sku: "A-1"' in stack, stack
    assert "  local total: items (t) = Array(1) [Object], subtotal (e) = 0" in stack, stack
    assert '  local onAdd: item (t) = {sku: "A-1"' in stack, stack  # the same `t` is another variable there
    closure = next(line for line in stack.splitlines() if line.startswith("  closure"))
    assert "total (s) = function s(t)" in closure and "items (r) = Array(1)" in closure, closure  # module scope
    assert "subtotal (e) = 250 [CHANGED]" in stepped and "items (t) = Array(1) [Object]," in stepped, stepped


async def test_a_bundler_renamed_parameter_shows_its_typescript_name(client: ModeClient, site_url: str) -> None:
    paused, stack, stepped = await paused_in_total(client, site_url, "esbuild-external")
    assert f"  #0 total app/src/cart.ts:{LOOP}:" in paused, paused
    locals_line = next(line for line in paused.splitlines() if line.startswith("Locals (#0): "))
    assert "items (items3) = Array(1)" in locals_line, locals_line
    assert "subtotal = 0" in locals_line and "total (total2) = (uninitialized)" in locals_line, locals_line
    assert "(s at " not in stack and "#0 total app/src/cart.ts" in stack, stack  # the name was kept: shown once
    assert "  local total: items (items3) = Array(1)" in stack, stack
    assert "subtotal = 250 [CHANGED]" in stepped and "items (items3) = Array(1) [Object]," in stepped, stepped


async def evaluate(client: ModeClient, expression: str, frame: int = 0) -> str:
    return await client.ok("debugger_evaluate_on_call_frame", call_frame_id=frame, expression=expression)


async def refused(client: ModeClient, expression: str) -> str:
    kind, text = await client.error("debugger_evaluate_on_call_frame", call_frame_id=0, expression=expression)
    assert kind == "STATE" and "span" not in text, text
    return text


@pytest.fixture
async def minified_total(client: ModeClient, site_url: str) -> AsyncIterator[ModeClient]:
    """Paused on the loop of cart.ts's `total` in the minified bundle, on a page with elements
    named total, items and price."""
    await client.ok("navigate", url=f"{site_url}/with-ids/esbuild-minified/")
    await client.ok("debugger_enable")
    await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    await client.ok("click_element", selector="#add")
    yield client
    await client.ok("debugger_disable")


async def test_original_names_evaluate_as_the_minified_variables_that_stand_for_them(
    minified_total: ModeClient,
) -> None:
    client = minified_total
    items = await evaluate(client, "items")
    assert items.startswith("items (t in the bundle) = [") and '"sku":"A-1"' in items, items  # the parameter
    total = await evaluate(client, "items.length + subtotal")
    assert total == "items.length + subtotal (t.length + e in the bundle) = 1", total
    assert (await evaluate(client, "item.sku")).startswith('item.sku (m.sku in the bundle) = "A-1"')
    assert await evaluate(client, "document.title") == '"Cart with ids"'  # a global: left as it is
    assert await evaluate(client, "t.length") == "1"  # the bundle's own name, as the answers show it beside items
    caller_items = await evaluate(client, "items", frame=1)  # onAdd's: main.ts's module-level items
    assert caller_items.startswith("items (o in the bundle) = [") and '"sku":"A-1"' in caller_items, caller_items


async def test_a_name_with_nothing_left_in_the_bundle_is_refused_not_read_from_the_page(
    minified_total: ModeClient,
) -> None:
    removed = await refused(minified_total, "total")  # the const total, inlined; `s` is the function total
    assert "total is declared in total (app/src/cart.ts), but the bundle kept no variable for it" in removed, removed
    named = await refused(minified_total, "price * 2")  # no price anywhere in cart.ts: only the element
    assert 'it would only reach the element with id "price"' in named, named


async def test_a_renamed_parameter_evaluates_as_itself_not_as_the_module_level_variable(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=f"{site_url}/with-ids/esbuild-external/")
    await client.ok("debugger_enable")
    await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=ts_line("cart.ts", "cart-add-push"))
    await client.ok("click_element", selector="#add")  # addItem(items, item) from onAdd: main.ts's empty list
    assert await evaluate(client, "items") == "items (items3 in the bundle) = []"
    assert await evaluate(client, "items.length", frame=1) == "items.length (items2.length in the bundle) = 0"
    assert await evaluate(client, "item.quantity") == "1"  # a name the bundle kept: nothing to say
    await client.ok("debugger_disable")
