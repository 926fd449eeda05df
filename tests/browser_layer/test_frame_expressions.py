"""Reading frame expressions and original sources as tokens (pure functions, no browser): which
identifiers of an expression name variables, how they are replaced by the bundle's names, and
what an original function and file declare."""

from __future__ import annotations

import pytest

from cdpilot.browser.debugger.frame_expressions import free_references, offset_of, original_declarations, rewritten
from cdpilot.browser.js_tokens import declared_names, js_tokens
from tests.support.bundle_site import APP_SOURCES, ts_line


def references(expression: str) -> list[str]:
    tokens = js_tokens(expression)
    return [found.token.text for found in free_references(tokens, declared_names(tokens))]


@pytest.mark.parametrize(
    ("expression", "names"),
    [
        ("items.length + subtotal", ["items", "subtotal"]),
        ("items?.[0].price ?? fallback", ["items", "fallback"]),
        ("cart.items[index].total", ["cart", "index"]),
        ("typeof total === 'undefined' && this.total", ["total"]),
        ("\"total\" + 'items' + `subtotal`", []),
        ("`${items.length} of ${`${total}`}`", ["items", "total"]),
        ("// items\nsubtotal /* total */", ["subtotal"]),
        ("/total[/]items/gi.test(item)", ["item"]),
        ("a / b / c", ["a", "b", "c"]),
        ("i++ / 2", ["i"]),
        ("({items: count, [key]: value, total})", ["count", "key", "value", "total"]),
        ("flag ? items : total", ["flag", "items", "total"]),
        ("flag ?.5 : other", ["flag", "other"]),
        ("obj.#secret + #secret in obj", ["obj", "obj"]),
        ("new.target ?? new Date(now)", ["Date", "now"]),
    ],
)
def test_the_identifiers_that_name_variables(expression: str, names: list[str]) -> None:
    assert references(expression) == names


def test_names_an_expression_binds_itself_are_not_looked_up() -> None:
    assert references("items.map(item => item.price * quantity)") == ["items", "quantity"]
    assert references("items.filter((a, {b, c: d}, ...rest) => a + b + d + rest + e)") == ["items", "e"]
    assert references("(function f(x) { return x + y })()") == ["y"]
    assert references("let z = 1, w = q; z + w") == ["q"]
    assert references("try { risky() } catch (error) { error }") == ["risky"]


def test_references_are_replaced_and_a_shorthand_keeps_its_key() -> None:
    expression = "({items}) && items.length + total - subtotal['items']"
    tokens = js_tokens(expression)
    found = free_references(tokens, declared_names(tokens))
    translated = rewritten(expression, found, {"items": "t", "total": "total", "subtotal": "e"})
    assert translated.written == expression
    assert translated.evaluated == "({items: t}) && t.length + total - e['items']"
    assert translated.renamed == (("items", "t"), ("subtotal", "e"))  # total kept its name: nothing to say


def test_a_typescript_file_declares_its_imports_functions_parameters_and_variables() -> None:
    main = declared_names(js_tokens((APP_SOURCES / "main.ts").read_text()))
    assert {"formatPrice", "loadPrice", "addItem", "remember", "total", "Item"} <= main  # imported
    assert {"items", "onAdd", "item", "subtotal", "price", "wire", "doc"} <= main
    assert not {"document", "console", "sku", "getElementById"} & main  # used, never declared


def test_declarations_of_every_form() -> None:
    source = """
    import fallback, { a as b, type T, c } from "./lib";
    import * as everything from "./all";
    const { d, e: f, g = h, ...i } = obj, [j, , k] = list;
    for (let l = 0, m = 1; l < m; l++) {}
    for (const n of o) {}
    function p(q, { r, s: t }: Shape = {}, ...u: V[]) {}
    const w = async (x, y = z) => x;
    class Cart {}
    enum Kind { One }
    try {} catch ({ message }) {}
    let plain
    notDeclared(alpha, beta)
    """
    assert declared_names(js_tokens(source)) == set(
        [
            "fallback",
            "b",
            "T",
            "c",
            "everything",
            "d",
            "f",
            "g",
            "i",
            "j",
            "k",
            "l",
            "m",
            "n",
            "p",
            "q",
            "r",
            "t",
            "u",
            "w",
            "x",
            "y",
            "Cart",
            "Kind",
            "message",
            "plain",
        ]
    )


def test_the_declarations_of_the_function_around_the_pause() -> None:
    cart = (APP_SOURCES / "cart.ts").read_text()
    declared_at = ts_line("cart.ts", "cart-total-loop") - 3  # export function total(items: Item[]): number {
    total = offset_of(cart, declared_at, len("export function ") + 1)
    pause = offset_of(cart, ts_line("cart.ts", "cart-total-loop"), 5)
    found = original_declarations(cart, total, pause)
    assert found.in_function == frozenset({"items", "subtotal", "item", "total"})
    assert {"addItem", "remember", "items", "item", "total", "subtotal"} <= found.in_file
    elsewhere = offset_of(cart, ts_line("cart.ts", "cart-add-push") - 1, 1)  # addItem's body ends before the pause
    assert original_declarations(cart, elsewhere, pause).in_function is None
    assert original_declarations(cart, None, pause).in_function is None


def test_nested_functions_keep_their_own_declarations() -> None:
    source = (
        "function outer(a) {\n"
        "  const b = 1;\n"
        "  function inner(c) { const d = 2; }\n"
        "  list.map((e) => { const f = e; });\n"
        "  return b; // pause here\n"
        "}\n"
    )
    pause = source.index("return b")
    assert original_declarations(source, 0, pause).in_function == frozenset({"a", "b", "inner"})
    typed = "function typed(a: number): Promise<{ b: C }> | { d: E } {\n  const f = 1; // pause here\n}\n"
    assert original_declarations(typed, 0, typed.index("// pause")).in_function == frozenset({"a", "f"})
    arrow = "const g = (h) => h + 1;"
    assert original_declarations(arrow, arrow.index("(h)"), arrow.index("h + 1")).in_function == frozenset({"h"})


def test_offsets_count_columns_in_utf16_units() -> None:
    source = "first\r\nsecond 😀 x\nthird"
    assert source[offset_of(source, 2, 1)] == "s"
    assert source[offset_of(source, 2, 11)] == "x"  # the emoji is two units wide
    assert source[offset_of(source, 3, 3)] == "i"
