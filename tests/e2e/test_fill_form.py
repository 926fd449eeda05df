"""fill_form (smart: fill_element with fields) through the real server, in both modes, on a real Chromium.

Every test reads back what the page holds (values, checked states, the events its handlers
saw), not only the answer. One server and browser per mode serve the whole module.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.harness import ModeClient, text_of
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

RECORD_EVENTS = """<script>window.__events = [];
for (const el of document.querySelectorAll("input, select, textarea, [contenteditable]"))
  for (const type of ["click", "input", "change"]) el.addEventListener(type, () => __events.push(el.id + ":" + type));
</script>"""

PAGES = {
    "/form": (
        200,
        "text/html",
        html(
            "Form",
            """<form onsubmit="return false">
  <input id="name" value="old name"><input id="email" type="email"><input id="password" type="password">
  <textarea id="bio">old bio</textarea>
  <select id="country" onchange="console.log('country ' + this.value)"><option value="">Choose</option>
    <option value="fr">France</option><option value="de">Germany</option></select>
  <select id="colors" multiple><option value="r">Red</option><option value="g" selected>Green</option>
    <option value="b">Blue</option></select>
  <label><input id="terms" type="checkbox"> Terms</label><label><input id="news" type="checkbox" checked> News</label>
  <label><input id="free" type="radio" name="plan" checked> Free</label>
  <label><input id="pro" type="radio" name="plan"> Pro</label>
  <input id="when" type="date" value="2026-01-01"><input id="at" type="time">
  <input id="volume" type="range" min="0" max="10" value="5">
  <div id="notes" contenteditable="true">old notes</div>
  <input id="locked" disabled value="kept">
</form>"""
            + RECORD_EVENTS,
        ),
    ),
    "/untaken": (
        200,
        "text/html",
        html(
            "Untaken",
            """<input id="qty" type="number"><input id="zip" maxlength="4"><input id="ref" readonly value="R-1">
<input id="off" disabled><input id="digits" oninput="this.value = this.value.replace(/[^0-9]/g, '')">""",
        ),
    ),
    "/sizes": (
        200,
        "text/html",
        html(
            "Sizes",
            """<form><label><input type="radio" name="size" value="S" checked> Small</label>
<label><input type="radio" name="size" value="M"> Medium</label>
<label><input type="radio" name="size" value="L"> Large</label>
<label><input id="gift" type="checkbox"> Gift</label></form>""",
        ),
    ),
    "/counted": (
        200,
        "text/html",
        html(
            "Counted",
            """<input id="name"><input id="email" type="email"><textarea id="bio"></textarea>
<select id="country"><option value="fr">France</option><option value="de">Germany</option></select>
<label><input id="terms" type="checkbox"> Terms</label><label><input id="pro" type="radio" name="plan"> Pro</label>
<input id="when" type="date"><input id="volume" type="range"><button id="elsewhere">Elsewhere</button>
<script>window.changes = {};
document.addEventListener("change", e => { changes[e.target.id] = (changes[e.target.id] || 0) + 1; });
</script>""",
        ),
    ),
    "/alerting": (
        200,
        "text/html",
        html(
            "Alerting",
            """<input id="first"><label><input id="agree" type="checkbox" onchange="alert('Thanks')"> Agree</label>
<input id="last">""",
        ),
    ),
    "/custom": (
        200,
        "text/html",
        html(
            "Custom",
            """<style>.pill input { position: absolute; opacity: 0; width: 0; height: 0; }
