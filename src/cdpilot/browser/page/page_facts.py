"""What the page tools learn, as plain data: loads, downloads, dialogs and evaluated values
(the tabs', captures', storage's and emulation's facts have modules of their own).

The modules that find these out speak CDP; these facts do not, so the answer renderers can
import them without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from cdpilot.errors import DialogOpenError
from cdpilot.text import clip

if TYPE_CHECKING:  # field types only
    from cdpilot.browser.debugger.debugger_facts import Pause
    from cdpilot.browser.value_facts import Value

DIALOG_PREVIEW_CHARS = 200

NavigationKind = Literal["goto", "back", "forward", "reload"]
DownloadState = Literal["in progress", "completed", "canceled"]


@dataclass
class Download:
    """A download the browser started, as its events tell it (updated while it runs)."""

    url: str
    filename: str  # the name the server suggested, as Chrome made it safe
    state: DownloadState = "in progress"
    received_bytes: int = 0
    total_bytes: int = 0  # 0: the server did not say
    path: str | None = None  # where the file is once completed: under the output directory, if we placed it
    problem: str = ""  # why a completed download could not be placed in the output directory


@dataclass(frozen=True)
class NavigationResult:
    """Where a navigation (goto, history step or reload) got the page to."""

    kind: NavigationKind
    url: str
    title: str
    status: int | None  # the document's HTTP status; None for data:, about:, file: and same-document steps
    wait_until: str
    elapsed_ms: int
    pause: Pause | None = None  # the new page's scripts paused in the debugger before `wait_until`
    dismissed: DialogInfo | None = None  # a dialog that was open: Chrome closes it on navigating
    download: Download | None = None  # the URL was a download: the page stayed where it was
    asked: DialogInfo | None = None  # the old page asks to confirm leaving: nothing moved yet
    to: str = ""  # the URL asked for (goto), said while the old page asks to confirm leaving
    unfinished: LoadProgress | None = None  # the document committed, but `wait_until` was not reached


@dataclass(frozen=True)
class LoadProgress:
    """How far a committed document got when the wait for its `wait_until` ran out."""

    timeout_ms: int
    dom_ready: bool  # DOMContentLoaded fired: the document is parsed, and queries and actions work
    pending: tuple[str, ...]  # URLs of the requests still open, the first few
    pending_total: int


@dataclass(frozen=True)
class PageEvaluation:
    """An expression's value in the page, and, when the page was busy in its own script until the
    deadline, how long that script had run before cdpilot stopped it so the expression could run."""

    value: Value
    stopped_page_script_after_s: float | None = None


@dataclass(frozen=True)
class DialogInfo:
    type: str  # alert | confirm | prompt | beforeunload
    message: str
    default_prompt: str

    @property
    def preview(self) -> str:
        """The message, shortened for an answer."""
        return clip(self.message, DIALOG_PREVIEW_CHARS)


def dialog_of(error: DialogOpenError) -> DialogInfo:
    """The dialog a `DialogOpenError` tells of, typed (errors.py, a leaf, knows it by a protocol)."""
    dialog = error.dialog
    assert isinstance(dialog, DialogInfo), dialog
    return dialog
