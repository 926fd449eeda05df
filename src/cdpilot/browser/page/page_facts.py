"""What the page tools learn, as plain data: tabs, loads, dialogs, screenshots, PDFs, emulation
and evaluated values.

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
ImageFormat = Literal["jpeg", "png", "webp"]
ScreenshotArea = Literal["viewport", "full page", "element"]
PaperSize = Literal["letter", "a4", "legal"]


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


@dataclass(frozen=True)
class Cookie:
    name: str
    value: str
    domain: str
    path: str
    expires: float | None  # Unix seconds; None: a session cookie
    http_only: bool
    secure: bool
    same_site: str  # "" when the browser did not say
    size: int


@dataclass(frozen=True)
class WebStorage:
    """The entries of one origin's localStorage or sessionStorage that were asked for."""

    origin: str
    area: Literal["local", "session"]
    entries: tuple[tuple[str, str], ...]
    total: int  # keys in the store; more than `entries` when one key was asked for
    databases: tuple[str, ...] | None = ()  # the origin's IndexedDB databases; None: not listed (paused)


@dataclass(frozen=True)
class StorageState:
    """What a storage-state file held or was given: cookies, and localStorage and sessionStorage by origin."""

    cookies: int
    origins: tuple[tuple[str, int], ...]  # (origin, localStorage keys)
    sessions: tuple[tuple[str, int], ...] = ()  # (origin, sessionStorage keys)


@dataclass(frozen=True)
class StorageNotLoaded:
    """A saved origin's web storage that loading a storage state could not write, and why."""

    area: Literal["local", "session"]
    origin: str
    # "unreachable": no page of the origin could be opened (`detail` says why); "other tab": sessionStorage,
    # which is per tab, of an origin the current tab is not at (`detail`: where it is); "refused": the server's
    # origin lists refuse the origin (`detail`: the refusal's statement)
    reason: Literal["unreachable", "other tab", "refused"]
    detail: str


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


@dataclass(frozen=True)
class ImageLimits:
    """How large an image answered inline may be: pixels on its longest side, base64 characters."""

    max_side_px: int
    max_chars: int


@dataclass(frozen=True)
class ScreenshotCut:
    """A capture that could not cover its whole area: what the whole was, and what stopped it."""

    full_width: int  # CSS pixels of the whole area
    full_height: int
    by: Literal["format", "message"]  # the largest side the format can encode, or the largest CDP message
    limit: int  # pixels of that side, or bytes of that message


@dataclass(frozen=True)
class Screenshot:
    data_base64: str  # as Chrome sent it: handed on to the client without re-encoding
    format: ImageFormat
    quality: int | None  # jpeg and webp only: the quality it was encoded at
    width: int  # CSS pixels of the captured area
    height: int
    area: ScreenshotArea
    selector: str | None = None  # the element's selector, for an element
    image_width: int | None = None  # pixels of the image: CSS size × device pixel ratio × scale
    image_height: int | None = None
    scale: float = 1.0  # of the full resolution: below 1 when shrunk to fit `fitted_to`
    fitted_to: ImageLimits | None = None  # the inline limits it was shrunk (or its quality lowered) for
    asked_quality: int | None = None  # the quality asked for, when a lower one was used to fit
    cut: ScreenshotCut | None = None

    @property
    def mime_type(self) -> str:
        return f"image/{self.format}"

    @property
    def size_bytes(self) -> int:
        return len(self.data_base64) * 3 // 4 - self.data_base64[-2:].count("=")


@dataclass(frozen=True)
class PdfFile:
    """The page printed as a PDF: the file's bytes, and how many pages they hold."""

    data: bytes
    pages: int


@dataclass(frozen=True)
class ViewportSet:
    """The viewport override asked for, and what the page measures once it is in place."""

    width: int
    height: int
    device_scale_factor: float
    mobile: bool
    inner_width: int
    inner_height: int


@dataclass(frozen=True)
class MediaEmulation:
    """The emulated CSS media type and features; None means the browser's own value."""

    media: str | None
    color_scheme: str | None
    reduced_motion: str | None
