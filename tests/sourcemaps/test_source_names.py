"""Display names and matching by path suffix, as tables."""

from __future__ import annotations

import json

import pytest

from cdpilot.browser.sourcemaps import display_name, matches_path, parse_source_map, source_matches, source_url
from cdpilot.browser.sourcemaps.map_urls import with_source_root


@pytest.mark.parametrize(
    ("source", "root", "map_url", "name"),
    [
        ("webpack:///./src/cart.ts", "", "http://h/dist/app.js.map", "src/cart.ts"),
        ("webpack://myapp/./src/cart.ts", "", "http://h/dist/app.js.map", "src/cart.ts"),
        ("webpack:///src/cart.ts?5a3f", "", "http://h/dist/app.js.map", "src/cart.ts"),
        ("webpack://myapp/webpack/bootstrap", "", "", "webpack/bootstrap"),
        ("webpack:///./node_modules/lib/index.js", "", "", "node_modules/lib/index.js"),
        ("/@fs/home/u/proj/src/x.ts", "", "http://localhost:5173/src/x.ts", "/home/u/proj/src/x.ts"),
        ("/@fs/home/u/proj/src/x.ts?v=abc123", "", "", "/home/u/proj/src/x.ts"),
        ("x.ts?t=1700000000000", "", "http://localhost:5173/src/x.ts", "x.ts"),
        ("/src/x.ts?v=abc123", "", "http://localhost:5173/src/x.ts", "src/x.ts"),
        ("../src/x.ts", "", "http://h/dist/app.js.map", "src/x.ts"),
        ("../../app/src/main.ts", "", "file:///home/u/proj/dist/esbuild/app.js.map", "app/src/main.ts"),
        ("./src/./lib/../x.ts", "", "", "src/x.ts"),
        ("http://127.0.0.1:8000/src/x.ts", "", "http://127.0.0.1:8000/app.js.map", "src/x.ts"),
        ("https://cdn.example/pkg/src/x.ts#frag", "", "", "pkg/src/x.ts"),
        ("file:///home/u/proj/src/x.ts", "", "", "/home/u/proj/src/x.ts"),
        ("x.ts", "file:///home/u/proj/src", "", "/home/u/proj/src/x.ts"),
        ("x.ts", "src", "http://h/app.js.map", "src/x.ts"),
        ("x.ts", "/src/", "http://h/dist/app.js.map", "src/x.ts"),
        ("../node_modules/.pnpm/a@1.0.0/node_modules/a/index.js", "", "http://h/d/m.map", "node_modules/a/index.js"),
        ("/@fs/home/u/proj/node_modules/.vite/deps/react.js?v=1", "", "", "node_modules/.vite/deps/react.js"),
        ("src/my%20file.ts", "", "http://h/m.map", "src/my file.ts"),
        ("webpack://app/webpack/runtime/define property getters", "", "", "webpack/runtime/define property getters"),
        ("..", "", "http://h/dist/m.map", ".."),
        ("C:\\proj\\src\\x.ts", "", "http://h/m.map", "C:/proj/src/x.ts"),
    ],
)
def test_display_names(source: str, root: str, map_url: str, name: str) -> None:
    assert display_name(with_source_root(source, root), source_url(source, root, map_url)) == name
    parsed = parse_source_map(
        json.dumps({"version": 3, "sources": [source], "sourceRoot": root, "mappings": ""}), map_url
    )
    assert parsed.sources[0].name == name


@pytest.mark.parametrize(
    ("source", "root", "map_url", "url"),
    [
        ("../src/x.ts", "", "http://h/dist/app.js.map", "http://h/src/x.ts"),
        ("x.ts", "src", "http://h/dist/app.js.map", "http://h/dist/src/x.ts"),
        ("x.ts", "/src/", "http://h/dist/app.js.map", "http://h/src/x.ts"),
        ("x.ts", "https://cdn/root", "http://h/app.js.map", "https://cdn/root/x.ts"),
        ("webpack:///./src/x.ts", "ignored/", "http://h/app.js.map", "webpack:///src/x.ts"),
        ("webpack://app/./lib/../src/x.ts?loader", "", "", "webpack://app/src/x.ts?loader"),
        ("data:text/plain,./x", "", "http://h/app.js.map", "data:text/plain,./x"),
        ("../x.ts", "", "chrome-extension://abc/js/app.js.map", "chrome-extension://abc/x.ts"),
        ("x.ts", "", "", "x.ts"),
    ],
)
def test_source_urls(source: str, root: str, map_url: str, url: str) -> None:
    assert source_url(source, root, map_url) == url


@pytest.mark.parametrize(
    ("name", "query", "matches"),
    [
        ("src/cart.ts", "cart.ts", True),
        ("src/cart.ts", "src/cart.ts", True),
        ("src/cart.ts", "./src/cart.ts", True),
        ("src/cart.ts", "/src/cart.ts", True),
        ("src/cart.ts", "src\\cart.ts", True),
        ("src/cart.ts", "art.ts", False),
        ("src/cart.ts", "rc/cart.ts", False),
        ("src/cart.ts", "cart", False),
        ("src/cart.ts", "", False),
        ("app/src/cart.ts", "src/cart.ts", True),
        ("/home/u/proj/src/cart.ts", "proj/src/cart.ts", True),
        ("/home/u/proj/src/cart.ts", "/home/u/proj/src/cart.ts", True),
    ],
)
def test_suffix_matching(name: str, query: str, matches: bool) -> None:
    assert matches_path(name, query) is matches


def test_a_source_matches_by_url_or_by_its_url_path() -> None:
    url = "webpack://app/src/cart.ts"
    assert source_matches("src/cart.ts", url, url)
    assert source_matches("src/cart.ts", url, "webpack://app/./src/cart.ts")
    assert source_matches("src/cart.ts", "http://h/a/src/cart.ts", "a/src/cart.ts")
    assert not source_matches("src/cart.ts", "http://h/a/src/cart.ts", "http://h/b/src/cart.ts")
