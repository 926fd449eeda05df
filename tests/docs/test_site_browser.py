"""The docs site in a real headless Chromium, driven through cdpilot's own browser layer.

Every page loads with no console error and asks nothing of any other host; every link lands
on a page or file of the site (and on an element, when it names one); search narrows the index;
the mode switch shows exactly the tools of each mode's tools/list; the configuration page lists
every setting and its schema link opens the schema the server has. Screenshots of the index, a
tool page and the configuration page are saved for review (`make docs-check` keeps them in
build/docs-check/).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from cdpilot.browser.dom.actions import click, fill
from cdpilot.browser.page.capture import screenshot, set_viewport
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.config import OPTIONS, config_schema
from codegen.site import server_payloads
from tests.support.pages import PageSpec

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGE_FACTS = """({
  links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
  ids: [...document.querySelectorAll("[id]")].map((el) => el.id),
  title: document.title,
})"""
SHOWN = "[...document.querySelectorAll('#tools li:not([hidden]) a code')].map((code) => code.textContent)"
SHOT_PAGES = {
    "index": "/index.html",
    "tool-breakpoint": "/smart/breakpoint.html",
    "configuration": "/configuration.html",
}


async def js(conn: BrowserConnection, expression: str) -> Any:
    """The page's JSON value of `expression` (the pages' facts are plain data)."""
    reply = await conn.page.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    return reply["result"].get("value")


def console_errors(conn: BrowserConnection) -> list[str]:
    return [entry.text for entry in conn.features.console.entries() if entry.level == "error"]


def mode_tools(mode: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(server_payloads()[mode])["tools"]
    return tools


def mode_names(mode: str) -> list[str]:
    return sorted(tool["name"] for tool in mode_tools(mode))


def matching(words: str) -> list[str]:
    """What the search should keep in smart mode: every word in the name or the description."""
    return sorted(
        tool["name"]
        for tool in mode_tools("smart")
        if all(word in f"{tool['name']} {tool['description']}".lower() for word in words.split())
    )


@pytest.mark.timeout(240)
async def test_every_page_loads_cleanly_and_every_link_lands(
    browser: BrowserConnection, site_url: str, site_pages: dict[str, PageSpec]
) -> None:
    html_pages = sorted(path for path, spec in site_pages.items() if spec[1].startswith("text/html") and path != "/")
    assert len(html_pages) > 50  # every tool has a page
    ids: dict[str, set[str]] = {}
    links: dict[str, list[str]] = {}
    for path in html_pages:
        result = await navigate(browser, site_url + path)
        assert result.status == 200, path
        assert console_errors(browser) == [], path
        elsewhere = [r.url for r in browser.features.network.requests() if not r.url.startswith(site_url)]
        assert elsewhere == [], f"{path} loads from elsewhere: {elsewhere}"
        facts = await js(browser, PAGE_FACTS)
        assert facts["title"].endswith("· cdpilot"), path
        ids[path], links[path] = set(facts["ids"]), facts["links"]
    broken = []
    for path, hrefs in links.items():
        for href in hrefs:
            target = urlsplit(href)
            landing = target.path if target.path != "/" else "/index.html"
            if f"{target.scheme}://{target.netloc}" != site_url or landing not in site_pages:
                broken.append(f"{path} -> {href}")
            elif target.fragment and target.fragment not in ids.get(landing, set()):
                broken.append(f"{path} -> {href} (no element #{target.fragment})")
    assert broken == []


async def test_the_mode_switch_shows_each_modes_tools(browser: BrowserConnection, site_url: str) -> None:
    await navigate(browser, f"{site_url}/index.html")
    assert sorted(await js(browser, SHOWN)) == mode_names("smart")
    await click(browser, "input#legacy", 0, button="left", click_count=1, timeout_ms=5000)
    assert sorted(await js(browser, SHOWN)) == mode_names("legacy")
    assert await js(browser, "location.hash") == "#legacy"
    payloads = server_payloads()
    figures = await js(browser, "[...document.querySelectorAll('.mode-figures')].map((el) => ({ ...el.dataset }))")
    assert figures == [
        {"count": str(len(mode_names(mode))), "size": str(len(payloads[mode]))} for mode in ("smart", "legacy")
    ]
    await navigate(browser, f"{site_url}/index.html#legacy")  # a link may pick the mode
    assert sorted(await js(browser, SHOWN)) == mode_names("legacy")


async def test_search_narrows_the_list_by_name_and_description(browser: BrowserConnection, site_url: str) -> None:
    await navigate(browser, f"{site_url}/index.html")
    everything = await js(browser, SHOWN)
    await fill(browser, "#search", 0, "breakpoint", clear=True, submit=False, timeout_ms=5000)
    assert await js(browser, SHOWN) == ["breakpoint"] == matching("breakpoint")
    shown = await js(browser, "document.getElementById('shown').textContent")
    assert shown == f"1 of {len(everything)} smart tools"
    await fill(browser, "#search", 0, "WAIT,  stack", clear=True, submit=False, timeout_ms=5000)
    by_description = sorted(await js(browser, SHOWN))
    assert by_description == matching("wait, stack") and "execution" in by_description
    assert len(by_description) < len(everything)
    await fill(browser, "#search", 0, "no such tool", clear=True, submit=False, timeout_ms=5000)
    assert await js(browser, SHOWN) == []
    assert await js(browser, "document.getElementById('nothing').hidden") is False
    await fill(browser, "#search", 0, "", clear=True, submit=False, timeout_ms=5000)
    assert await js(browser, SHOWN) == everything


async def test_the_configuration_page_lists_every_setting_and_links_its_schema(
    browser: BrowserConnection, site_url: str
) -> None:
    await navigate(browser, f"{site_url}/index.html")
    page = await js(browser, "document.querySelector('nav a[href$=\"configuration.html\"]').href")
    assert page == f"{site_url}/configuration.html"
    await navigate(browser, page)
    rows = await js(browser, "[...document.querySelectorAll('.settings tr[id]')].map((row) => row.id)")
    assert rows == [option.key for option in OPTIONS]
    schema = await js(browser, "document.querySelector('#file + p a').href")
    assert schema == f"{site_url}/config.schema.json"
    result = await navigate(browser, schema)
    assert result.status == 200
    assert console_errors(browser) == []
    assert json.loads(await js(browser, "document.querySelector('pre').textContent")) == config_schema()


@pytest.mark.parametrize(("name", "path"), SHOT_PAGES.items())
async def test_screenshots_for_review(
    browser: BrowserConnection, site_url: str, shots_dir: Path, name: str, path: str
) -> None:
    await set_viewport(browser, width=1280, height=900, device_scale_factor=1, mobile=False)
    await navigate(browser, site_url + path)
    shot = await screenshot(browser, image_format="png", full_page=True)
    data = base64.b64decode(shot.data_base64)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert shot.width > 1200 and shot.height > 900  # the whole page, at desktop width (less a scrollbar)
    (shots_dir / f"{name}.png").write_bytes(data)
