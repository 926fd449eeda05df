"""Dragging an element with real input, so that both kinds of drag a page may implement work.

Pages drag in one of two ways: HTML5 drag and drop (``draggable``; dragstart, dragover and
drop events carrying a DataTransfer) or their own code on mouse or pointer events (down,
moves, up). A user's drag serves both, and so does this one: with ``Input.setInterceptDrags``
on, the mouse is pressed at the source's centre (checked as a click checks it: visible,
still, in view, not covered) and moved in steps to the drop point. If the page starts an
HTML5 drag, Chrome hands it over as ``Input.dragIntercepted`` instead of starting a system
drag (which a headless browser could not finish); the rest of the way is then the drag's own
events (``Input.dispatchDragEvent``: dragEnter, dragOver, drop) carrying the intercepted
data. Otherwise the moves already reached the page as mouse and pointer events. Either way
the button is released at the drop point.

Whatever happens (a dialog opened by a handler, a pause, a failed command), the button is
released, an unfinished HTML5 drag is cancelled and interception is turned off again; when
the page is blocked those commands are sent anyway and finish once it runs again
(`PageFeatures.finish_later`).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from cdpilot.browser.dom import actions
from cdpilot.browser.dom.actions import NEEDS_RUNNING, action_report
from cdpilot.browser.dom.drag_facts import DragReport, ElementPlace, FileDrop, moved_level
from cdpilot.browser.dom.element_facts import ActionReport
from cdpilot.browser.dom.element_input import actionable_point, call_script, send_mouse, wait_actionable
from cdpilot.browser.dom.query import ElementHandle, resolve_element
from cdpilot.browser.dom.watch import perform
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, CdpilotError, FieldProblem, StateError

STEPS = 10  # moves from the source to the drop point: enough for pages that follow the pointer
PRESSED = {"button": "left", "buttons": 1}
# What ends a dialog or a pause (a navigation clears the page's contexts, and its pause with them).
RUNNING_AGAIN = ("Page.javascriptDialogClosed", "Debugger.resumed", "Runtime.executionContextsCleared")
# A file dragged in from outside the browser may be copied, linked or moved (Chrome's
# DragOperationsMask bits): whichever dropEffect the page picks, the drop is allowed.
FILE_DRAG_OPERATIONS = 1 | 2 | 16
FILE_DROP_TIMEOUT_MS = 5000


def check_destination(to_selector: str | None, offset_x: float | None, offset_y: float | None) -> tuple[float, float]:
    """The offset to drag by ((0, 0) with a destination element); VALIDATION unless exactly
    one kind of destination is given. One offset alone is a straight move (the other is 0)."""
    has_offset = offset_x is not None or offset_y is not None
    if (to_selector is not None) == has_offset:
        given = "both" if has_offset else "neither"
        raise ArgumentError(
            "Give one destination: an element to drop onto, or an offset from the dragged element's centre.",
            problems=[FieldProblem("to_selector", "one destination: an element or an offset", given)],
            suggestion="Call {tool:drag_element} again with {param:drag_element.to_selector}=… (the element to "
            "drop onto) or with {param:drag_element.offset_x}/{param:drag_element.offset_y} (CSS px), not both.",
        )
    return (offset_x or 0.0, offset_y or 0.0)


async def drag(
    conn: BrowserConnection,
    selector: str,
    index: int,
    *,
    to_selector: str | None,
    to_index: int,
    offset: tuple[float, float],
    timeout_ms: int,
    with_context: bool = False,
) -> DragReport:
    """Drag the element onto the element `to_selector` matches, or by `offset` (as
    `check_destination` allows); what moved, and what else the drag caused."""
    conn.features.raise_if_blocked("A drag needs the page running.")
    source = await resolve_element(conn, selector, index)
    target = await resolve_element(conn, to_selector, to_index, role="destination") if to_selector else None
    if target is not None:  # in view first, so that scrolling the source in keeps it there when both fit
        await wait_actionable(conn, target, timeout_ms, need_enabled=False, need_editable=False)
        await conn.features.unless_blocked(target.session.send("DOM.scrollIntoViewIfNeeded", _node(target)))
    start = await actionable_point(conn, source, timeout_ms, need_enabled=False)
    end = await _centre(conn, target) if target is not None else (start[0] + offset[0], start[1] + offset[1])
    await _check_in_view(conn, end, target)
    before = [ElementPlace.from_page(place) for place in await call_script(conn, source, "drag_place")]
    html5: list[bool] = []
    effects = await perform(conn, lambda: _drag_input(conn, start, end, html5), timeout_ms=timeout_ms)
    report = await action_report(conn, source, effects, with_context)
    moved_on = effects.navigation is not None or effects.dialog is not None or effects.pause is not None
    places = None if moved_on else await call_script(conn, source, "drag_place")
    after = [ElementPlace.from_page(place) for place in places] if places is not None else None
    level = moved_level(before, after) if after is not None else 0  # what the answer tells of: see moved_level
    return DragReport(
        action=report,
        destination=target.target if target is not None else None,
        offset=offset,
        html5=bool(html5),
        before=before[level],
        after=after[level] if after is not None else None,
        left_page=not moved_on and places is None,
        item=before[level].name if level else "",
    )


async def _drag_input(
    conn: BrowserConnection, start: tuple[float, float], end: tuple[float, float], html5: list[bool]
) -> None:
    """Press at `start`, move in steps to `end`, drop there and release (see the module
    docstring); `html5` gets True when the page started an HTML5 drag."""
    page = conn.page
    intercepted: list[dict[str, Any]] = []

    def on_drag(event: CdpEvent) -> None:
        intercepted.append(event.params["data"])

    unsubscribe = page.on("Input.dragIntercepted", on_drag)
    pressed = entered = dropped = False
    point = start
    try:
        with contextlib.suppress(CdpCommandError):  # a browser without it: an HTML5 drag runs as a system drag
            await conn.features.unless_blocked(page.send("Input.setInterceptDrags", {"enabled": True}))
        await send_mouse(conn, {"type": "mouseMoved", "x": start[0], "y": start[1]})
        pressed = True  # from here on the button may be down, even if the press below fails half-way
        await send_mouse(conn, {"type": "mousePressed", "x": start[0], "y": start[1], **PRESSED, "clickCount": 1})
        for step in range(1, STEPS + 1):
            point = _between(start, end, step / STEPS)
            if intercepted:
                await _drag_event(conn, "dragOver" if entered else "dragEnter", point, intercepted[0])
                entered = True
            else:
                await send_mouse(conn, {"type": "mouseMoved", "x": point[0], "y": point[1], **PRESSED})
        if intercepted:
            html5.append(True)
            if not entered:
                await _drag_event(conn, "dragEnter", end, intercepted[0])
            await _drag_event(conn, "dragOver", end, intercepted[0])  # the page accepts the drop here, or not
            await _drag_event(conn, "drop", end, intercepted[0])
            dropped = True
        await send_mouse(conn, {"type": "mouseReleased", "x": end[0], "y": end[1], "button": "left", "buttons": 0})
        pressed = False
    finally:
        unsubscribe()
        if intercepted and not dropped:
            await _clean_up(conn, "Input.dispatchDragEvent", _drag_params("dragCancel", point, intercepted[0]))
        if pressed:
            release = {"type": "mouseReleased", "x": point[0], "y": point[1], "button": "left", "buttons": 0}
            await _clean_up(conn, "Input.dispatchMouseEvent", release)
        await _clean_up(conn, "Input.setInterceptDrags", {"enabled": False})


async def _drag_event(conn: BrowserConnection, kind: str, point: tuple[float, float], data: dict[str, Any]) -> None:
    await conn.features.unless_blocked(conn.page.send("Input.dispatchDragEvent", _drag_params(kind, point, data)))


def _drag_params(kind: str, point: tuple[float, float], data: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "x": point[0], "y": point[1], "data": data}


async def _clean_up(conn: BrowserConnection, method: str, params: dict[str, Any]) -> None:
    """Send a clean-up command, and wait for it unless the page is blocked (a dialog, a pause).
    Chrome drops input events while it is: then an input event goes once the page runs again.
    A failure is dropped: it must not hide why the drag stopped."""
    features, page = conn.features, conn.page
    blocked = features.dialogs.open is not None or features.debugger.paused is not None
    if blocked and method.startswith("Input.dispatch"):
        features.finish_later(_once_running(conn, page, method, params))
    elif blocked:
        features.finish_later(page.send(method, params))
    else:
        with contextlib.suppress(CdpilotError):
            await features.unless_blocked(page.send(method, params))


async def _once_running(conn: BrowserConnection, page: CdpSession, method: str, params: dict[str, Any]) -> None:
    """Send the command once no dialog is open and the debugger is not paused (the watchers
    see each of these events before this stream does)."""
    features = conn.features
    with page.listen(*RUNNING_AGAIN) as changes:
        while features.dialogs.open is not None or features.debugger.paused is not None:
            await changes.next()
    await page.send(method, params)


def _between(start: tuple[float, float], end: tuple[float, float], share: float) -> tuple[float, float]:
    return (start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share)


def _node(element: ElementHandle) -> dict[str, str]:
    return {"objectId": element.object_id}


async def _centre(conn: BrowserConnection, element: ElementHandle) -> tuple[float, float]:
    """The centre of the element's first box on screen, in top-level viewport coordinates."""
    quads = (await conn.features.unless_blocked(element.session.send("DOM.getContentQuads", _node(element))))["quads"]
    if not quads:
        raise StateError(
            f"The destination {element.description} has no box on screen.",
            suggestion="Drop onto a visible element; {tool:query_elements} lists them.",
        )
    quad = quads[0]
    return (sum(quad[0::2]) / 4, sum(quad[1::2]) / 4)


