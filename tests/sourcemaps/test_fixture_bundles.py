"""The maps real bundlers wrote (tests/fixtures/bundles): every ``// @marker`` line of every
source runs somewhere in the bundle, and each of those places maps back to the marker's line."""

from __future__ import annotations

import pytest

from cdpilot.browser.sourcemaps import GeneratedPosition, identifier_renames, split_lines
from tests.sourcemaps.bundles import APP_BUNDLES, Bundle, load_bundle, markers

APP_MARKERS = {
    "app/src/main.ts": {
        "main-add-item",
        "main-console-log",
        "main-throw",
        "main-await-price",
        "main-wire-add",
    },
    "app/src/cart.ts": {"cart-add-push", "cart-total-loop", "cart-total-round", "cart-remember"},
    "app/src/api.ts": {"api-fetch", "api-delay", "api-return"},
    "node_modules/tinylib/index.js": {"tinylib-format", "tinylib-timeout"},
}
# The code where a marker line's first generated position starts (after indentation), readable and minified.
READABLE_CODE = {
    "cart-total-loop": "subtotal += item.price * item.quantity;",
    "cart-add-push": "items3.push(item);",
    "main-throw": 'throw new Error("checkout failed: the cart has "',
    "api-fetch": 'const response = await fetch("/api/price?sku="',
    "tinylib-timeout": "setTimeout(resolve, ms);",
}
MINIFIED_CODE = {
    "cart-total-loop": "e+=m.price*m.quantity",
    "cart-remember": "return r=i(r,t),r.length",
    "main-console-log": 'console.log("cart total",n(e))',
}


@pytest.fixture(scope="module", params=APP_BUNDLES)
def bundle(request: pytest.FixtureRequest) -> Bundle:
    return load_bundle(str(request.param))


def test_every_marker_maps_there_and_back(bundle: Bundle) -> None:
    seen: set[str] = set()
    for query in ("src/main.ts", "src/cart.ts", "src/api.ts", "tinylib/index.js"):
        source = bundle.source(query)
        for marker, line in markers(source).items():
            lookup = bundle.source_map.generated_positions(source, line)
            assert lookup is not None and not lookup.moved and lookup.positions, (bundle.name, marker)
            for position in lookup.positions:
                back = bundle.source_map.original_position(position.line, position.column)
                assert back is not None and (back.source.url, back.line) == (source.url, line), (marker, position)
            seen.add(marker)
    assert seen == set().union(*APP_MARKERS.values())
    assert bundle.source_map.notes() == ()


def test_markers_sit_in_the_sources_they_name() -> None:
    bundle = load_bundle("esbuild-external")
    for name, expected in APP_MARKERS.items():
        assert set(markers(bundle.source(name))) == expected


@pytest.mark.parametrize(
    ("bundle_name", "code"), [("esbuild-external", READABLE_CODE), ("esbuild-minified", MINIFIED_CODE)]
)
def test_marker_lines_land_on_their_generated_code(bundle_name: str, code: dict[str, str]) -> None:
    bundle = load_bundle(bundle_name)
    lines = split_lines(bundle.script)
    for source in bundle.source_map.sources:
        for marker, line in markers(source).items():
            if marker in code:
                lookup = bundle.source_map.generated_positions(source, line)
                assert lookup is not None
                first = lookup.positions[0]
                assert lines[first.line][first.column :].lstrip().startswith(code[marker]), marker


def test_sources_are_named_from_the_project_and_libraries_are_ignored() -> None:
    external = load_bundle("esbuild-external").source_map
    assert [(s.name, s.url, s.ignored) for s in external.sources] == [
        ("node_modules/tinylib/index.js", "http://127.0.0.1:8000/app/node_modules/tinylib/index.js", True),
        ("app/src/api.ts", "http://127.0.0.1:8000/app/src/api.ts", False),
        ("app/src/cart.ts", "http://127.0.0.1:8000/app/src/cart.ts", False),
        ("app/src/main.ts", "http://127.0.0.1:8000/app/src/main.ts", False),
    ]
    webpack = load_bundle("webpack").source_map
    assert [s.name for s in webpack.sources] == [
        "src/api.ts",
        "src/cart.ts",
        "node_modules/tinylib/index.js",
        "webpack/bootstrap",
        "webpack/runtime/define property getters",
        "webpack/runtime/hasOwnProperty shorthand",
        "webpack/runtime/make namespace object",
        "src/main.ts",
    ]
    assert webpack.sources[1].url == "webpack://cdpilot-fixture/src/cart.ts"  # dot segments go, as in a URL parser
    assert [s.ignored for s in webpack.sources] == [False, False, True, False, False, False, False, False]


def test_renamed_identifiers_keep_their_original_names() -> None:
    bundle = load_bundle("esbuild-external")
    lines = split_lines(bundle.script)
    for renamed, original in (("items2 = []", "items"), ("total2 = ", "total")):
        line = next(number for number, text in enumerate(lines) if renamed in text)
        assert bundle.source_map.name_at(line, lines[line].index(renamed)) == original
    parameter = next(number for number, text in enumerate(lines) if "function total(items3)" in text)
    assert bundle.source_map.name_at(parameter, lines[parameter].index("items3")) == "items"
    assert bundle.source_map.name_at(parameter, lines[parameter].index("total")) is None  # not renamed: no name


def test_minified_names_resolve() -> None:
    bundle = load_bundle("esbuild-minified")
    script = split_lines(bundle.script)[0]
    assert bundle.source_map.name_at(0, script.index("function s(t)") + len("function ")) == "total"
    assert bundle.source_map.name_at(0, script.index("function I(t)") + len("function ")) == "wire"
    position = bundle.source_map.original_position(0, script.index("function I(t)") + len("function "))
    assert position is not None and (position.source.name, position.line, position.name) == (
        "app/src/main.ts",
        25,
        "wire",
    )
    named = bundle.source_map.named_positions(GeneratedPosition(0, 0), GeneratedPosition(1, 0))
    renames = identifier_renames(bundle.script, named)
    assert renames["s"] == "total" and renames["i"] == "addItem" and renames["I"] == "wire"
    assert "t" not in renames  # stands for cents, ms, sku, item, doc, …: ambiguous, so left out


def test_a_function_body_lists_its_renamed_locals() -> None:
    bundle = load_bundle("esbuild-minified")
    script = split_lines(bundle.script)[0]
    start = script.index("function s(t)")
    end = script.index("}", script.index("Math.round"))
    named = bundle.source_map.named_positions(GeneratedPosition(0, start), GeneratedPosition(0, end))
    assert identifier_renames(bundle.script, named) == {"s": "total", "t": "items", "e": "subtotal", "m": "item"}
