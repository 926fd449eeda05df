"""The answer after a drag: what was dragged where, how (an HTML5 drag or mouse events), and
what moved: the dragged element's (or, for a handle, its item's) new place among its siblings,
its new parent, or how far its box went. The effects and the context follow, as after any
action (`action_answers`).
"""

from __future__ import annotations

from cdpilot.answers.action_answers import target_text
from cdpilot.browser.dom.drag_facts import DragReport, ElementPlace

MOVE_PX = 1.0  # a box that moved less than this did not move (rounding)


def dragged_text(report: DragReport) -> str:
    """Two lines: the drag, then what moved (or nothing, when the page moved on: a navigation,
    a dialog or a pause, which the effects say)."""
    source = target_text(report.action.element)
    if report.destination is not None:
        where = f"onto {target_text(report.destination)}"
    else:
        where = f"by ({_px(report.offset[0])}, {_px(report.offset[1])}) px"
    how = "as an HTML5 drag (dragstart, dragover, drop)" if report.html5 else "with mouse events (no HTML5 drag began)"
    first = f"Dragged {source} {where} {how}."
    if report.left_page:
        return f"{first}\nIt is no longer in the page (removed, or replaced by a copy)."
    if report.after is None:
        return first
    return f"{first}\n{moved_line(report.before, report.after, report.item)}"


def moved_line(before: ElementPlace, after: ElementPlace, item: str = "") -> str:
    """Its new parent, else its new place among its siblings, else how far its box moved; of the `item` it
    belongs to when that is what the drag moved (a handle's drag moves its list item)."""
    it = f"Its item {item}" if item else "It"
    if after.parent_path != before.parent_path or after.parent != before.parent:
        return f"{it} is now in {after.parent} ({_place(after)}); it was in {before.parent} ({_place(before)})."
    if after.position != before.position:
        return f"{it} is now {_place(after)} in {after.parent} (was {_place(before)})."
    dx, dy = after.x - before.x, after.y - before.y
    if abs(dx) >= MOVE_PX or abs(dy) >= MOVE_PX:
        return f"{it} moved by ({_px(round(dx))}, {_px(round(dy))}) px and stays {_place(after)} in {after.parent}."
    return f"{it} did not move: still {_place(after)} in {after.parent}."


def _place(place: ElementPlace) -> str:
    return f"{place.position + 1} of {place.count}"


def _px(value: float) -> str:
    """A signed CSS pixel amount without a needless decimal: +120, -40, +2.5, 0."""
    return "0" if value == 0 else f"{value:+g}"
