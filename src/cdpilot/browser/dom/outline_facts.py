"""What page_outline learns from the accessibility tree, as plain data.

The outline is a flat list in document order, each entry with its depth: landmarks and
frames nest what they hold, a heading nests what follows it up to the next heading of its
level or higher. `ax_outline` builds it; the renderer in `cdpilot.answers.outline_answers`
only decides how much of it fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EntryKind = Literal["landmark", "heading", "control", "frame"]


@dataclass(frozen=True)
class OutlineEntry:
    """One line of the outline: who it is, where it sits and how to reach it."""

    kind: EntryKind
    role: str  # as the accessibility tree says it ("navigation", "checkbox"); a heading: "h1".."h6"
    name: str  # the accessible name, "" when it has none
    depth: int
    selector: str  # unique in its document now; "" for headings, or when none could be made
    value: str = ""  # a field's value, a select's chosen option, a slider's position
    states: tuple[str, ...] = ()  # e.g. ("checked", "disabled", "expanded", "required")
    inside: int = 0  # a landmark or frame: how many entries follow it that it holds
    cross_origin: bool = False  # a frame whose document lives in another process: not outlined


@dataclass(frozen=True)
class PageOutline:
    """The outline of a page, or of one element of it (`scope`)."""

    title: str
    scope: str  # "" for the whole page, else the selector asked for
    match_count: int  # how many elements `scope` matched (the first one is outlined)
    entries: tuple[OutlineEntry, ...]

    @property
    def controls(self) -> int:
        return sum(1 for entry in self.entries if entry.kind == "control")

    @property
    def cross_origin_frames(self) -> int:
        return sum(1 for entry in self.entries if entry.cross_origin)