async def _check_in_view(conn: BrowserConnection, point: tuple[float, float], target: ElementHandle | None) -> None:
    """A drag ends where a user could let go: inside the viewport."""
    metrics = await conn.features.unless_blocked(conn.page.send("Page.getLayoutMetrics"))
    width, height = metrics["cssLayoutViewport"]["clientWidth"], metrics["cssLayoutViewport"]["clientHeight"]
    x, y = point
    if 0 <= x < width and 0 <= y < height:
        return
    where = f"({x:.0f}, {y:.0f}), outside the {width}x{height} viewport"
    if target is None:
        off = "offset_x" if not 0 <= x < width else "offset_y"
        raise ArgumentError(
            f"The drop point is {where}.",
            problems=[
                FieldProblem(off, "an offset that ends inside the viewport", f"a drop point at ({x:.0f}, {y:.0f})")
            ],
            suggestion="Give a smaller offset ({param:drag_element.offset_x}/{param:drag_element.offset_y}), "
            "or drop onto an element with {param:drag_element.to_selector}.",
        )
    raise StateError(
        f"The destination {target.description} is at {where}, with the dragged element in view.",
        suggestion="The two are too far apart to see both at once: make the viewport larger with "
        "{tool:browser_set_viewport}, or drag in two steps.",
    )


