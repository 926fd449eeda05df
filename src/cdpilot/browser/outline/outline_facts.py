"""What page_outline learns from the accessibility tree, as plain data.

The outline is a flat list in document order, each entry with its depth: landmarks, frames
and tables nest what they hold, a heading nests what follows it up to the next heading of its
level or higher, a table row the controls in its cells. An iframe's document stands under its
iframe; in an iframe of another origin (read in its own target, or in the page's process) the
selectors carry the iframe's frame-scoped prefix (`iframe#pay >> #card`). `ax_outline` builds
it; the renderer in `cdpilot.answers.outline_answers` only decides how much of it fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EntryKind = Literal["landmark", "heading", "control", "frame", "table", "row"]
PART_KINDS: tuple[EntryKind, ...] = ("landmark", "frame", "table")  # what an outline of one part can be asked for


@dataclass(frozen=True)
class OutlineEntry:
    """One line of the outline: who it is, where it sits and how to reach it."""

    kind: EntryKind
    role: str  # as the accessibility tree says it ("navigation", "checkbox", "table"); a heading: "h1".."h6"
    name: str  # the accessible name, "" when it has none (a table's is its caption)
    depth: int
    selector: str  # unique in its document now; "" for headings and rows, or when none could be made
    value: str = ""  # a field's value, a select's chosen option, a slider's position
    states: tuple[str, ...] = ()  # e.g. ("checked", "disabled", "expanded", "required")
    inside: int = 0  # a part (landmark, frame, table) or a row: how many entries follow it that it holds
    cells: tuple[str, ...] = ()  # a row: the text of its cells; a table: its column headers
    rows: int = 0  # a table: how many rows it has, its header row left out
    frame_url: str = ""  # an iframe of another origin, outlined: its document's URL
    not_outlined: str = ""  # a cross-origin iframe whose document could not be read: why


@dataclass(frozen=True)
class PageOutline:
    """The outline of a page, or of one element of it (`scope`)."""

    title: str
    scope: str  # "" for the whole page, else the selector asked for
    match_count: int  # how many elements `scope` matched (the first one is outlined)
    entries: tuple[OutlineEntry, ...]
    scope_frame: str = ""  # the scope is inside a cross-origin iframe: that iframe, as the element tools name it

    @property
    def controls(self) -> int:
        return sum(1 for entry in self.entries if entry.kind == "control")

    @property
    def cross_origin_frames(self) -> int:
        """Iframes of another origin outlined: their selectors are frame-scoped."""
        return sum(1 for entry in self.entries if entry.frame_url)

    @property
    def not_outlined(self) -> int:
        return sum(1 for entry in self.entries if entry.not_outlined)