.pill span { display: inline-block; padding: 6px 12px; border: 1px solid #888; }
.pill input:checked + span { background: #036; color: white; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.box { display: inline-block; padding: 6px 12px; border: 1px solid #888; }</style>
<form><fieldset><legend>Size</legend>
<label class="pill"><input type="radio" name="size" value="S" id="size-s" checked><span>Small</span></label>
<label class="pill"><input type="radio" name="size" value="M" id="size-m"><span>Medium</span></label>
<label class="pill"><input type="radio" name="size" value="L" id="size-l"><span>Large</span></label>
</fieldset>
<label class="pill"><input type="checkbox" id="gift"><span>Gift wrap</span></label>
<input type="checkbox" id="news" class="sr-only"><label for="news" class="box">Newsletter</label>
<input type="radio" name="ship" value="post" id="post" class="sr-only" checked>
<label for="post" class="box">Post</label>
<input type="radio" name="ship" value="courier" id="courier" class="sr-only">
<label for="courier" class="box">Courier</label></form>
<script>window.__clicks = [];
for (const el of document.querySelectorAll("input"))
  el.addEventListener("click", e => __clicks.push(el.id + (e.isTrusted ? ":trusted" : ":synthetic")));
</script>""",
        ),
    ),
}

EVERY_KIND: list[dict[str, Any]] = [
    {"selector": "#name", "value": "Ada"},
    {"selector": "#email", "value": "ada@example.test"},
    {"selector": "#password", "value": "hunter2"},
    {"selector": "#bio", "value": "New bio"},
    {"selector": "#country", "value": "France"},
    {"selector": "#colors", "value": ["r", "Blue"]},
    {"selector": "#terms", "value": True},
    {"selector": "#news", "value": True},
    {"selector": "#pro", "value": True},
    {"selector": "#when", "value": "2026-11-25"},
    {"selector": "#at", "value": "13:45"},
    {"selector": "#volume", "value": "8"},
    {"selector": "#notes", "value": "new notes"},
    {"selector": "#locked", "value": "changed"},
]
PAGE_STATE = """(() => {
  const $ = s => document.querySelector(s);
  return [$('#name').value, $('#email').value, $('#password').value, $('#bio').value, $('#country').value,
    [...$('#colors').selectedOptions].map(o => o.value), $('#terms').checked, $('#news').checked,
    $('#free').checked, $('#pro').checked, $('#when').value, $('#at').value, $('#volume').value,
    $('#notes').textContent, $('#locked').value];
})()"""


async def goto(client: ModeClient, site_url: str, path: str) -> None:
    await client.ok("navigate", url=site_url + path)


async def test_one_call_fills_every_kind_of_field(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/form")
    kind, text = await client.error("fill_form", fields=EVERY_KIND)  # #locked failed: the call is an error
    assert kind == "STATE", text
    lines = text.splitlines()
    assert lines[:15] == [
        "Filled 13 of 14 fields:",
        '  #name (text): "Ada"',
        '  #email (email): "ada@example.test"',
        "  #password (password): 7 characters",
        '  #bio (textarea): "New bio"',
        '  #country (select): "France" (value "fr")',
        '  #colors (select multiple): "Red" (value "r"), "Blue" (value "b")',
        "  #terms (checkbox): checked",
        "  #news (checkbox): checked",
        "  #pro (radio): checked",
        '  #when (date): "2026-11-25"',
        '  #at (time): "13:45"',
        '  #volume (range): "8"',
        '  #notes (contenteditable): "new notes"',
        "  #locked (text): It is disabled. Do what enables it first, then fill it again.",
    ], text
    assert lines[15] == "Console: [log] country fr", text  # the form's effects, once, after its fields
    assert "hunter2" not in text
    assert await client.js(PAGE_STATE) == [
        "Ada",
        "ada@example.test",
        "hunter2",
        "New bio",
        "fr",
        ["r", "b"],
        True,
        True,
        False,
        True,
        "2026-11-25",
        "13:45",
        "8",
        "new notes",
        "kept",
    ]
    events = await client.js("window.__events")
    assert [e for e in events if e.startswith(("terms:", "news:", "free:", "pro:"))] == [
        "terms:click",
        "terms:input",
        "terms:change",
        "pro:click",
        "pro:input",
        "pro:change",
    ], events  # a checkbox already as asked is not clicked
    # Typed as fill_element types: input, then one change (the browser's own at the blur does not repeat it).
    assert [e for e in events if e.startswith("email:")] == ["email:input", "email:change"], events


async def test_a_bad_field_says_why_and_the_others_are_filled(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/form")
    fields = [
        {"selector": "#nope", "value": "x"},
        {"selector": "#terms", "value": "yes"},
        {"selector": "#free", "value": False},
        {"selector": "#country", "value": "Atlantis"},
        {"selector": "#name", "value": "Grace"},
        {"selector": "#colors", "value": True},
    ]
    lines = (await client.error("fill_form", fields=fields))[1].splitlines()
    assert lines[:7] == [
        "Filled 1 of 6 fields:",
        "  #nope: No element matches the selector. Call query_elements() to see what exists, or wait_for() if it "
        "appears later.",
        '  #terms (checkbox): Give true, false or "on", not a string.',
        "  #free (radio): False cannot uncheck a radio; give true to another radio of its group.",
        '  #country (select): No option has the value or label "Atlantis". Options (value (label)): "" (Choose), '
        '"fr" (France), "de" (Germany). Give one of the values or labels above.',
        '  #name (text): "Grace"',
        "  #colors (select multiple): Give a string or a list of strings (options' values or labels), not true or "
        "false.",
    ], lines
    assert await client.js("[document.querySelector('#name').value, document.querySelector('#terms').checked]") == [
        "Grace",
        False,
    ]


async def test_a_value_the_input_refuses_is_said_with_what_it_holds(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/form")
    fields = [{"selector": "#when", "value": "25/11/2026"}, {"selector": "#volume", "value": "15"}]
    lines = (await client.error("fill_form", fields=fields))[1].splitlines()
    assert lines[:3] == [
        "Filled 0 of 2 fields:",
        '  #when (date): The input turned "25/11/2026" into "", so it was left as it was ("2026-01-01"). Give a '
        "value like 2026-11-25.",
        '  #volume (range): The input turned "15" into "10", so it was left as it was ("5"). Give a number from 0 '
        "to 10 in steps of 1.",
    ], lines
    assert await client.js("[document.querySelector('#when').value, document.querySelector('#volume').value]") == [
        "2026-01-01",
        "5",
    ]
    assert await client.js("window.__events.filter(e => /^(when|volume):/.test(e))") == []


async def test_empty_values_clear_what_the_field_holds(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/form")
    fields = [
        {"selector": "#name", "value": ""},
        {"selector": "#notes", "value": ""},
        {"selector": "#colors", "value": []},
    ]
    lines = (await client.ok("fill_form", fields=fields)).splitlines()
    assert lines[:4] == [
        "Filled 3 of 3 fields:",
        '  #name (text): ""',
        '  #notes (contenteditable): ""',
        "  #colors (select multiple): nothing selected",
    ], lines
    state = "(q => [q('#name').value, q('#notes').textContent, q('#colors').selectedOptions.length])"
    assert await client.js(state + "(s => document.querySelector(s))") == ["", "", 0]


async def test_a_dialog_a_field_opens_stops_the_form_and_is_reported(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/alerting")
    fields = [
        {"selector": "#first", "value": "a"},
        {"selector": "#agree", "value": True},
        {"selector": "#last", "value": "z"},
    ]
    lines = (await client.error("fill_form", fields=fields))[1].splitlines()
    answer = 'interact(action="handle_dialog")' if client.mode == "smart" else "handle_dialog()"
    assert lines[:5] == [
        "Filled 1 of 3 fields:",
        '  #first (text): "a"',
        "  #agree: Unfinished: a dialog opened while it was being filled (below); fill it again once that is dealt "
        "with.",
        "  #last: Not filled: the form stopped at an earlier field.",
        f'Opened an alert dialog: "Thanks" — answer it with {answer}.',
    ], lines
    await client.ok("handle_dialog")
    assert await client.js("[document.querySelector('#agree').checked, document.querySelector('#last').value]") == [
        True,
        "",
    ]


async def test_smart_fill_element_takes_fields_and_routes_them_to_fill_form(client: ModeClient, site_url: str) -> None:
    """The raw calls each mode's client makes: smart's fill_element does both jobs, legacy has two tools."""
    await goto(client, site_url, "/form")
    tools = {tool.name: tool for tool in (await client.client.list_tools()).tools}
    fields = [{"selector": "#email", "value": "raw@example.test"}]
    if client.mode == "smart":
        assert "fill_form" not in tools
        schema = tools["fill_element"].input_schema["properties"]
        assert "fields" in schema and "text" in schema and "timeout_ms" not in schema
        result = await client.client.call_tool("fill_element", {"fields": fields})
        refused = await client.client.call_tool("fill_element", {"fields": fields, "timeout_ms": 100})
        assert refused.is_error and "timeout_ms" in text_of(refused), text_of(refused)
    else:
        assert "fields" not in tools["fill_element"].input_schema["properties"]
        result = await client.client.call_tool("fill_form", {"fields": fields})
    assert not result.is_error and text_of(result).startswith("Filled 1 of 1 field:\n  #email (email)"), result
    assert await client.js("document.querySelector('#email').value") == "raw@example.test"
    text = await client.ok("fill_element", selector="#email", text="typed@example.test")
    assert text.startswith('Filled input#email with "typed@example.test".'), text
    assert await client.js("document.querySelector('#email').value") == "typed@example.test"


async def test_a_field_whose_value_did_not_take_is_a_failure_and_the_call_an_error(
    client: ModeClient, site_url: str
) -> None:
    """None of the five holds what was given: the count is 0 and the call is an error, each field saying why."""
    await goto(client, site_url, "/untaken")
    fields = [
        {"selector": "#qty", "value": "abc"},
        {"selector": "#zip", "value": "123456"},
        {"selector": "#ref", "value": "R-2"},
        {"selector": "#off", "value": "x"},
        {"selector": "#digits", "value": "abc"},
    ]
    kind, text = await client.error("fill_form", fields=fields)
    assert kind == "STATE", text
    assert text.splitlines()[:6] == [
        "Filled 0 of 5 fields:",
        '  #qty (number): It holds "" after "abc" was typed: a number field takes only a number. Give a number, like '
        "42 or 3.5.",
        '  #zip (text): It holds "1234" after "123456" was typed: it takes at most 4 characters (maxlength). Give a '
        "value that fits.",
        "  #ref (text): It is read-only. Fill an editable field; query_elements() lists them.",
        "  #off (text): It is disabled. Do what enables it first, then fill it again.",
        '  #digits (text): It holds "" after "abc" was typed: the page changed or refused it (its own input handler '
        "or mask). Give the value in the form the page keeps; inspect_element() shows the field's attributes.",
    ], text
    assert await client.js("['qty', 'zip', 'ref', 'off', 'digits'].map(id => document.getElementById(id).value)") == [
        "",
        "1234",
        "R-1",
        "",
        "",
    ]


async def test_a_radio_group_is_set_by_its_name_and_a_value_or_label(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/sizes")
    fields = [{"selector": "input[name=size]", "value": "L"}, {"selector": "#gift", "value": "on"}]
    text = await client.ok("fill_form", fields=fields)
    assert text.splitlines()[:3] == [
        "Filled 2 of 2 fields:",
        '  input[name=size] (radio): checked "Large" (value "L")',
        "  #gift (checkbox): checked",
    ], text
    checked = "[...document.querySelectorAll('[name=size]')].filter(r => r.checked).map(r => r.value)"
    assert await client.js(checked) == ["L"]
    text = await client.ok("fill_form", fields=[{"selector": "[name=size]", "value": "medium"}])
    assert text.splitlines()[1] == '  [name=size] (radio): checked "Medium" (value "M")', text
    assert await client.js(checked) == ["M"]
    kind, text = await client.error("fill_form", fields=[{"selector": "[name=size]", "value": "XL"}])
    assert kind == "STATE", text
    assert text.splitlines()[:2] == [
        "Filled 0 of 1 field:",
        '  [name=size] (radio): No radio of its group has the value or label "XL". Radios (value (label)): "S" '
        '(Small), "M" (Medium), "L" (Large). Give one of the values or labels above.',
    ], text
    assert await client.js(checked) == ["M"]


async def test_each_field_fires_exactly_one_change(client: ModeClient, site_url: str) -> None:
    """The page counts its change events once the focus has left every field (the browser's own blur change too)."""
    await goto(client, site_url, "/counted")
    fields = [
        {"selector": "#name", "value": "Ada"},
        {"selector": "#email", "value": "ada@example.test"},
        {"selector": "#bio", "value": "Hello"},
        {"selector": "#country", "value": "de"},
        {"selector": "#terms", "value": True},
        {"selector": "#pro", "value": True},
        {"selector": "#when", "value": "2026-11-25"},
        {"selector": "#volume", "value": "80"},
    ]
    assert (await client.ok("fill_form", fields=fields)).startswith("Filled 8 of 8 fields:")
    await client.ok("click_element", selector="#elsewhere")
    each_once = {"name": 1, "email": 1, "bio": 1, "country": 1, "terms": 1, "pro": 1, "when": 1, "volume": 1}
    assert await client.js("changes") == each_once
    # fill_element, one field at a time, the same: one change each once the focus moves on.
    await goto(client, site_url, "/counted")
    await client.ok("fill_element", selector="#name", text="Grace")
    await client.ok("fill_element", selector="#bio", text="Hi")
    await client.ok("fill_element", selector="#when", text="2026-11-26")
    await client.ok("click_element", selector="#elsewhere")
    assert await client.js("changes") == {"name": 1, "bio": 1, "when": 1}


async def test_a_long_failed_form_is_cut_like_any_answer(client: ModeClient, site_url: str) -> None:
    """Fifty fields that all fail make an error answer over the size budget: cut, saying so, with its count."""
    await goto(client, site_url, "/untaken")
    fields = [{"selector": f"#missing-field-number-{n:02d}-" + "x" * 40, "value": "v"} for n in range(50)]
    kind, text = await client.error("fill_form", fields=fields)
    assert kind == "STATE", text
    assert len(text) <= 5000 and "…[+" in text, text
    assert text.startswith("Filled 0 of 50 fields:\n  #missing-field-number-00-"), text


CUSTOM_STATE = (
    "['size-s', 'size-m', 'size-l', 'gift', 'news', 'post', 'courier'].map(id => document.getElementById(id).checked)"
)


async def test_hidden_custom_inputs_are_filled_through_their_labels(client: ModeClient, site_url: str) -> None:
    """Custom-styled radios and checkboxes: an input of no size and opacity 0 in a wrapping label, and a 1-pixel
    clipped input with a label[for]. Each is set by a real click on its label (the page sees a trusted click on
    the input, as from a user's), and its state is read back."""
    await goto(client, site_url, "/custom")
    fields = [
        {"selector": "input[name=size]", "value": "Large"},
        {"selector": "#gift", "value": True},
        {"selector": "#news", "value": "on"},
        {"selector": "[name=ship]", "value": "courier"},
    ]
    text = await client.ok("fill_form", fields=fields)
    assert text.splitlines()[:5] == [
        "Filled 4 of 4 fields:",
        '  input[name=size] (radio): checked "Large" (value "L"), set through its label label.pill "Large"',
        '  #gift (checkbox): checked, set through its label label.pill "Gift wrap"',
        '  #news (checkbox): checked, set through its label label.box "Newsletter"',
        '  [name=ship] (radio): checked "Courier" (value "courier"), set through its label label.box "Courier"',
    ], text
    assert await client.js(CUSTOM_STATE) == [False, False, True, True, True, False, True]
    assert await client.js("__clicks") == ["size-l:trusted", "gift:trusted", "news:trusted", "courier:trusted"]
    # Already as asked: no click, and nothing said of a label.
    text = await client.ok("fill_form", fields=[{"selector": "#gift", "value": True}])
    assert text.splitlines()[1] == "  #gift (checkbox): checked", text
    assert len(await client.js("__clicks")) == 4


async def test_a_click_on_a_hidden_custom_input_goes_through_its_label(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/custom")
    text = await client.ok("click_element", selector="#gift")
    assert text.splitlines()[0] == (
        'Clicked input#gift through its label label.pill "Gift wrap" (the input itself is hidden); it is now checked.'
    ), text
    text = await client.ok("click_element", selector="#news")
    assert text.splitlines()[0] == (
        'Clicked input#news through its label label.box "Newsletter" (the input itself is hidden); it is now checked.'
    ), text
    text = await client.ok("click_element", selector="#size-m")
    assert text.splitlines()[0].endswith("(the input itself is hidden); it is now checked."), text
    assert await client.js(CUSTOM_STATE) == [False, True, False, True, True, True, False]
    assert await client.js("__clicks") == ["gift:trusted", "news:trusted", "size-m:trusted"]
