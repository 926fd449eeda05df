"""Where and how input reaches an element: the wait until it can be acted on, the point to
act at, page-side functions called on it, and the mouse and key events themselves.

Before a click or hover the element must be visible, stable (the same box on two animation
frames in a row) and, for a click, enabled. That wait runs in the page as one awaited
promise that checks on every animation frame, so it ends the frame the element is ready,
or with the reason it never was (hidden / moving / disabled) at the deadline. The click
point is the centre of the element's first content quad (``DOM.getContentQuads`` answers
in top-level viewport coordinates, same-origin iframes included; in a cross-origin iframe's
own, to which the iframes' boxes are added), and the element must be the hit target there:
a click that would land on an overlay is refused, naming it. The events are always sent to
the page, which routes them (and typing, to the focused element) into the iframe.

Page-side functions run with ``Runtime.callFunctionOn`` on the element, in the context the
element was resolved in, which for an iframe's element is the top document's (or, in an
in-process frame of another origin, our isolated world there): they use
``this.ownerDocument`` rather than ``document``. A point in such a frame is in its page's
coordinates, shifted into the frame's own for its hit test (`frame_origin`).
"""

from __future__ import annotations

import contextlib
from typing import Any

from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.dom.keys import KeyPress, key_events
from cdpilot.browser.dom.query import ElementHandle
from cdpilot.browser.frames.frame_points import frame_origin, page_point, scroll_frames_into_view
from cdpilot.browser.own_scripts import own_expression, own_function, page_script
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.target import Target, page_of
from cdpilot.errors import CdpCommandError, CdpTimeoutError, ExecutionError, StateError

RENDER_GRACE_S = 2.0  # the page-side wait ends itself at the deadline; this covers a page that renders no frames


async def actionable_point(
    conn: Target, element: ElementHandle, timeout_ms: int, *, need_enabled: bool
) -> tuple[float, float]:
    """Wait until the element can be acted on; scroll it in; its centre, if it is the hit target there."""
    await wait_actionable(conn, element, timeout_ms, need_enabled=need_enabled, need_editable=False)
    features, session, target = conn.features, element.session, {"objectId": element.object_id}
    await features.unless_blocked(session.send("DOM.scrollIntoViewIfNeeded", target))
    quads = (await features.unless_blocked(session.send("DOM.getContentQuads", target)))["quads"]
    centres = [(sum(q[0::2]) / 4, sum(q[1::2]) / 4) for q in quads if _area(q) > 0]
    if not centres:
        raise _not_actionable(element, "hidden:no box on screen", timeout_ms)
    x, y = centres[0]  # in the viewport of the element's frame: the page's, or a cross-origin iframe's
    left, top = await frame_origin(conn, element.frames)
    covering = await call_script(conn, element, "hit_target", x - left, y - top)
    if not covering:  # then, in the page: what covers an iframe it is in
        x, y, covering = await page_point(conn, element.frames, x, y)
    if covering:
        raise StateError(
            f"{element.description} is covered by {covering} at its centre ({x:.0f}, {y:.0f}); the pointer "
            "would land there.",
            suggestion="Close or move what covers it first (a banner, overlay or menu, e.g. with "
            "{tool:click_element} or {tool:press_key} Escape), then retry.",
        )
    return x, y


async def wait_actionable(
    conn: Target, element: ElementHandle, timeout_ms: int, *, need_enabled: bool, need_editable: bool
) -> None:
    """Wait until the element is visible and still (and enabled, editable, when asked); a StateError saying why not.
    Its iframes, and it, are scrolled into view first: a cross-origin frame out of view renders
    no animation frames, so the check could never end there."""
    conn.features.raise_if_blocked()  # the check below waits on animation frames: a paused page renders none
    await scroll_into_view(conn, element)
    budget_s = timeout_ms / 1000 + RENDER_GRACE_S
    try:
        problem = await call_script(
            conn, element, "actionable", timeout_ms, need_enabled, need_editable, await_promise=True, timeout_s=budget_s
        )
    except CdpTimeoutError:
        problem = "no frames"
    if problem:
        raise _not_actionable(element, problem, timeout_ms)


async def scroll_into_view(conn: Target, element: ElementHandle) -> None:
    """Scroll the iframes the element is in into their parents' view, then the element into its
    frame's; an element with no box (hidden) stays where it is, for the wait to say why."""
    await scroll_frames_into_view(conn, element.frames)
    with contextlib.suppress(CdpCommandError):
        target = {"objectId": element.object_id}
        await conn.features.unless_blocked(element.session.send("DOM.scrollIntoViewIfNeeded", target))


