"""Debugging a bundled TypeScript app in its original sources, through the real server, in
both modes: breakpoints on .ts files (set before the page loads too), pauses, stacks and
steps at TypeScript lines, finding code, partial script URLs, and broken maps."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.bundle_site import BUNDLE_PAGES, generated_line, ts_line, ts_text
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    **BUNDLE_PAGES,
    "/framed-bundle/": (
        200,
        "text/html",
        html("Bundle, framed too", '<script src="/esbuild-external/app.js"></script><iframe src="/esbuild-external/">'),
    ),
}
LOOP = ts_line("cart.ts", "cart-total-loop")


async def test_a_breakpoint_on_a_ts_file_set_before_the_page_loads_hits_at_the_ts_line(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    wire = ts_line("main.ts", "main-wire-add")
    text = await client.ok("debugger_set_breakpoint", url="src/main.ts", line_number=wire)
    assert "not resolved yet" in text, text  # no bundle is loaded yet
    text = await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    assert f"main.ts:{wire}:" in text and ts_text("main.ts", "main-wire-add") in text, text
    assert "(esbuild-external/app.js:" in text, text  # the generated place, one step away
    await client.ok("debugger_resume")


async def test_a_click_pauses_at_the_typescript_line_and_the_stack_shows_ts_files(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    text = await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    assert f"resolved in app/src/cart.ts:{LOOP}:" in text, text
    paused = await client.ok("click_element", selector="#add", include_context=True)
    assert f"Paused (breakpoint bp1) at app/src/cart.ts:{LOOP}:" in paused, paused
    assert f"{LOOP} | {ts_text('cart.ts', 'cart-total-loop')}" in paused, paused
    stack = await client.ok("debugger_get_call_stack")
    assert f"#0 total app/src/cart.ts:{LOOP}:" in stack, stack
    assert "#1 onAdd app/src/main.ts:" in stack, stack
    stepped = await client.ok("debugger_step_over")
    assert "Paused (step) at app/src/cart.ts:" in stepped, stepped
    listed = await client.ok("debugger_list_breakpoints")
    assert f"bp1 at cart.ts:{LOOP}, resolved in app/src/cart.ts:{LOOP}:" in listed, listed
    await client.ok("debugger_resume")


async def test_the_minified_bundle_pauses_at_the_typescript_line(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-minified/")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP)
    paused = await client.ok("click_element", selector="#add")
    assert f"at app/src/cart.ts:{LOOP}:" in paused and "(esbuild-minified/app.js:" in paused, paused
    await client.ok("debugger_resume")


@pytest.mark.parametrize("variant", ["esbuild-inline", "webpack", "index-map"])
async def test_every_bundler_variant_maps_the_pause(debugging: ModeClient, site_url: str, variant: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/{variant}/")
    await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    paused = await client.ok("click_element", selector="#add")
    assert f"cart.ts:{LOOP}:" in paused and ts_text("cart.ts", "cart-total-loop") in paused, paused
    await client.ok("debugger_resume")


async def test_a_breakpoint_by_the_end_of_a_script_url(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    for name in ("app.js", "esbuild-external/app.js", "/esbuild-external/app.js"):
        text = await client.ok("debugger_set_breakpoint", url=name, line_number=2)
        assert "resolved in app.js:2:" in text, (name, text)
        await client.ok("debugger_remove_breakpoint", breakpoint_id=text.split()[1].rstrip(","))
    text = await client.ok("debugger_set_breakpoint", url="pp.js", line_number=2)
    assert "not resolved yet" in text, text  # a suffix counts at a path boundary only


async def test_list_read_and_search_the_sources(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    listed = await client.ok("debugger_list_scripts")
    assert "esbuild-external/app.js  [map: 4 sources]" in listed, listed
    assert "  app/src/cart.ts" in listed and "tinylib/index.js (library)" in listed, listed
    assert "cdpilot" not in listed, listed
    assert "app/src/api.ts" not in await client.ok("debugger_list_scripts", filter="cart")
    read = await client.ok("debugger_read_source", source="cart.ts", start_line=LOOP, line_count=2)
    assert read.startswith(f"app/src/cart.ts (original source), lines {LOOP}–{LOOP + 1} of "), read
    assert f"{LOOP} | " + "    subtotal += item.price * item.quantity;" in read, read
    found = await client.ok("debugger_search_sources", query="SUBTOTAL")
    assert f"app/src/cart.ts:{LOOP}: subtotal += item.price * item.quantity;" in found, found
    assert found.index("app/src/cart.ts") < found.index("esbuild-external/app.js"), found  # originals first


async def test_a_bundle_in_a_page_and_its_frame_is_two_live_copies_not_a_hot_update(
    debugging: ModeClient, site_url: str
) -> None:
    """The same bundle run by the page and by a same-origin frame: a breakpoint binds in both
    copies, and neither reads as a version the other replaced."""
    client = debugging
    await client.ok("navigate", url=f"{site_url}/framed-bundle/")
    await client.ok("wait_for", selector="iframe >> #add")
    text = await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    listed = await client.ok("debugger_list_breakpoints")
    assert listed.count(f"app/src/cart.ts:{LOOP}:") == 2, (text, listed)
    read = await client.ok("debugger_read_source", source="cart.ts", start_line=LOOP, line_count=1)
    assert "hot update" not in read and "versions" not in read, read


async def test_a_missing_or_broken_map_is_reported_and_debugging_goes_on(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    for variant, why in (("missing-map", "HTTP 404"), ("broken-map", "not JSON")):
        await client.ok("navigate", url=f"{site_url}/{variant}/")
        listed = await client.ok("debugger_list_scripts")
        assert "[map failed:" in listed and why in listed, listed
        loop = generated_line("subtotal += item.price")
        text = await client.ok("debugger_set_breakpoint", url="app.js", line_number=loop)
        assert f"resolved in app.js:{loop}:" in text, text
        paused = await client.ok("evaluate_js", expression="document.getElementById('add').click()")
        assert "Its source map could not be used, so this is the generated script:" in paused and why in paused
        again = await client.ok("evaluate_js", expression="document.getElementById('add').click()")
        assert "could not be used" not in again, again  # said once
        await client.ok("debugger_resume")
        await client.ok("debugger_remove_breakpoint", breakpoint_id="bp1" if variant == "missing-map" else "bp2")


async def test_a_map_over_the_size_limit_is_refused_naming_the_limit(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/huge-map/")
    listed = await client.ok("debugger_list_scripts")
    assert "[map failed:" in listed and "over the 67,108,864-byte limit" in listed, listed


async def test_mappings_out_of_range_are_dropped_with_a_note(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/out-of-range/")
    listed = await client.ok("debugger_list_scripts")
    assert "[map: 4 sources; note:" in listed and "the map has 4 sources; that mapping is dropped" in listed, listed
    text = await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    assert f"resolved in app/src/cart.ts:{LOOP}:" in text, text  # the rest of the map still works


async def test_a_map_without_sources_text_and_an_index_map_naming_itself(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/self-map/")
    listed = await client.ok("debugger_list_scripts")
    assert "[map failed:" in listed and "refers to the map itself (a cycle)" in listed, listed
    await client.ok("navigate", url=f"{site_url}/no-content/")
    kind, text = await client.error("debugger_read_source", source="cart.ts")
    assert kind == "STATE" and "carries no text of it" in text, text
    await client.ok("debugger_set_breakpoint", url="cart.ts", line_number=LOOP)
    paused = await client.ok("click_element", selector="#add")
    assert f"at app/src/cart.ts:{LOOP}:" in paused, paused
    assert "\n  20 | " not in paused and "var subtotal" not in paused, paused  # no generated text as line 20
    await client.ok("debugger_resume")


async def test_a_breakpoint_on_a_file_no_map_knows_names_files_of_that_name(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    text = await client.ok("debugger_set_breakpoint", url="lib/cart.ts", line_number=3)
    assert "not resolved yet" in text and "Files and scripts with that name: app/src/cart.ts." in text, text


async def test_a_line_past_the_end_of_a_ts_file_is_refused(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    kind, text = await client.error("debugger_set_breakpoint", url="cart.ts", line_number=900)
    assert kind == "VALIDATION" and "line 900 is past its end" in text, text


async def test_console_output_and_an_exception_from_typescript_show_ts_places(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    await client.ok("click_element", selector="#add")
    await client.ok("click_element", selector="#checkout")
    logs = await client.ok("get_console_logs", expand_errors=True)
    assert f"[log] cart total $2.50  @ app/src/main.ts:{ts_line('main.ts', 'main-console-log')}" in logs, logs
    throw = ts_line("main.ts", "main-throw")
    assert "checkout failed" in logs and f"@ app/src/main.ts:{throw}" in logs, logs
    assert f"at onCheckout (app/src/main.ts:{throw}:" in logs, logs


async def test_steps_go_by_typescript_lines_and_through_library_code(debugging: ModeClient, site_url: str) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    log_line = ts_line("main.ts", "main-console-log")
    await client.ok("debugger_set_breakpoint", url="src/main.ts", line_number=log_line)
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP)
    assert f"at app/src/cart.ts:{LOOP}:" in await client.ok("click_element", selector="#add")
    stepped = await client.ok("debugger_step_over")
    first = stepped.splitlines()[0]
    assert first.startswith("Paused (step) at app/src/cart.ts:") and f"cart.ts:{LOOP}:" not in first, stepped
    await client.ok("debugger_resume")  # on to the console.log line, which calls the library
    into = await client.ok("debugger_step_into")
    assert "Stepped through library code without stopping: node_modules/tinylib/index.js." in into, into
    assert "tinylib" not in into.split("Paused", 1)[1].splitlines()[0], into  # it stops in the app's code
    await client.ok("debugger_resume")


@pytest.mark.parametrize("variant", ["esbuild-external", "esbuild-minified", "webpack"])
async def test_a_line_breakpoint_pauses_once_per_run_of_its_line(
    debugging: ModeClient, site_url: str, variant: str
) -> None:
    """A line with calls has several places the browser can stop at; a breakpoint on the line
    stops at its first, once, as an editor's does (a column picks another place)."""
    client = debugging
    line = ts_line("main.ts", "main-console-log")
    await client.ok("navigate", url=f"{site_url}/{variant}/")
    text = await client.ok("debugger_set_breakpoint", url="src/main.ts", line_number=line)
    assert text.count(f"main.ts:{line}:") == 1, text
    paused = await client.ok("click_element", selector="#add")
    assert f"main.ts:{line}:" in paused, paused
    resumed = await client.ok("debugger_resume")
    assert "ran on without pausing" in resumed, resumed


