"""Drag and drop through the real server in both modes, with the kinds of drag pages implement:
an HTML5 ``draggable`` list (dragstart, dragover, drop with a DataTransfer), cards and a
slider moved by the page's own pointer or mouse event code, drops onto an element and by an
offset. Each test reads back what the PAGE itself reports, and that no button is left down.
"""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

# The input events the pages see (not the moves) go into window.seen: a mouseup says the button was let go.
SEEN = """<script>
window.seen = [];
for (const type of ["mousedown", "mouseup", "click", "pointerdown", "pointerup", "dragstart", "drop", "dragend"])
  document.addEventListener(type, (e) => seen.push(type), true);
</script>"""

PAGES = {
    "/list": (
        200,
        "text/html",
        html(
            "Sortable list",
            """<ul id="list">
  <li id="a" draggable="true">Apple</li><li id="b" draggable="true">Banana</li><li id="c" draggable="true">Cherry</li>
</ul>
<ul id="done" style="min-height: 40px; border: 1px solid"></ul>
<div id="far" style="margin-top: 3000px">Far below</div>
<script>
let dragged = null;
document.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", e.target.id); });
for (const zone of document.querySelectorAll("ul")) {
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    const item = document.getElementById(e.dataTransfer.getData("text/plain"));
    const onto = e.target.closest("li");
    if (!onto) zone.append(item);
    else if (item.compareDocumentPosition(onto) & Node.DOCUMENT_POSITION_FOLLOWING) onto.after(item);
    else onto.before(item);
  });
}
window.order = (id) => [...document.getElementById(id).children].map((li) => li.id).join(",");
</script>"""
            + SEEN,
        ),
    ),
    "/handles": (
        200,
        "text/html",
        html(
            "Sortable by handles",
            """<ul id="sortable" style="list-style: none">
  <li id="a"><span class="handle">≡</span> Apple</li><li id="b"><span class="handle">≡</span> Banana</li>
  <li id="c"><span class="handle">≡</span> Cherry</li>
</ul>
<script>
// Only the handle starts a drag, as SortableJS's handle option does; the item is dropped after the one let go on.
let item = null;
document.addEventListener("pointerdown", (e) => {
  item = e.target.classList.contains("handle") ? e.target.closest("li") : null;
});
document.addEventListener("pointerup", (e) => {
  const onto = document.elementFromPoint(e.clientX, e.clientY)?.closest("li");
  if (item && onto && onto !== item) onto.after(item);
  item = null;
});
window.order = (id) => [...document.getElementById(id).children].map((li) => li.id).join(",");
</script>""",
        ),
    ),
    "/board": (
        200,
        "text/html",
        html(
            "Board",
            """<div id="board" style="position: relative; height: 120px">
  <div id="card" style="position: absolute; left: 10px; top: 10px; width: 80px; height: 40px; background: #ccc;
    touch-action: none">Card</div>
  <div id="note" style="position: absolute; left: 200px; top: 10px">Note</div>
</div>
<div id="zone" style="height: 100px; width: 300px; border: 1px solid">Drop here</div>
<div id="track" style="position: relative; width: 400px; height: 20px; margin-top: 20px; background: #eee">
  <div id="knob" style="position: absolute; left: 0; width: 20px; height: 20px; background: #333"></div>
</div>
<p id="value">0</p>
<div id="alarm" onmousedown="alert('pressed')" style="width: 60px">Alarm</div>
<div id="halt" onmousedown="debugger" style="width: 60px">Halt</div>
<script>
// The card follows pointer events, as dnd-kit or SortableJS's fallback do; let go over the
// zone, it moves into it.
const card = document.getElementById("card");
let grab = null;
card.addEventListener("pointerdown", (e) => {
  card.setPointerCapture(e.pointerId);
  grab = { x: e.clientX - card.offsetLeft, y: e.clientY - card.offsetTop };
});
card.addEventListener("pointermove", (e) => {
  if (!grab) return;
  card.style.left = e.clientX - grab.x + "px";
  card.style.top = e.clientY - grab.y + "px";
});
card.addEventListener("pointerup", (e) => {
  grab = null;
  const zone = document.getElementById("zone").getBoundingClientRect();
  if (e.clientX >= zone.left && e.clientX <= zone.right && e.clientY >= zone.top && e.clientY <= zone.bottom) {
    card.style.position = "static";
    document.getElementById("zone").append(card);
  }
});
// The slider's knob follows mouse events on the document, as older libraries do.
const knob = document.getElementById("knob");
let from = null;
knob.addEventListener("mousedown", (e) => { from = e.clientX - knob.offsetLeft; e.preventDefault(); });
document.addEventListener("mousemove", (e) => {
  if (from === null || !(e.buttons & 1)) return;
  const left = Math.max(0, Math.min(380, e.clientX - from));
  knob.style.left = left + "px";
  document.getElementById("value").textContent = String(left);
});
document.addEventListener("mouseup", () => { from = null; });
</script>"""
            + SEEN,
        ),
    ),
}