def _not_actionable(element: ElementHandle, problem: str, timeout_ms: int) -> StateError:
    what = element.description
    if problem.startswith("hidden:"):
        return StateError(
            f"{what} is not visible ({problem.removeprefix('hidden:')}) after {timeout_ms} ms.",
            suggestion="Make it visible first (open its menu, tab or dialog), or wait for it with {tool:wait_for}; "
            "{tool:query_elements} with {param:query_elements.include_hidden}=true lists hidden matches.",
        )
    reasons = {
        "moving": (
            f"{what} kept moving (animating) for {timeout_ms} ms.",
            "Wait for the page with {tool:wait_for}. A higher {param:timeout_ms} gives it time to settle.",
        ),
        "disabled": (
            f"{what} is disabled.",
            "Do what enables it first (e.g. fill the required fields with {tool:fill_element}), then retry.",
        ),
        "readonly": (f"{what} is read-only.", "Pick an editable field; {tool:query_elements} lists them."),
        "detached": (f"{what} was removed from the page.", "Find it again with {tool:query_elements}."),
    }
    message, suggestion = reasons.get(
        problem,
        (
            f"The page rendered no frames for {timeout_ms} ms; {what} could not be checked.",
            "Retry, or look at the page with {tool:browser_screenshot}.",
        ),
    )
    return StateError(message, suggestion=suggestion)


async def arm_landing(conn: Target, element: ElementHandle) -> None:
    """Before a click inside a cross-origin iframe: watch where its mousedown lands (`landed`)."""
    await call_script(conn, element, "click_landing", "arm")


async def landed(conn: Target, element: ElementHandle) -> bool:
    """Whether the armed mousedown reached the element. The browser routes input into an
    out-of-process iframe by hit-test data its renderer sends on its own schedule, so on a
    loaded machine a click can go to the frame around it instead, and nothing says so. When the
    frame cannot be asked (it navigated, or the page paused), the click is taken as landed."""
    if conn.features.get(PageDebugger).paused is not None:
        return True
    try:
        return await call_script(conn, element, "click_landing", "read") is not False
    except (StateError, ExecutionError):
        return True


async def next_paint(conn: Target, element: ElementHandle) -> None:
    """Two animation frames of the element's frame (its renderer has composited since), or 1 s."""
    params = {"expression": own_expression(page_script("after_two_paints")), "awaitPromise": True, "silent": True}
    await conn.features.unless_blocked(element.session.send("Runtime.evaluate", params, timeout_s=2))


async def send_mouse(conn: Target, params: dict[str, Any]) -> None:
    await conn.features.unless_blocked(page_of(conn).send("Input.dispatchMouseEvent", params))


async def send_keys(conn: Target, keypress: KeyPress) -> None:
    for event in key_events(keypress):
        await conn.features.unless_blocked(page_of(conn).send("Input.dispatchKeyEvent", event))


async def call_script(
    conn: Target,
    element: ElementHandle,
    script_name: str,
    *args: object,
    await_promise: bool = False,
    timeout_s: float | None = None,
) -> Any:
    """Run the page-side function ``browser/js/<script_name>.js`` with the element as ``this``;
    its JSON value."""
    params = {
        "functionDeclaration": own_function(page_script(script_name)),
        "objectId": element.object_id,
        "arguments": [{"value": arg} for arg in args],
        "returnByValue": True,
        "awaitPromise": await_promise,
        "silent": True,  # our own scripts: an exception in them must not pause a page set to pause on all
    }
    try:
        reply = await conn.features.unless_blocked(
            element.session.send("Runtime.callFunctionOn", params, timeout_s=timeout_s)
        )
    except CdpCommandError as exc:  # the element's document went away (navigation, frame removed)
        raise StateError(
            f"{element.description} is no longer in the page.", suggestion="Find it again with {tool:query_elements}."
        ) from exc
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"A page-side step failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="The page may be navigating: retry, or look at it with {tool:evaluate_js}.",
        )
    return reply["result"].get("value")


def _area(quad: list[float]) -> float:
    """The area of a quad (shoelace formula): zero for an element that takes no space."""
    xs, ys = quad[0::2], quad[1::2]
    return abs(sum(xs[i] * ys[(i + 1) % 4] - xs[(i + 1) % 4] * ys[i] for i in range(4))) / 2
