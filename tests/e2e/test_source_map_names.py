"""Original names in source-mapped code, through the real server in both modes: a pause in
the minified bundle names its functions and variables as the TypeScript does (the generated
names beside them), and in the plain bundle a parameter esbuild renamed shows under its own
name, while names it kept stay as they are."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.bundle_site import BUNDLE_PAGES, ts_line

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = BUNDLE_PAGES
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