@pytest.fixture
async def list_page(client: ModeClient, site_url: str) -> ModeClient:
    await client.ok("navigate", url=site_url + "/list")
    return client


@pytest.fixture
async def board_page(client: ModeClient, site_url: str) -> ModeClient:
    await client.ok("navigate", url=site_url + "/board")
    return client


async def test_an_html5_list_item_dropped_onto_another_reorders_the_list(list_page: ModeClient) -> None:
    text = await list_page.ok("drag_element", selector="#a", to_selector="#c")
    assert text.startswith(
        'Dragged li#a "Apple" onto li#c "Cherry" as an HTML5 drag (dragstart, dragover, drop).\n'
        "It is now 3 of 3 in ul#list (was 1 of 3)."
    ), text
    assert await list_page.js("order('list')") == "b,c,a"
    assert await list_page.js("seen") == [
        "pointerdown",
        "mousedown",
        "dragstart",
        "drop",
        "dragend",
        "pointerup",  # the button is let go after the drop, and no click follows
        "mouseup",
    ]


async def test_an_html5_item_dropped_into_another_list_changes_parent(list_page: ModeClient) -> None:
    text = await list_page.ok("drag_element", selector="#b", to_selector="#done")
    assert text.startswith(
        'Dragged li#b "Banana" onto ul#done as an HTML5 drag (dragstart, dragover, drop).\n'
        "It is now in ul#done (1 of 1); it was in ul#list (2 of 3)."
    ), text
    assert await list_page.js("[order('list'), order('done')]") == ["a,c", "b"]


async def test_a_card_moved_by_pointer_events_lands_in_the_zone(board_page: ModeClient) -> None:
    text = await board_page.ok("drag_element", selector="#card", to_selector="#zone")
    assert text.startswith(
        'Dragged div#card "Card" onto div#zone "Drop here" with mouse events (no HTML5 drag began).\n'
        "It is now in div#zone (1 of 1); it was in div#board (1 of 2)."
    ), text
    assert await board_page.js("document.getElementById('card').parentElement.id") == "zone"
    assert await board_page.js("seen") == ["pointerdown", "mousedown", "pointerup", "mouseup"]


async def test_a_slider_knob_dragged_by_an_offset_follows_mouse_events(board_page: ModeClient) -> None:
    if await board_page.refused_in_smart("drag_element", selector="#knob", offset_x=120):
        return  # smart mode drops onto elements only
    text = await board_page.ok("drag_element", selector="#knob", offset_x=120)
    assert text.startswith(
        "Dragged div#knob by (+120, 0) px with mouse events (no HTML5 drag began).\n"
        "It moved by (+120, 0) px and stays 1 of 1 in div#track."
    ), text
    assert await board_page.js("document.getElementById('value').textContent") == "120"
    assert await board_page.js("seen") == ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]


async def test_an_html5_item_dragged_by_an_offset_onto_a_list(list_page: ModeClient) -> None:
    middle = "((r) => r.top + r.height / 2)"
    below = await list_page.js(f"{middle}(done.getBoundingClientRect()) - {middle}(c.getBoundingClientRect())")
    if await list_page.refused_in_smart("drag_element", selector="#c", offset_y=below):
        return
    text = await list_page.ok("drag_element", selector="#c", offset_y=below)
    assert text.startswith(
        f'Dragged li#c "Cherry" by (0, +{below:g}) px as an HTML5 drag (dragstart, dragover, drop).\n'
        "It is now in ul#done (1 of 1); it was in ul#list (3 of 3)."
    ), text
    assert await list_page.js("[order('list'), order('done')]") == ["a,b", "c"]


