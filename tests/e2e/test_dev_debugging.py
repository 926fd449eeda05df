"""The debugger on apps as they run in development, through the real server in both modes: the
Vite dev server (React + TypeScript), webpack-dev-server with ``eval-source-map``, a minified
webpack production build, and tsc's one map per file without the sources' text.

Dev servers serve compiled modules at URLs that look like the original files (Vite's
``/src/cart.ts``) and replace modules while the page runs (hot updates); a breakpoint must
stop once, at the line the user named, in the code that runs now. Lines are found by their
``// @marker`` comments in the served copy, which some tests edit.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.e2e.harness import ModeClient, text_of
from tests.support.devservers import (
    APP_READY_MS,
    BuiltSite,
    DevServer,
    built_site_fixture,
    dev_server_fixture,
    marker_line,
    save,
    tail,
)
from tests.support.pages import directory_pages, serve_pages

pytestmark = [pytest.mark.anyio, pytest.mark.browser]
REWRITE_EVERY_POLLS = 30  # 3 s of polling the list before an edit is written again
EDIT_WITHIN_S = 40

vite_react_dev = dev_server_fixture("vite-react")
vue_dev = dev_server_fixture("vue")
webpack_dev = dev_server_fixture("webpack")
webpack_build = built_site_fixture("webpack")
tsc_build = built_site_fixture("tsc")


@pytest.fixture
async def vite(debugging: ModeClient, vite_react_dev: DevServer) -> ModeClient:
    """The Vite app loaded, its cart.ts as the file says now (a test may have edited it). A
    load that never renders fails with what the page holds, its console (a module the server
    served broken says so there) and the dev server's log."""
    await debugging.ok("navigate", url=vite_react_dev.url + "/")
    waited = await debugging.call("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    if waited.is_error:
        body = text_of(await debugging.call("evaluate_js", expression="document.body.innerHTML.slice(0, 400)"))
        console = await debugging.ok("get_console_logs")
        raise AssertionError(f"{text_of(waited)}\n{body}\n{console}\n{tail(vite_react_dev.log)}")
    return debugging


async def edited_until_listed(client: ModeClient, server: DevServer, path: Path, text: str, listed: str) -> str:
    """Write `text` into `path` of the served copy and poll the breakpoint list until it shows
    `listed`. The dev server pushes a hot update once it sees the edit and the page's update
    client is connected (on a loaded machine, its connection may come after a first edit), so
    the same text is written again every few seconds until the page has it. A failure shows
    the last list, the scripts the page loaded from that file and the dev server's log."""
    found = ""
    with anyio.move_on_after(EDIT_WITHIN_S):
        while True:
            save(path, text)
            for _ in range(REWRITE_EVERY_POLLS):
                found = await client.ok("debugger_list_breakpoints")
                if listed in found:
                    return found
                await anyio.sleep(0.1)
    scripts = await client.ok("debugger_list_scripts", filter=path.name)
    console = await client.ok("get_console_logs")
    raise AssertionError(
        f"no {listed!r} within {EDIT_WITHIN_S} s of editing {path.name}\n{found}\n{scripts}\n{console}\n"
        + tail(server.log)
    )


async def vite_connected(client: ModeClient) -> None:
    """Wait until the page's Vite client says its update socket is open: one that failed to
    open never gets a hot update, which the failure then shows rather than a timeout."""
    console = ""
    with anyio.move_on_after(APP_READY_MS / 1000):
        while True:
            console = await client.ok("get_console_logs", filter_level="debug")
            if "[vite] connected." in console:
                return
            await anyio.sleep(0.1)
    raise AssertionError(f"the page's Vite client never connected:\n{console}")


async def loaded_versions(client: ModeClient, path: str) -> list[str]:
    """The URLs of the scripts the page runs for a module (the newest version of each)."""
    listed = await client.ok("debugger_list_scripts", filter=path)
    return [row.split()[0] for row in listed.splitlines() if row.startswith("http") and path in row]


def cart_line(server: DevServer, marker: str) -> int:
    return marker_line(server.root / "src" / "cart.ts", marker)


async def test_a_breakpoint_set_before_the_page_loads_binds_once_at_the_original_line(
    debugging: ModeClient, vite_react_dev: DevServer
) -> None:
    """Vite serves cart.ts compiled at /src/cart.ts: the name matches that script's URL too,
    whose lines are generated ones. It must bind at the original line only."""
    client = debugging
    line = cart_line(vite_react_dev, "cart-subtotal-loop")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=line)
    await client.ok("navigate", url=vite_react_dev.url + "/")
    listed = await client.ok("debugger_list_breakpoints")
    assert listed.count("(compiled cart.ts:") == 1 and f"resolved in cart.ts:{line}:" in listed, listed
    paused = await client.ok("click_element", selector="#add")
    assert f"Paused (breakpoint bp1) at cart.ts:{line}:" in paused and "subtotal +=" in paused, paused
    resumed = await client.ok("debugger_resume")
    assert "ran on without pausing" in resumed, resumed  # one item: the loop body runs once