@pytest.mark.parametrize("variant", ["esbuild-minified", "webpack", "esbuild-external"])
async def test_a_condition_in_original_names_runs_in_the_bundles_names(
    debugging: ModeClient, site_url: str, variant: str
) -> None:
    """A minifier renames ``item``; the condition is run with the name the bundle gives it,
    and the answer shows what runs. Nothing it does reaches the page's console."""
    client = debugging
    await client.ok("navigate", url=f"{site_url}/{variant}/")
    text = await client.ok(
        "debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP, condition="item.quantity === 2"
    )
    if variant == "esbuild-minified":
        assert "Note: item.quantity === 2 runs as " in text and "in esbuild-minified/app.js" in text, text
    first = await client.ok("click_element", selector="#add")
    assert "Paused" not in first, first  # one item, of quantity 1
    paused = await client.ok("click_element", selector="#add")
    assert "Paused (breakpoint bp1) at " in paused and f"src/cart.ts:{LOOP}:" in paused, paused
    quantity = await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="item.quantity")
    assert quantity.endswith("= 2") or quantity == "2", quantity
    await client.ok("debugger_resume")
    listed = await client.ok("debugger_list_breakpoints")
    assert "failed" not in listed, listed
    logs = await client.ok("get_console_logs")
    assert "Error" not in logs, logs


