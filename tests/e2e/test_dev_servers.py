"""The real JavaScript dev servers and builds of tests/fixtures/devapps, driven through the real
server in both modes: each page loads, its #add button is found and clicked, and the debugger
lists the app's own modules as that setup serves them; an edit of a Vite copy's source reaches
the open page as a hot update, without a reload."""

from __future__ import annotations

import uuid

import anyio
import pytest

from tests.e2e.harness import ModeClient
from tests.support.devservers import (
    APP_READY_MS,
    BuiltSite,
    DevServer,
    built_site_fixture,
    dev_server_fixture,
    marker_line,
    marker_text,
    save,
)

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

vite_react_dev = dev_server_fixture("vite-react")
vue_dev = dev_server_fixture("vue")
webpack_dev = dev_server_fixture("webpack")
vite_react_build = built_site_fixture("vite-react")
webpack_build = built_site_fixture("webpack")
tsc_build = built_site_fixture("tsc")

COUNT = "document.getElementById('count').textContent"


async def load_and_add(client: ModeClient, url: str, scripts: str) -> str:
    """Open the app, find and click #add (the count goes to 1) and #checkout (an uncaught error),
    and list the page's scripts whose names contain `scripts`."""
    await client.ok("navigate", url=url + "/")
    found = await client.ok("wait_for", selector="#add", timeout_ms=APP_READY_MS)
    assert "#add" in found or "add" in found, found
    found = await client.ok("query_elements", selector="#add")
    assert "Add" in found, found
    await client.ok("click_element", selector="#add")
    assert await client.js(COUNT) == "1"
    await client.ok("click_element", selector="#checkout")  # its async handler throws, uncaught
    with anyio.fail_after(10):
        while True:
            logs = await client.ok("get_console_logs", filter_level="error")
            if "checkout failed" in logs:
                break
            await anyio.sleep(0.05)
    return await client.ok("debugger_list_scripts", filter=scripts)


async def test_vite_react_dev_serves_the_typescript_modules(debugging: ModeClient, vite_react_dev: DevServer) -> None:
    listed = await load_and_add(debugging, vite_react_dev.url, "/src/")
    for module in ("/src/main.tsx", "/src/Cart.tsx", "/src/cart.ts"):
        assert module in listed, listed
    last = await debugging.ok("debugger_list_scripts", filter="/src/modules/")
    assert 'rows matching "/src/modules/" 1–40 of 60:' in last, last  # 30 modules and their sources
    assert "/src/types.ts" not in listed, listed  # types only: never loaded


async def test_vue_dev_serves_the_single_file_component(debugging: ModeClient, vue_dev: DevServer) -> None:
    listed = await load_and_add(debugging, vue_dev.url, "/src/")
    assert "/src/App.vue" in listed and "/src/main.ts" in listed, listed


async def test_webpack_dev_names_modules_webpack_internal(debugging: ModeClient, webpack_dev: DevServer) -> None:
    listed = await load_and_add(debugging, webpack_dev.url, "webpack-internal:")
    assert "webpack-internal:///./src/pricing.ts" in listed, listed
    assert "webpack-internal:///./src/main.ts" in listed, listed


async def test_webpack_production_build_is_minified_with_an_external_map(
    debugging: ModeClient, webpack_build: BuiltSite
) -> None:
    listed = await load_and_add(debugging, webpack_build.url, "main.js")
    assert "main.js" in listed and "src/pricing.ts" in listed, listed
    assert (webpack_build.root / "main.js.map").is_file()


async def test_vite_build_is_minified_with_an_external_map(debugging: ModeClient, vite_react_build: BuiltSite) -> None:
    listed = await load_and_add(debugging, vite_react_build.url, "assets/")
    assert "assets/index-" in listed and "src/cart.ts" in listed, listed
    assert [path.name for path in (vite_react_build.root / "assets").glob("index-*.js.map")], "no external map"


async def test_tsc_output_is_one_module_per_file(debugging: ModeClient, tsc_build: BuiltSite) -> None:
    listed = await load_and_add(debugging, tsc_build.url, "dist/")
    assert "dist/main.js" in listed and "dist/util.js" in listed and "src/util.ts" in listed, listed
    assert "sourcesContent" not in (tsc_build.root / "dist" / "util.js.map").read_text()


async def test_an_edit_of_the_vite_copy_reaches_the_page_as_a_hot_update(
    client: ModeClient, vite_react_dev: DevServer
) -> None:
    cart = vite_react_dev.root / "src" / "cart.ts"
    line = marker_line(cart, "cart-build")
    old = marker_text(cart, "cart-build").split('"')[1]
    await client.ok("navigate", url=vite_react_dev.url + "/")
    await client.ok("wait_for", selector="#build", timeout_ms=APP_READY_MS)
    assert await client.js("document.getElementById('build').textContent") == old
    await client.js("window.beforeTheEdit = true")
    new = f"build-{uuid.uuid4().hex[:8]}"
    lines = cart.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(old, new)
    save(cart, "".join(lines))
    with anyio.fail_after(15):
        while True:
            if await client.js("document.getElementById('build').textContent") == new:
                break
            await anyio.sleep(0.1)
    assert await client.js("window.beforeTheEdit === true")  # updated in place, not reloaded