async def test_a_dialog_opened_by_the_press_is_said_and_the_button_is_released_once_answered(
    board_page: ModeClient,
) -> None:
    if await board_page.refused_in_smart("drag_element", selector="#alarm", offset_x=50):
        return
    text = await board_page.ok("drag_element", selector="#alarm", offset_x=50)
    assert 'Opened an alert dialog: "pressed"' in text, text
    await board_page.ok("handle_dialog", accept=True)
    await board_page.ok("hover_element", selector="#note")  # a round trip after the release
    # Let go where it was pressed (the drag stopped there): a click, as a user's would be.
    assert await board_page.js("seen") == ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]


async def test_a_pause_in_the_press_handler_is_answered_and_the_button_released_once_resumed(
    board_page: ModeClient,
) -> None:
    if await board_page.refused_in_smart("drag_element", selector="#halt", offset_x=50):
        return
    await board_page.ok("debugger_enable")
    try:
        text = await board_page.ok("drag_element", selector="#halt", offset_x=50)
        assert text.startswith('Dragged div#halt "Halt" by (+50, 0) px') and "Paused (debugger statement)" in text, text
        await board_page.ok("debugger_resume")
        await board_page.ok("hover_element", selector="#note")
        assert await board_page.js("seen") == ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]
    finally:
        await board_page.ok("debugger_disable")


async def test_a_destination_too_far_to_see_with_the_source_is_refused_before_any_input(
    list_page: ModeClient,
) -> None:
    kind, text = await list_page.error("drag_element", selector="#a", to_selector="#far")
    assert kind == "STATE" and 'The destination div#far "Far below" is at (' in text, text
    assert "x720 viewport, with the dragged element in view" in text, text  # the width is less a scrollbar
    assert await list_page.js("seen") == []


@pytest.mark.parametrize(
    ("destination", "given"),
    [({"to_selector": "#c", "offset_x": 10}, "both"), ({}, "neither")],
)
async def test_both_or_neither_destination_is_refused_before_the_page_sees_anything(
    list_page: ModeClient, destination: dict[str, object], given: str
) -> None:
    if "offset_x" in destination and await list_page.refused_in_smart("drag_element", selector="#a", **destination):
        return
    kind, text = await list_page.error("drag_element", selector="#a", **destination)
    assert kind == "VALIDATION" and "Give one destination" in text and given in text, text
    assert await list_page.js("seen") == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"selector": "#nope", "to_selector": "#c"}, "No element matches the selector."),
        ({"selector": "#a", "to_selector": "#nope"}, "No element matches the destination selector."),
        ({"selector": "li", "index": 7, "to_selector": "#c"}, "index 7 is out of range: 3 elements"),
        ({"selector": "#a", "to_selector": "li", "to_index": 7}, "destination index 7 is out of range: 3 elements"),
    ],
)
async def test_a_missing_source_or_destination_is_a_state_error_with_help(
    list_page: ModeClient, arguments: dict[str, object], message: str
) -> None:
    if list_page.mode == "smart" and "to_index" in arguments:
        pytest.skip("smart mode leaves to_index out")
    kind, text = await list_page.error("drag_element", **arguments)
    assert kind == "STATE" and message in text and "query_elements" in text, text
    assert await list_page.js("seen") == []


async def test_a_handle_dragged_names_the_item_that_moved(client: ModeClient, site_url: str) -> None:
    """The handle keeps its place inside its item; the answer tells of the item, which changed place."""
    await client.ok("navigate", url=site_url + "/handles")
    text = await client.ok("drag_element", selector="#a .handle", to_selector="#c")
    assert text.startswith(
        'Dragged span.handle "≡" onto li#c "≡ Cherry" with mouse events (no HTML5 drag began).\n'
        'Its item li#a "≡ Apple" is now 3 of 3 in ul#sortable (was 1 of 3).'
    ), text
    assert await client.js("order('sortable')") == "b,c,a"