async def test_a_line_with_calls_pauses_once_per_run(vite: ModeClient, vite_react_dev: DevServer) -> None:
    line = cart_line(vite_react_dev, "cart-total-log")  # withTax(subtotal(items)) and console.info on one line
    text = await vite.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=line)
    assert text.count(f"cart.ts:{line}:") == 1, text
    paused = await vite.ok("click_element", selector="#add")
    assert f"at cart.ts:{line}:" in paused, paused
    resumed = await vite.ok("debugger_resume")
    assert "ran on without pausing" in resumed, resumed


async def test_a_hot_update_moves_the_breakpoint_with_its_line(vite: ModeClient, vite_react_dev: DevServer) -> None:
    """Two lines added above the loop: the breakpoint follows it into the new module, the old
    module's binding goes, and reading the file shows the text that runs now."""
    client = vite
    cart = vite_react_dev.root / "src" / "cart.ts"
    line = cart_line(vite_react_dev, "cart-subtotal-loop")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=line)
    await vite_connected(client)
    before = cart.read_text()
    edited = before.replace("export const items", "// added by the test\n// and another line\nexport const items")
    try:
        listed = await edited_until_listed(client, vite_react_dev, cart, edited, f"bp1 at src/cart.ts:{line + 2}")
        assert "cart.ts was replaced by a hot update" in listed, listed
        assert listed.count("(compiled cart.ts:") == 1 and f"resolved in cart.ts:{line + 2}:" in listed, listed
        first = await loaded_versions(client, "/src/cart.ts")
        with anyio.fail_after(EDIT_WITHIN_S):  # saved again, the same text: one more version
            while (await loaded_versions(client, "/src/cart.ts")) == first:
                save(cart, edited)
                await anyio.sleep(0.5)
        listed = await client.ok("debugger_list_breakpoints")  # the old version's place is gone
        assert listed.count("(compiled ") == 1 and f"bp1 at src/cart.ts:{line + 2}, resolved in" in listed, listed
        paused = await client.ok("click_element", selector="#add")
        assert f"at cart.ts:{line + 2}:" in paused and "subtotal +=" in paused, paused
        assert "ran on without pausing" in await client.ok("debugger_resume")
        read = await client.ok("debugger_read_source", source="src/cart.ts", start_line=1, line_count=20)
        assert "// added by the test" in read and "a hot update replaced it" in read, read
        text = await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=line + 3)
        assert text.count("(compiled cart.ts:") == 1, text  # a new breakpoint binds in the new module only
        rows = await loaded_versions(client, "/src/cart.ts")
        assert len(rows) == 1 and "/src/cart.ts?t=" in rows[0], rows  # its current version only
        found = await client.ok("debugger_search_sources", query="subtotal +=")
        assert found.count("src/cart.ts") == 1, found  # the original, and the module as it runs now
    finally:
        save(cart, before)