async def test_a_condition_naming_what_the_bundle_left_out_is_refused_naming_it(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-minified/")
    kind, text = await client.error(
        "debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP, condition="Item !== undefined && item.price > 0"
    )
    assert kind == "VALIDATION" and text.startswith("Item: app/src/cart.ts has this name"), text
    assert "item" not in text.split("\n")[0].removeprefix("Item"), text  # item is placed: only Item is named
    logged = await client.ok(
        "debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP, log_message="price {item.price}"
    )
    assert "Breakpoint bp" in logged, logged
    await client.ok("click_element", selector="#add")
    logs = await client.ok("get_console_logs")
    assert f"price 250  @ app/src/cart.ts:{LOOP}" in logs, logs  # where the logpoint is, not its condition


@pytest.mark.parametrize("variant", ["esbuild-external", "webpack"])
async def test_a_breakpoint_on_a_ts_file_binds_again_after_each_reload(
    debugging: ModeClient, site_url: str, variant: str
) -> None:
    """Once bound, it is set again by the bundle's URL on each reload (the browser binds it as
    the bundle loads, with no hold); it still stops at the TypeScript line every time."""
    client = debugging
    await client.ok("navigate", url=f"{site_url}/{variant}/")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=LOOP)
    for _ in range(2):
        await client.ok("navigate", url=f"{site_url}/{variant}/")
        paused = await client.ok("click_element", selector="#add")
        assert f"cart.ts:{LOOP}:" in paused, paused
        assert "ran on without pausing" in await client.ok("debugger_resume")
    listed = await client.ok("debugger_list_breakpoints")
    assert listed.count(f"cart.ts:{LOOP}:") == 1, listed  # one place, in the bundle loaded now
