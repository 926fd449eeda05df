"""What a drag did, as plain data: where the item it moved sat before and after (the dragged
element, or the ancestor a handle moves: `moved_level`), where it was dropped, and whether the
page took it as an HTML5 drag.

The page-side ``drag_place.js`` answers JSON; `drag_drop` turns it into these facts at once.
Nothing here speaks CDP, so the answer renderer imports them without the protocol client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cdpilot.browser.dom.element_facts import ActionReport, ElementTarget


@dataclass(frozen=True)
class ElementPlace:
    """Where an element sits: its parent, its place among that parent's element children, and
    its box's top-left in its document (CSS px, so a scroll does not count as a move)."""

    name: str  # the element itself, e.g. li#a "Apple"
    draggable: bool
    parent: str  # e.g. ul#todo, "the shadow root of div#host", "the document"
    parent_path: str  # the parent's child positions from the root: equal paths, the same parent
    position: int  # 0-based, among the parent's element children
    count: int  # the parent's element children
    x: float
    y: float

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> ElementPlace:
        return cls(
            name=str(value["name"]),
            draggable=bool(value["draggable"]),
            parent=str(value["parent"]),
            parent_path=str(value["path"]),
            position=int(value["position"]),
            count=int(value["count"]),
            x=float(value["x"]),
            y=float(value["y"]),
        )


def moved_level(before: Sequence[ElementPlace], after: Sequence[ElementPlace]) -> int:
    """Which of the dragged element (0) and its ancestors (1, 2, …, as `drag_place.js` lists them) the drag
    moved: the nearest that changed place, else the nearest draggable one, else the element itself.

    A handle's drag moves its item: the handle keeps its place inside the item, the item changes its place.
    An element changed place when its position among its siblings or its parent changed; a parent told only by
    its path (look-alike parents) counts when nothing above it moved, since a moved ancestor changes the path of
    everything inside it."""
    levels = min(len(before), len(after))
    moved = [False] * levels
    for level in reversed(range(levels)):
        was, now = before[level], after[level]
        carried = any(moved[level + 1 :])
        moved[level] = (
            was.position != now.position
            or was.parent != now.parent
            or (was.parent_path != now.parent_path and not carried)
        )
    if any(moved):
        return moved.index(True)
    return next((level for level, place in enumerate(before[:levels]) if place.draggable), 0)


@dataclass(frozen=True)
class DragReport:
    """One drag: the action (source element, effects, context), where it went, what moved (the item: the
    dragged element, or its ancestor named in `item`)."""

    action: ActionReport
    destination: ElementTarget | None  # dropped onto this element, or
    offset: tuple[float, float]  # by this much from the source's centre (CSS px; (0, 0) with a destination)
    html5: bool  # the page started an HTML5 drag (dragstart), finished with its data at the drop point
    before: ElementPlace
    after: ElementPlace | None  # None: it left the page; also when a navigation, dialog or pause followed
    left_page: bool = False  # after is None because the element is gone (not because the page moved on)
    item: str = ""  # the ancestor whose places before and after are told, when the drag moved it (a handle's item)


@dataclass(frozen=True)
class FileDrop:
    """Files dropped onto an element that is not a file input (a drop zone), and what it shows after."""

    action: ActionReport
    text_after: str  # the element's text once the page handled the drop; "" when a navigation, dialog or pause came