async def test_an_edit_made_while_the_page_was_away_moves_the_breakpoint_on_its_return(
    vite: ModeClient, vite_react_dev: DevServer
) -> None:
    """No hot update reaches a page that is elsewhere: the file it loads on coming back has
    two more lines above the loop, and the breakpoint follows its line into it, saying why."""
    client = vite
    cart = vite_react_dev.root / "src" / "cart.ts"
    line = cart_line(vite_react_dev, "cart-subtotal-loop")
    await client.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=line)
    await client.ok("navigate", url="about:blank")
    before = cart.read_text()
    try:
        save(
            cart, before.replace("export const items", "// added by the test\n// and another line\nexport const items")
        )
        await client.ok("navigate", url=vite_react_dev.url + "/")
        await client.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
        listed = await client.ok("debugger_list_breakpoints")
        assert f"bp1 at src/cart.ts:{line + 2}, resolved in cart.ts:{line + 2}:" in listed, listed
        assert f"cart.ts changed since the breakpoint was bound; its line {line} is line {line + 2} now" in listed, (
            listed
        )
        paused = await client.ok("click_element", selector="#add")
        assert f"at cart.ts:{line + 2}:" in paused and "subtotal +=" in paused, paused
        await client.ok("debugger_resume")
    finally:
        save(cart, before)


async def test_a_file_of_types_only_is_refused_at_once(vite: ModeClient, vite_react_dev: DevServer) -> None:
    kind, text = await vite.error("debugger_set_breakpoint", url="src/types.ts", line_number=2)
    assert kind == "STATE" and "src/types.ts has no code that runs" in text, text


async def test_lines_without_code_say_where_they_bind(vite: ModeClient, vite_react_dev: DevServer) -> None:
    blank = cart_line(vite_react_dev, "cart-add-before") + 1
    text = await vite.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=blank)
    assert f"no code on line {blank} of cart.ts; bound on line {blank + 1}" in text, text
    assert f"resolved in cart.ts:{blank + 1}:" in text, text
    field = cart_line(vite_react_dev, "cart-interface-field")
    text = await vite.ok("debugger_set_breakpoint", url="src/cart.ts", line_number=field)
    bound = int(text.split("; bound on line ")[1].split(".")[0])
    assert bound > field and f"resolved in cart.ts:{bound}:" in text, text


async def test_a_place_the_browser_moves_to_another_line_says_so(vite: ModeClient, vite_react_dev: DevServer) -> None:
    """A JSX text child has no place to stop: the browser binds such a breakpoint further on,
    and the answer says on which line rather than letting the place pass for the one asked."""
    lines = (vite_react_dev.root / "src" / "Cart.tsx").read_text().splitlines()
    text_line = next(number for number, line in enumerate(lines, 1) if line.strip() == "Add")
    text = await vite.ok("debugger_set_breakpoint", url="src/Cart.tsx", line_number=text_line, column_number=9)
    assert ", column 9, of Cart.tsx has no place to stop; the browser bound it on line " in text, text
    bound = int(text.split("the browser bound it on line ")[1].split(".")[0])
    assert bound != text_line and f"resolved in Cart.tsx:{bound}:" in text, text


async def test_a_vue_single_file_component_pauses_at_its_script_line(debugging: ModeClient, vue_dev: DevServer) -> None:
    """Vite compiles App.vue's <script setup> into a module served at /src/App.vue: the
    breakpoint, set before the page loads, binds once at the .vue line, its condition too."""
    client = debugging
    line = marker_line(vue_dev.root / "src" / "App.vue", "vue-handle-add")
    await client.ok("debugger_set_breakpoint", url="src/App.vue", line_number=line, condition="count.value === 1")
    await client.ok("navigate", url=vue_dev.url + "/")
    listed = await client.ok("debugger_list_breakpoints")
    assert listed.count("(compiled App.vue:") == 1 and f"resolved in App.vue:{line}:" in listed, listed
    assert "Paused" not in await client.ok("click_element", selector="#add")  # count is 0
    paused = await client.ok("click_element", selector="#add")
    assert f"Paused (breakpoint bp1) at App.vue:{line}:" in paused and "items.value.push" in paused, paused
    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="count.value") == "1"
    assert "ran on without pausing" in await client.ok("debugger_resume")


async def test_webpack_dev_modules_bind_once_by_their_original_line(
    debugging: ModeClient, webpack_dev: DevServer
) -> None:
    client = debugging
    line = marker_line(webpack_dev.root / "src" / "pricing.ts", "pricing-loop")
    await client.ok("debugger_set_breakpoint", url="src/pricing.ts", line_number=line)
    await client.ok("navigate", url=webpack_dev.url + "/")
    paused = await client.ok("click_element", selector="#add")
    assert f"pricing.ts:{line}:" in paused and "amount +=" in paused, paused
    assert "ran on without pausing" in await client.ok("debugger_resume")


