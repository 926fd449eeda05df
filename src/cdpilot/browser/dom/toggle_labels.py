"""Custom-styled checkboxes and radios: the input is visually hidden (opacity 0, no size, clipped to a pixel)
and a styled label is what a user sees and clicks. Such an input never passes the visibility wait, so the
tools act as the user does: a real click on its label (`toggle_label.js` says which), then the checked
state read back."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.browser.dom.dom_scripts import method
from cdpilot.browser.dom.element_input import actionable_point, send_mouse
from cdpilot.browser.dom.query import ElementHandle
from cdpilot.browser.own_scripts import own_function, page_script
from cdpilot.browser.target import Target

DESCRIBE = method("basics", "(el => describe(el, textOf(el)))")


async def label_to_click(conn: Target, element: ElementHandle, *, stashed: bool = False) -> ElementHandle | None:
    """The shown label of `element`, a hidden checkbox or radio (with `stashed`: of the input `fill_field.js` left
    to its label); None when the input is shown, is no checkbox or radio, or has no shown label."""
    params = {
        "functionDeclaration": own_function(page_script("toggle_label")),
        "objectId": element.object_id,
        "arguments": [{"value": stashed}],
        "silent": True,
    }
    reply = await conn.features.unless_blocked(element.session.send("Runtime.callFunctionOn", params))
    found = reply["result"]
    if "exceptionDetails" in reply or "objectId" not in found:  # null: act on the input itself
        return None
    described = {"functionDeclaration": own_function(DESCRIBE), "objectId": found["objectId"], "returnByValue": True}
    description = await conn.features.unless_blocked(element.session.send("Runtime.callFunctionOn", described))
    return replace(element, object_id=found["objectId"], description=str(description["result"]["value"]))


async def click_label(conn: Target, label: ElementHandle, timeout_ms: int) -> None:
    """One left click on `label` once it can take it, as a user sets the hidden input it is for."""
    x, y = await actionable_point(conn, label, timeout_ms, need_enabled=False)
    await send_mouse(conn, {"type": "mouseMoved", "x": x, "y": y})
    for kind, buttons in (("mousePressed", 1), ("mouseReleased", 0)):
        await send_mouse(conn, {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1})
