"""What a drag did, as plain data: where the dragged element sat before and after, where it
was dropped, and whether the page took it as an HTML5 drag.

The page-side ``drag_place.js`` answers JSON; `drag_drop` turns it into these facts at once.
Nothing here speaks CDP, so the answer renderer imports them without the protocol client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cdpilot.browser.dom.element_facts import ActionReport, ElementTarget


@dataclass(frozen=True)
class ElementPlace:
    """Where an element sits: its parent, its place among that parent's element children, and
    its box's top-left in its document (CSS px, so a scroll does not count as a move)."""

    parent: str  # e.g. ul#todo, "the shadow root of div#host", "the document"
    parent_path: str  # the parent's child positions from the root: equal paths, the same parent
    position: int  # 0-based, among the parent's element children
    count: int  # the parent's element children
    x: float
    y: float

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> ElementPlace:
        return cls(
            parent=str(value["parent"]),
            parent_path=str(value["path"]),
            position=int(value["position"]),
            count=int(value["count"]),
            x=float(value["x"]),
            y=float(value["y"]),
        )


@dataclass(frozen=True)
class DragReport:
    """One drag: the action (source element, effects, context), where it went, what moved."""

    action: ActionReport
    destination: ElementTarget | None  # dropped onto this element, or
    offset: tuple[float, float]  # by this much from the source's centre (CSS px; (0, 0) with a destination)
    html5: bool  # the page started an HTML5 drag (dragstart), finished with its data at the drop point
    before: ElementPlace
    after: ElementPlace | None  # None: it left the page; also when a navigation, dialog or pause followed
    left_page: bool = False  # after is None because the element is gone (not because the page moved on)