async def test_a_webpack_edit_moves_the_breakpoint_with_its_line(debugging: ModeClient, webpack_dev: DevServer) -> None:
    """The app accepts no hot updates, so webpack-dev-server reloads the page on an edit; the
    module then loads again at the same webpack-internal: URL, where the old line number would
    bind other code: the breakpoint follows its line instead, and says the file changed."""
    client = debugging
    pricing = webpack_dev.root / "src" / "pricing.ts"
    line = marker_line(pricing, "pricing-loop")
    await client.ok("navigate", url=webpack_dev.url + "/")
    await client.ok("debugger_set_breakpoint", url="src/pricing.ts", line_number=line)
    before = pricing.read_text()
    edited = before.replace("const store", "// added by the test\n// and another line\nconst store")
    try:
        listed = await edited_until_listed(client, webpack_dev, pricing, edited, f"bp1 at src/pricing.ts:{line + 2}")
        assert "pricing.ts changed since the breakpoint was bound" in listed, listed
        assert listed.count("(compiled") == 1, listed
        paused = await client.ok("click_element", selector="#add")
        assert f"pricing.ts:{line + 2}:" in paused and "amount +=" in paused, paused
        assert "ran on without pausing" in await client.ok("debugger_resume")
    finally:
        save(pricing, before)


async def test_a_condition_on_the_minified_webpack_build_uses_the_original_names(
    debugging: ModeClient, webpack_build: BuiltSite
) -> None:
    client = debugging
    line = marker_line(webpack_build.root.parent / "src" / "pricing.ts", "pricing-loop")
    await client.ok("navigate", url=webpack_build.url + "/")
    await client.ok("get_console_logs")
    await client.ok("debugger_set_breakpoint", url="src/pricing.ts", line_number=line, condition="index === 1")
    assert "Paused" not in await client.ok("click_element", selector="#add")
    paused = await client.ok("click_element", selector="#add")
    assert f"pricing.ts:{line}:" in paused, paused
    await client.ok("debugger_resume")
    logs = await client.ok("get_console_logs")
    assert "ReferenceError" not in logs, logs


async def test_tsc_sources_without_their_text_are_read_and_searched(
    debugging: ModeClient, tsc_build: BuiltSite
) -> None:
    """tsc's maps name src/util.ts without its text: it is fetched from the server, as the
    pause display does."""
    client = debugging
    await client.ok("navigate", url=tsc_build.url + "/")
    await client.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    read = await client.ok("debugger_read_source", source="src/util.ts", start_line=1, line_count=12)
    assert "export function subtotal" in read and "(original source)" in read, read
    found = await client.ok("debugger_search_sources", query="subtotal += items")
    assert "src/util.ts:" in found and "Not searched" not in found, found


async def test_a_map_naming_a_file_the_server_lacks_says_so_once(debugging: ModeClient, tsc_build: BuiltSite) -> None:
    """The site without src/util.ts, which util.js.map names (without its text): the pause
    is still placed at util.ts's line, and the first answer that needs its text says why it
    has none; the next pause does not repeat it."""
    client = debugging
    pages = directory_pages(tsc_build.root)
    del pages["/src/util.ts"]
    line = marker_line(tsc_build.root / "src" / "util.ts", "util-subtotal-loop")
    with serve_pages(pages) as url:
        await client.ok("navigate", url=url + "/")
        await client.ok("debugger_set_breakpoint", url="src/util.ts", line_number=line)
        paused = await client.ok("click_element", selector="#add")
        assert f"util.ts:{line}:" in paused, paused
        assert "Its map names an original file that could not be fetched" in paused and "HTTP 404" in paused, paused
        await client.ok("debugger_resume")
        again = await client.ok("click_element", selector="#add")
        assert f"util.ts:{line}:" in again and "could not be fetched" not in again, again
        await client.ok("debugger_resume")
        kind, text = await client.error("debugger_read_source", source="src/util.ts")
        assert kind == "STATE" and "could not be fetched" in text, text
