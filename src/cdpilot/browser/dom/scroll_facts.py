"""What a scroll did, as plain data: each scrolling box that moved (or the one asked to move),
and what a search for a text or selector found.

The page-side ``scroll_box.js`` answers JSON; `scrolling` turns it into these facts at once.
Nothing here speaks CDP, so the answer renderer imports them without the protocol client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from cdpilot.browser.dom.element_facts import ElementTarget

SearchStop = Literal["", "end", "steps", "time"]
SEARCH_LIMIT_S = 20.0  # the longest a search for a text or selector scrolls


@dataclass(frozen=True)
class ScrollMove:
    """One scrolling box's vertical position before and after (CSS px)."""

    box: str  # "the page", or e.g. div#list.rows
    before: int  # scrollTop
    after: int
    height: int  # scrollHeight: the whole content
    client: int  # clientHeight: the part shown

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> ScrollMove:
        return cls(
            box=str(value["box"]),
            before=int(value["top"]),
            after=int(value["after"]),
            height=int(value["height"]),
            client=int(value["client"]),
        )


@dataclass(frozen=True)
class ScrollReport:
    """One scroll call: what was asked, every box that moved, and a search's outcome."""

    element: ElementTarget | None  # the element scrolled into view or within; None: the page
    asked: str  # down, up, top, bottom, or into_view
    moves: tuple[ScrollMove, ...]  # a page step's box even when it could not move (then before == after)
    until: str | None = None  # the text or selector searched for
    found: str = ""  # the element holding it, e.g. li.row "Row 500"; "" when not found
    found_by: str = ""  # "selector" or "text"
    steps: int = 0  # page-sized steps taken while searching
    stop: SearchStop = ""  # not found because: the end of the box, max_steps, or the time limit
    in_view: bool | None = None  # after bringing an element into view: whether it is in the viewport
