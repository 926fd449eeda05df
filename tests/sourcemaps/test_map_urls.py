"""Finding a script's map: inline data: URLs (base64 and percent-encoded) and relative URLs."""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest

from cdpilot.browser.sourcemaps import SourceMapLocation, decode_data_url, locate_source_map, resolve_url
from cdpilot.errors import SourceMapError

MAP = '{"version":3,"sources":["café.ts"],"mappings":"AAAA"}'
SCRIPT = "http://127.0.0.1:8000/dist/app.js"


@pytest.mark.parametrize(
    "url",
    [
        "data:application/json;base64," + base64.b64encode(MAP.encode()).decode(),
        "data:application/json;charset=utf-8;base64," + base64.b64encode(MAP.encode()).decode(),
        "data:application/json;charset=UTF-8;base64," + base64.b64encode(MAP.encode()).decode().rstrip("="),
        "data:application/json," + quote(MAP),
        "data:application/json;charset=utf-8," + quote(MAP),
        "data:," + quote(MAP),
        "data:application/json;charset=iso-8859-1," + quote(MAP.encode("latin-1")),
    ],
)
def test_data_urls_decode(url: str) -> None:
    assert decode_data_url(url) == MAP


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "data:application/json;base64,e30*",
            "inline source map data:application/json;base64,e30*: its base64 is broken",
        ),
        ("data:application/json,%FF%FE", "inline source map data:application/json,%FF%FE: its text is not utf-8"),
        ("data:application/json;charset=nope,{}", "inline source map data:application/json;charset=nope,{}: its text"),
        ("http://h/app.js.map", "source map http://h/app.js.map is not a data: URL"),
    ],
)
def test_broken_data_urls(url: str, message: str) -> None:
    with pytest.raises(SourceMapError) as caught:
        decode_data_url(url)
    assert str(caught.value).startswith(message)


def test_an_inline_map_is_text_whose_sources_resolve_against_the_script() -> None:
    url = "data:application/json;base64," + base64.b64encode(MAP.encode()).decode()
    assert locate_source_map(SCRIPT, url) == SourceMapLocation(url=url, text=MAP, base_url=SCRIPT)


@pytest.mark.parametrize(
    ("script", "reference", "url"),
    [
        (SCRIPT, "app.js.map", "http://127.0.0.1:8000/dist/app.js.map"),
        (SCRIPT, "../maps/app.js.map", "http://127.0.0.1:8000/maps/app.js.map"),
        (SCRIPT, "/app.js.map", "http://127.0.0.1:8000/app.js.map"),
        (SCRIPT, "https://maps.example/app.js.map", "https://maps.example/app.js.map"),
        ("file:///home/u/proj/dist/app.js", "app.js.map", "file:///home/u/proj/dist/app.js.map"),
        ("chrome-extension://abcdef/js/bg.js", "bg.js.map", "chrome-extension://abcdef/js/bg.js.map"),
        ("app://bundle/renderer/index.js", "./index.js.map ", "app://bundle/renderer/index.js.map"),
    ],
)
def test_relative_map_urls_resolve_against_the_script(script: str, reference: str, url: str) -> None:
    assert locate_source_map(script, reference) == SourceMapLocation(url=url, text=None, base_url=url)


def test_a_script_without_a_map() -> None:
    assert locate_source_map(SCRIPT, "") is None
    assert locate_source_map(SCRIPT, "  ") is None


@pytest.mark.parametrize(
    ("base", "reference", "url"),
    [
        ("http://h/a/b.js", "c.js", "http://h/a/c.js"),
        ("http://h/a/b.js", "../../../c.js", "http://h/c.js"),
        ("webpack://app/src/a.ts", "b.ts", "webpack://app/src/b.ts"),
        ("", "c.js", "c.js"),
        ("http://h/a/b.js", "C:\\src\\a.ts", "C:\\src\\a.ts"),
    ],
)
def test_resolve_url(base: str, reference: str, url: str) -> None:
    assert resolve_url(base, reference) == url
