"""Pages that run the bundled TypeScript fixture app (tests/fixtures/bundles), one per bundler
variant, served on 127.0.0.1, plus variants whose source maps are broken.

``/<variant>/`` loads ``/<variant>/app.js``; the map sits beside it as the bundler wrote it
(external, inline, index map). ``/api/price`` answers the app's price request. Lines of the
TypeScript sources are found by their ``// @marker`` comments (`ts_line`), never hard-coded.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.pages import PageSpec
from tests.support.site import html

BUNDLES = Path(__file__).resolve().parents[1] / "fixtures" / "bundles"
APP_SOURCES = BUNDLES / "app" / "src"
VARIANTS = ("esbuild-external", "esbuild-inline", "esbuild-minified", "webpack", "index-map")
BUTTONS = '<button id="add">Add</button><button id="checkout">Checkout</button><button id="price">Price</button>'


def _page(title: str, script: str) -> PageSpec:
    return (200, "text/html", html(title, BUTTONS + f'<script src="{script}"></script>'))


def _bundle_pages() -> dict[str, PageSpec]:
    pages: dict[str, PageSpec] = {}
    for variant in VARIANTS:
        folder = BUNDLES / "dist" / variant
        pages[f"/{variant}/"] = _page(f"Cart ({variant})", f"/{variant}/app.js")
        for file in folder.iterdir():
            kind = "application/json" if file.suffix == ".map" else "text/javascript"
            pages[f"/{variant}/{file.name}"] = (200, kind, file.read_bytes())
    return pages


def _with_map_comment(map_url: str) -> bytes:
    """The external esbuild bundle, pointing at another map."""
    code = (BUNDLES / "dist" / "esbuild-external" / "app.js").read_text()
    return code.replace("//# sourceMappingURL=app.js.map", f"//# sourceMappingURL={map_url}").encode()


def _without_sources_content() -> bytes:
    """The external esbuild map without the text of its sources."""
    source_map = json.loads((BUNDLES / "dist" / "esbuild-external" / "app.js.map").read_text())
    del source_map["sourcesContent"]
    return json.dumps(source_map).encode()


def _out_of_range_mappings() -> bytes:
    """The external esbuild map with one more segment, on a line of its own, naming a source the
    map does not have."""
    source_map = json.loads((BUNDLES / "dist" / "esbuild-external" / "app.js.map").read_text())
    source_map["mappings"] += ";AoBAAA"  # column 0, source +20 (relative to the last one), line 0, column 0
    return json.dumps(source_map).encode()


def _oversized_map() -> bytes:
    """A map just over the 64 MiB that cdpilot loads at most (mostly one long mappings string)."""
    head, tail = b'{"version": 3, "sources": ["a.ts"], "mappings": "', b'"}'
    return head + b"A" * (64 * 1024 * 1024) + tail


def _self_referencing_index_map() -> bytes:
    return json.dumps({"version": 3, "sections": [{"offset": {"line": 0, "column": 0}, "url": "app.js.map"}]}).encode()


BROKEN_PAGES: dict[str, PageSpec] = {
    "/missing-map/": _page("Missing map", "/missing-map/app.js"),
    "/missing-map/app.js": (200, "text/javascript", _with_map_comment("gone.js.map")),
    "/broken-map/": _page("Broken map", "/broken-map/app.js"),
    "/broken-map/app.js": (200, "text/javascript", _with_map_comment("app.js.map")),
    "/broken-map/app.js.map": (200, "application/json", b'{"version": 3, "sources": ["a.ts"'),
    "/no-content/": _page("Map without sources", "/no-content/app.js"),
    "/no-content/app.js": (200, "text/javascript", _with_map_comment("app.js.map")),
    "/no-content/app.js.map": (200, "application/json", _without_sources_content()),
    "/out-of-range/": _page("Mappings out of range", "/out-of-range/app.js"),
    "/out-of-range/app.js": (200, "text/javascript", _with_map_comment("app.js.map")),
    "/out-of-range/app.js.map": (200, "application/json", _out_of_range_mappings()),
    "/huge-map/": _page("Map over the size limit", "/huge-map/app.js"),
    "/huge-map/app.js": (200, "text/javascript", _with_map_comment("app.js.map")),
    "/huge-map/app.js.map": (200, "application/json", _oversized_map()),
    "/self-map/": _page("Index map that names itself", "/self-map/app.js"),
    "/self-map/app.js": (200, "text/javascript", _with_map_comment("app.js.map")),
    "/self-map/app.js.map": (200, "application/json", _self_referencing_index_map()),
}

UTIL_JS = "function util() {\n  return %d;\n}\nwindow.util%s = util;\n"
# Two scripts with the same file name in different folders: a name like util.js is ambiguous.
TWO_UTILS: dict[str, PageSpec] = {
    "/two-utils/": (
        200,
        "text/html",
        html("Two utils", '<script src="/a/util.js"></script><script src="/b/util.js"></script>'),
    ),
    "/a/util.js": (200, "text/javascript", (UTIL_JS % (1, "A")).encode()),
    "/b/util.js": (200, "text/javascript", (UTIL_JS % (2, "B")).encode()),
}

BUNDLE_PAGES: dict[str, PageSpec] = {
    **_bundle_pages(),
    **BROKEN_PAGES,
    **TWO_UTILS,
    "/api/price": (200, "application/json", json.dumps({"price": 250}).encode()),
}


def ts_line(file: str, marker: str) -> int:
    """The 1-based line of ``src/<file>`` that carries ``// @marker``."""
    for number, line in enumerate((APP_SOURCES / file).read_text().splitlines(), start=1):
        if f"// @{marker}" in line:
            return number
    raise KeyError(marker)


def ts_text(file: str, marker: str) -> str:
    """The code on that line, without its marker comment."""
    line = (APP_SOURCES / file).read_text().splitlines()[ts_line(file, marker) - 1]
    return line.split("//", 1)[0].strip()


def generated_line(text: str) -> int:
    """The 1-based line of the external esbuild bundle that holds `text`."""
    lines = (BUNDLES / "dist" / "esbuild-external" / "app.js").read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)
