"""What evaluate answers, through the real server in both modes: values an agent can read (in
the page and in a paused frame alike), long values cut or saved whole, and time limits that hold
(a busy loop is stopped, a slow promise is awaited as long as asked, with progress)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient, spelled, text_of
from tests.e2e.test_progress import Collected

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    "/values": (
        200,
        "text/html",
        b"<title>Values</title><h1 id=title>Quarterly report</h1>"
        b"<ul><li>Apples</li><li class=sale>Pears</li></ul><span id=total>12</span>"
        b"<script src=/tally.js></script>",
    ),
    "/tally.js": (
        200,
        "text/javascript",
        b"function tally() {\n  const total = document.getElementById('total');\n  debugger;\n  return total;\n}\n",
    ),
}
TOTAL = 'span#total "12"'


@pytest.fixture
async def values_page(client: ModeClient, site_url: str) -> ModeClient:
    await client.ok("navigate", url=site_url + "/values")
    return client


async def test_elements_node_lists_and_maps_read_as_what_they_are(values_page: ModeClient) -> None:
    client = values_page
    assert await client.ok("evaluate_js", expression="document.querySelector('h1')") == 'h1#title "Quarterly report"'
    assert (
        await client.ok("evaluate_js", expression="document.querySelectorAll('li')")
        == 'NodeList(2) [li "Apples",li.sale "Pears"]'
    )
    texts = await client.ok("evaluate_js", expression="[...document.querySelectorAll('li')].map(li => li.textContent)")
    assert texts == '["Apples","Pears"]'
    map_text = await client.ok("evaluate_js", expression="new Map([['a', 1], ['b', document.querySelector('li')]])")
    assert map_text == 'Map(2) {"a"=>1,"b"=>li "Apples"}'
    assert await client.js("({a: [1, 'é'], b: null})") == {"a": [1, "é"], "b": None}  # plain data is JSON


KINDS = [
    ("new Date(0)", "Date(1970-01-01T00:00:00.000Z)"),
    ("/ab+c/gi", "/ab+c/gi"),
    ("(function add(a, b) { return a + b })", "[Function: add, arity 2]"),
    ("(async (x) => x)", "[AsyncFunction: (anonymous), arity 1]"),
    ("(class Point {})", "[class Point]"),
    ("new (class Point { constructor() { this.x = 1; this.y = 2 } })()", 'Point {"x":1,"y":2}'),
    (
        "({get total() { return 1 }, n: NaN, big: 12n, s: Symbol('k'), u: undefined})",
        '{"total":[Getter],"n":NaN,"big":12n,"s":Symbol(k),"u":undefined}',
    ),
    ("new Set([1, 'a'])", 'Set(2) {1,"a"}'),
    ("new Uint8Array([1, 2, 3])", "Uint8Array(3) [1,2,3]"),
    ("Object.assign(Object.create(null), {a: 1})", '{"a":1}'),
    ("({error: new RangeError('too far')})", '{"error":[RangeError: too far]}'),
    ("document.querySelector('h1').firstChild", '#text "Quarterly report"'),
    ("document.querySelector('h1').attributes[0]", 'attribute id "title"'),
    ("Promise.resolve(5)", "5"),
    ("-0", "-0"),
    ("undefined", "undefined"),
    ("window", "Window"),
    ("new Proxy({}, {})", "Proxy(Object)"),
]


async def test_every_kind_of_value_reads_as_what_it_is(values_page: ModeClient) -> None:
    for expression, expected in KINDS:
        assert await values_page.ok("evaluate_js", expression=expression) == expected, expression
    rect = await values_page.ok("evaluate_js", expression="document.querySelector('h1').getBoundingClientRect()")
    assert rect.startswith('DOMRect {"x":8,"y":') and '"width":' in rect and '"left":8}' in rect
    error = await values_page.ok("evaluate_js", expression="(function make() { return new TypeError('bad') })()")
    assert error.startswith("TypeError: bad\n    at make (<anonymous>:1:"), error


async def test_the_page_and_a_paused_frame_read_a_value_alike(values_page: ModeClient) -> None:
    client = values_page
    assert await client.ok("evaluate_js", expression="document.getElementById('total')") == TOTAL
    await client.ok("debugger_enable")
    try:
        await client.ok("evaluate_js", expression="setTimeout(tally); 'scheduled'")
        assert "#0 tally tally.js" in await client.stack_once_paused()
        assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="total") == TOTAL
        assert await client.ok("evaluate_js", expression="document.getElementById('total')") == TOTAL
        cyclic = "(() => { const a = {name: 'a'}; a.self = a; return a })()"
        assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression=cyclic) == (
            '{"name":"a","self":[Circular]}'
        )
        kind, text = await client.error(
            "debugger_evaluate_on_call_frame", call_frame_id=0, expression="while (true) {}", timeout_ms=500
        )
        assert kind == "EXECUTION" and "did not finish within 500 ms, so it was stopped" in text
        assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="total.id") == '"total"'
    finally:
        await client.ok("debugger_disable")


async def test_a_long_value_is_cut_with_its_size_and_save_to_writes_it_whole(
    values_page: ModeClient, output_dir: Path
) -> None:
    client = values_page
    text = await client.ok("evaluate_js", expression="'x'.repeat(20000)")
    assert len(text) <= 5000 and text.startswith('"xxxx')
    assert "(Cut: the value is a string of 20000 characters; the answer shows the first " in text
    assert "pass save_to (a file name) to write the whole value to a file" in text

    text = await client.ok("evaluate_js", expression="'x'.repeat(20000)", save_to="values/long.txt")
    saved = output_dir / client.mode / "values" / "long.txt"
    assert text.startswith(f'Saved the string (20000 characters) to {saved}.\nIt starts: "xxx'), text
    assert saved.read_text() == "x" * 20000

    text = await client.ok("evaluate_js", expression="Array.from({length: 3000}, (_, i) => i)")
    assert len(text) <= 5000 and text.startswith("[0,1,2,")
    assert "(Cut: the value is an array of 3000 items; its description is over " in text

    kind, text = await client.error("evaluate_js", expression="1", save_to="../outside.txt")
    assert kind == "VALIDATION" and "save_to: expected a relative path inside the output directory" in text


async def test_a_throw_and_a_cycle_get_bounded_true_answers(values_page: ModeClient) -> None:
    client = values_page
    cyclic = "(() => { const a = {name: 'a', list: [1]}; a.list.push(a); a.self = a; return a })()"
    assert await client.ok("evaluate_js", expression=cyclic) == '{"name":"a","list":[1,[Circular]],"self":[Circular]}'
    kind, text = await client.error(
        "evaluate_js", expression="(function check() { throw new TypeError('bad input') })()"
    )
    assert kind == "EXECUTION" and len(text) < 1000
    assert text.startswith("The expression threw: TypeError: bad input\n    at check (<anonymous>:1:"), text
    kind, text = await client.error("evaluate_js", expression="(() => { throw {code: 7} })()")
    assert kind == "EXECUTION" and text.startswith("The expression threw: {code: 7}")
    kind, text = await client.error("evaluate_js", expression="Promise.reject(new RangeError('too far'))")
    assert kind == "EXECUTION" and text.startswith("The promise it returned was rejected with: RangeError: too far")


async def test_a_busy_loop_is_stopped_and_the_page_answers_again(values_page: ModeClient) -> None:
    client = values_page
    kind, text = await client.error("evaluate_js", expression="while (true) {}", timeout_ms=1000)
    assert kind == "EXECUTION"
    assert "did not finish within 1000 ms, so it was stopped; the page is free again." in text
    assert "A higher timeout_ms (up to 120000) gives it more time." in text  # a parameter evaluate has in both modes
    assert await client.ok("evaluate_js", expression="document.title") == '"Values"'


async def test_a_promise_is_awaited_as_long_as_asked_with_progress(values_page: ModeClient) -> None:
    client = values_page
    collected = Collected()
    arguments = {"expression": "new Promise(r => setTimeout(() => r('done'), 7000))", "timeout_ms": 10000}
    name, args = spelled(client.mode, "evaluate_js", arguments)
    result = await client.client.call_tool(name, args, progress_callback=collected)
    assert not result.is_error and text_of(result) == '"done"', text_of(result)
    collected.check()
    assert all(message and message.startswith("Awaiting the promise: ") for _, _, message in collected.received)

    kind, text = await client.error("evaluate_js", expression="new Promise(() => {})", timeout_ms=300)
    assert kind == "EXECUTION" and "The promise did not settle within 300 ms." in text
    assert "the work it started (timers, requests) may still go on in the page" in text
    kind, text = await client.error("evaluate_js", expression="1", timeout_ms=120001)
    assert kind == "VALIDATION" and "timeout_ms: expected less than or equal to 120000" in text
