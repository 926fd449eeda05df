"""The breakpoint kinds DevTools users expect, through the real server in both modes:
logpoints, hit counts, functions by name, XHR/fetch, event listeners and timers, DOM changes,
and scripts of one file name in two folders: bound in both and named apart, in answers, in
stacks, and after reloads and a closed iframe (only the scripts still loaded)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.harness import ModeClient
from tests.support.bundle_site import BUNDLE_PAGES, ts_line
from tests.support.debug_site import DEBUG_PAGES, TWIN_PAGES
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {**SITE, **DEBUG_PAGES, **BUNDLE_PAGES, **TWIN_PAGES}
TWIN_PLACES = ["a/util.js:2:17", "b/util.js:2:15"]  # where line 2 of each first breaks
LOOP = ts_line("cart.ts", "cart-total-loop")


@pytest.fixture
async def cart(client: ModeClient, site_url: str) -> AsyncIterator[ModeClient]:
    """The bundled cart app loaded with the debugger on; turned off afterwards (which resumes)."""
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    await client.ok("debugger_enable")
    yield client
    await client.ok("debugger_disable")


async def test_a_logpoint_logs_and_does_not_pause(cart: ModeClient) -> None:
    text = await cart.ok(
        "debugger_set_breakpoint", url="cart.ts", line_number=LOOP, log_message="subtotal is {subtotal}"
    )
    assert 'logs "subtotal is {subtotal}" (no pause)' in text, text
    clicked = await cart.ok("click_element", selector="#add")
    assert "Paused" not in clicked and "[log] subtotal is 0" in clicked, clicked


async def test_a_hit_count_pauses_on_that_hit_only(cart: ModeClient) -> None:
    if await cart.refused_in_smart("debugger_set_breakpoint", url="cart.ts", line_number=LOOP, hit_count=2):
        return
    assert "on hit 2" in await cart.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP, hit_count=2)
    assert "Paused" not in await cart.ok("click_element", selector="#add")  # one item: hit 1
    paused = await cart.ok("click_element", selector="#add", include_context=True)  # hits 2 and 3
    assert f"Paused (breakpoint bp1) at app/src/cart.ts:{LOOP}:" in paused, paused
    assert "subtotal = 0" in paused, paused  # the first item of this run: hit 2, not 3


async def test_a_function_by_name(cart: ModeClient) -> None:
    text = await cart.ok("debugger_set_function_breakpoint", function_name="total")
    declared = ts_line("cart.ts", "cart-total-loop") - 3
    assert text.startswith(f"Found app/src/cart.ts:{declared}."), text
    paused = await cart.ok("click_element", selector="#add")
    assert f"at app/src/cart.ts:{declared + 1}:" in paused, paused
    kind, missing = await cart.error("debugger_set_function_breakpoint", function_name="noSuchThing")
    assert kind == "STATE" and "No function named 'noSuchThing'" in missing, missing


async def test_an_xhr_breakpoint_pauses_on_the_request(cart: ModeClient) -> None:
    assert 'on requests whose URL contains "/api/price"' in await cart.ok(
        "debugger_set_xhr_breakpoint", url_contains="/api/price"
    )
    paused = await cart.ok("click_element", selector="#price")
    assert "Paused (XHR/fetch breakpoint bp1: http://127.0.0.1:" in paused and "/api/price?sku=A-1" in paused, paused
    assert f"app/src/api.ts:{ts_line('api.ts', 'api-fetch')}:" in paused, paused


async def test_event_breakpoints_on_a_listener_and_on_a_timer(cart: ModeClient) -> None:
    await cart.ok("debugger_set_event_breakpoint", event_name="click")
    paused = await cart.ok("click_element", selector="#add", include_context=True)
    assert "Paused (event breakpoint bp1: click)" in paused and "onAdd" in paused, paused
    await cart.ok("debugger_remove_breakpoint", breakpoint_id="bp1")
    await cart.ok("debugger_resume")
    await cart.ok("debugger_set_event_breakpoint", event_name="setTimeout")
    listed = await cart.ok("debugger_list_breakpoints")
    assert listed == "1 breakpoint(s):\n- bp2 on event setTimeout", listed
    await cart.ok("click_element", selector="#price")  # the timer is set once the fetch answers
    assert "Paused (event breakpoint bp2: setTimeout)" in await cart.stack_once_paused()


async def test_a_dom_breakpoint_pauses_where_the_element_changes(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/debug")
    await client.ok("debugger_enable")
    text = await client.ok("debugger_set_dom_breakpoint", selector="#result", dom_change="subtree_modified")
    assert text.startswith("Breakpoint bp1 on subtree modified of #result."), text
    paused = await client.ok("click_element", selector="#compute", include_context=True)
    assert "Paused (DOM breakpoint bp1: subtree modified)" in paused and "#0 compute" in paused, paused
    kind, error = await client.error("debugger_set_dom_breakpoint", selector="#nope", dom_change="node_removed")
    assert kind == "STATE" and "No element matches '#nope'" in error, error
    await client.ok("debugger_disable")


async def test_a_name_that_matches_two_scripts_binds_in_both_and_says_so(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/two-utils/")
    await client.ok("debugger_enable")
    text = await client.ok("debugger_set_breakpoint", url="util.js", line_number=2)
    assert resolved_in(text) == ["a/util.js:2:3", "b/util.js:2:3"], text
    assert "It matches 2 scripts, and is bound in each:" in text, text
    paused = await client.ok("evaluate_js", expression="window.utilB()")
    assert "Paused (breakpoint bp1) at http://127.0.0.1:" in paused and "/b/util.js:2:" in paused, paused
    await client.ok("debugger_disable")


def resolved_in(text: str) -> list[str]:
    """The places listed after "resolved in" on a breakpoint's line, sorted:
    ``… resolved in b/util.js:2:15 and a/util.js:2:17.`` → ``["a/util.js:2:17", "b/util.js:2:15"]``."""
    places = text.split("resolved in ", 1)[1].split("\n", 1)[0].removesuffix(".")
    return sorted(places.replace(" and ", ", ").split(", "))


async def test_a_regex_breakpoint_in_two_files_of_one_name_names_both(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/twins")
    await client.ok("debugger_enable")
    text = await client.ok("debugger_set_breakpoint", url_regex=r"/util\.js$", line_number=2)
    assert text.startswith(r"Breakpoint bp1 at //util\.js$/:2, resolved in "), text
    assert resolved_in(text) == TWIN_PLACES, text
    await client.ok("debugger_disable")


async def test_reloads_and_a_closed_frame_leave_only_the_live_places(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/twins/framed")
    await client.ok("debugger_enable")
    await client.ok("debugger_set_breakpoint", url_regex=r"/util\.js$", line_number=2)
    for _ in range(3):
        await client.ok("reload")
    listed = await client.ok("debugger_list_breakpoints")
    assert resolved_in(listed) == sorted(TWIN_PLACES * 2), listed  # the page's two scripts and the frame's, no more
    await client.ok("evaluate_js", expression="document.querySelector('iframe').remove()")
    listed = await client.ok("debugger_list_breakpoints")
    assert resolved_in(listed) == TWIN_PLACES, listed
    await client.ok("debugger_disable")


async def test_a_stack_through_both_files_of_one_name_labels_them_apart(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/twins")
    await client.ok("debugger_enable")
    text = await client.ok("debugger_set_breakpoint", url="b/util.js", line_number=2)
    assert resolved_in(text) == ["util.js:2:15"], text  # one script bound: its file name is enough
    paused = await client.ok("evaluate_js", expression="utilA()")
    assert "/twins/b/util.js:2:15" in paused, paused
    stack = await client.ok("debugger_get_call_stack")
    assert "#0 utilB b/util.js:2:15" in stack and "#1 utilA a/util.js:2:17" in stack, stack
    await client.ok("debugger_disable")