async def give_files(
    conn: BrowserConnection, selector: str, index: int, files: list[Path], *, with_context: bool = False
) -> ActionReport | FileDrop:
    """Upload `files` (checked paths): a file input takes them as picked (`actions.upload`); any
    other element gets them dropped on it, as a user dragging them from their desktop does."""
    conn.features.raise_if_blocked(NEEDS_RUNNING.format(doing="An upload"))
    element = await resolve_element(conn, selector, index)
    if (await call_script(conn, element, "file_input"))["fileInput"]:
        return await actions.upload(conn, element, files, with_context=with_context)
    return await _drop_files(conn, element, files, with_context)


async def _drop_files(
    conn: BrowserConnection, element: ElementHandle, files: list[Path], with_context: bool
) -> FileDrop:
    """A drag that carries the files enters the page at the element's visible centre (scrolled
    in, not covered), moves over it and drops. The browser fires the drop event only when a
    dragover handler accepted the drag (cancelled it): without one this is no drop zone, and a
    StateError says so, since nothing reached the page."""
    point = await actionable_point(conn, element, FILE_DROP_TIMEOUT_MS, need_enabled=False)
    data = {"items": [], "files": [str(path) for path in files], "dragOperationsMask": FILE_DRAG_OPERATIONS}
    await call_script(conn, element, "file_drop", "arm")

    async def events() -> None:
        for kind in ("dragEnter", "dragOver", "drop"):
            await _drag_event(conn, kind, point, data)

    effects = await perform(conn, events, timeout_ms=FILE_DROP_TIMEOUT_MS)
    report = await action_report(conn, element, effects, with_context)
    if effects.navigation is not None or effects.dialog is not None or effects.pause is not None:
        return FileDrop(report, text_after="")  # a handler ran; the page can no longer say more
    seen = await call_script(conn, element, "file_drop", "read")
    if not seen["dropped"]:
        raise StateError(
            f"{element.description} did not take the files: no dragover handler there accepted the drag, so "
            "the page got no drop event. It is neither a file input nor a drop zone.",
            suggestion="Drop onto the element that says it takes files (its text or a dashed box), or upload "
            "into the page's file input ({tool:query_elements} with {param:query_elements.selector}="
            '"input[type=file]" and {param:query_elements.include_hidden}=true lists them).',
        )
    return FileDrop(report, text_after=str(seen["text"]))
