"""What the tab tools see and do, as plain data: the browser's targets, a switch, a close and
a close that waits on the page's beforeunload dialog.

The modules that list and close tabs speak CDP; these facts do not, so the answer renderers
can import them without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TargetEntry:
    """A page, iframe or worker of the browser; only pages have an index and can be current."""

    index: int | None  # pages only
    target_id: str
    type: str
    title: str
    url: str
    current: bool


@dataclass(frozen=True)
class TargetSwitch:
    chosen: TargetEntry
    others_matched: int  # pages that matched as well; the first match was chosen


@dataclass(frozen=True)
class TargetClosed:
    closed: TargetEntry
    current: TargetEntry  # the current page once it is gone


@dataclass(frozen=True)
class CloseAsked:
    """Closing the current page ran its beforeunload handler, which asks to confirm: the page
    stays open, and current, until the dialog is answered."""

    closing: TargetEntry


@dataclass(frozen=True)
class PendingClose:
    """A close that waits on the page's beforeunload dialog; `spare` is the blank page opened to
    stay current when the last page closes (closed again if the page stays)."""

    closing: TargetEntry
    spare: str | None
