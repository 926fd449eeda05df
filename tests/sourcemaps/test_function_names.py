"""A paused function's original name, read from its map at its generated name (or, failing
that, at its parameters, as DevTools reads it): on the committed bundles and on small maps
that state each case plainly."""

from __future__ import annotations

from cdpilot.browser.sourcemaps import GeneratedPosition, function_name, parse_source_map, split_lines
from cdpilot.browser.sourcemaps.source_map import IDENTIFIER
from tests.sourcemaps.bundles import load_bundle
from tests.sourcemaps.map_builder import map_json


def parameters_of(lines: list[str], head: str) -> GeneratedPosition:
    """Where V8 says the function starts: the ``(`` after `head`, as it reports it."""
    line = next(number for number, text in enumerate(lines) if head in text)
    return GeneratedPosition(line, lines[line].index(head) + len(head))


def test_minified_functions_get_their_typescript_names() -> None:
    bundle = load_bundle("esbuild-minified")
    lines = split_lines(bundle.script)
    assert function_name(bundle.source_map, lines, "s", parameters_of(lines, "function s")) == "total"
    assert function_name(bundle.source_map, lines, "l", parameters_of(lines, "function l")) == "onAdd"
    assert function_name(bundle.source_map, lines, "I", parameters_of(lines, "function I")) == "wire"


def test_a_name_the_bundler_kept_is_no_rename_and_an_anonymous_function_stays_anonymous() -> None:
    bundle = load_bundle("esbuild-external")
    lines = split_lines(bundle.script)
    assert function_name(bundle.source_map, lines, "total", parameters_of(lines, "function total")) is None
    minified = load_bundle("esbuild-minified")
    lines = split_lines(minified.script)
    arrow = GeneratedPosition(0, lines[0].index("()=>{f()}"))  # the price button's listener: no name of its own
    assert function_name(minified.source_map, lines, "", arrow) is None


# Generated line 0: `var x=function(a){};o.m=async(b)=>0;function q (c){}` with names at x, m and q.
GENERATED = ["var x=function(a){};o.m=async(b)=>0;function q (c){}"]
NAMED = parse_source_map(
    map_json(
        [[(4, 0, 0, 6, 0), (14, 0, 0, 20), (22, 0, 1, 2, 1), (29, 0, 1, 10), (45, 0, 2, 9, 2), (47, 0, 2, 20)]],
        names=["onSave", "method", "helper"],
    ),
    "http://h/app.js.map",
)


def test_a_name_bound_to_a_function_expression_or_arrow_is_found_before_its_parameters() -> None:
    text = GENERATED[0]
    assert function_name(NAMED, GENERATED, "x", GeneratedPosition(0, text.index("(a)"))) == "onSave"
    assert function_name(NAMED, GENERATED, "o.m", GeneratedPosition(0, text.index("(b)"))) == "method"
    assert function_name(NAMED, GENERATED, "q", GeneratedPosition(0, text.index("(c)"))) == "helper"


def test_a_name_not_found_before_the_parameters_falls_back_to_the_segment_at_them() -> None:
    # The browser calls it `z`, a name not written before its parameters (an assignment further off, say).
    covering = parse_source_map(map_json([[(0, 0, 0, 0, 0)]], names=["render"]), "http://h/app.js.map")
    assert function_name(covering, ["y(a){}"], "z", GeneratedPosition(0, 1)) == "render"  # at its `(`
    assert function_name(covering, ["y=>a"], "z", GeneratedPosition(0, 1)) is None  # not a `(`: not read
    assert function_name(covering, ["y(a){}"], "y", GeneratedPosition(3, 1)) is None  # past the script's end


def test_identifiers_are_read_past_ascii_as_javascript_spells_them() -> None:
    """Letters, _ and $ start a name, digits continue it, and any character past ASCII does
    either (the loose rule is enough to find a name in generated code)."""
    assert IDENTIFIER.findall("obj.méthode") == ["obj", "méthode"]
    assert IDENTIFIER.findall("$_a1 = 1x + ÿ\u0663 + 😀z") == ["$_a1", "x", "ÿ\u0663", "😀z"]
    assert IDENTIFIER.findall("get size() {}\x7f") == ["get", "size"]
