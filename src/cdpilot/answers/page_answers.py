"""What the page tools answer: tabs, navigation, screenshots, PDFs, viewport, media, evaluation.

A pause in the debugger that ends a navigation or an evaluation early is the news, so those
answers lead with one sentence saying so and carry the pause bundle (rendered by the
debugger's answers) below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cdpilot.answers.page_leaving_answers import close_asked_answer, leave_asked_lines, unfinished_load_lines
from cdpilot.browser.page.page_facts import Download, NavigationKind, NavigationResult
from cdpilot.browser.page.tab_facts import CloseAsked, TargetClosed, TargetEntry, TargetSwitch
from cdpilot.text import clip, exact_size, human_size, one_line, plural

if TYPE_CHECKING:  # the capture and emulation tools' facts: not imported by a first navigate's answer
    from cdpilot.browser.emulation.emulation_facts import MediaEmulation, ViewportSet
    from cdpilot.browser.page.capture_facts import ImageFormat, PaperSize, PdfFile, Screenshot, ScreenshotCut

TARGET_LINE_CHARS = 160
DOWNLOAD_URL_CHARS = 160
DOWNLOAD_NAME_CHARS = 80
UNREADABLE_SCALE = 0.25  # below it, text in a shrunk screenshot cannot be read
MAX_LISTED_TARGETS = 30
VERB_OF: dict[NavigationKind, str] = {
    "goto": "Navigated to",
    "back": "Went back to",
    "forward": "Went forward to",
    "reload": "Reloaded",
}


def target_line(entry: TargetEntry) -> str:
    """``*[1] Title — url``: ``*`` marks the current page; iframes and workers show their type."""
    mark = "*" if entry.current else " "
    where = f"[{entry.index}]" if entry.index is not None else f"({entry.type})"
    title = entry.title if entry.title and entry.title != entry.url else ""
    text = f"{mark}{where} {title + ' — ' if title else ''}{entry.url}"
    return clip(text, TARGET_LINE_CHARS)


def download_line(download: Download) -> str:
    """``Downloaded report.csv (8,192 bytes (8 KB)) from <url>: saved as <path>.``, or how far it got (to the byte:
    an agent compares it with what it expected)."""
    url = clip(one_line(download.url), DOWNLOAD_URL_CHARS)
    name = clip(one_line(download.filename), DOWNLOAD_NAME_CHARS)
    if download.state == "canceled":
        return f"Started a download of {name} from {url}; it was canceled."
    if download.state == "in progress":
        total = f" of {exact_size(download.total_bytes)}" if download.total_bytes else ""
        return (
            f"Started a download of {name} from {url}; {exact_size(download.received_bytes)}{total} so far. "
            "It goes on in the background."
        )
    size = exact_size(download.received_bytes)
    if download.problem:
        return f"Downloaded {name} ({size}) from {url}, but {download.problem}."
    where = f"saved as {download.path}" if download.path else "saved where this browser saves downloads"
    return f"Downloaded {name} ({size}) from {url}: {where}."


def targets_answer(entries: Sequence[TargetEntry], *, max_listed: int = MAX_LISTED_TARGETS) -> str:
    pages = sum(1 for e in entries if e.index is not None)
    head = f"{pages} page(s), {len(entries) - pages} other target(s); * = current page."
    shown = [target_line(e) for e in entries[:max_listed]]
    if len(entries) > max_listed:
        shown.append(
            f"… {len(entries) - max_listed} more not shown; {{tool:switch_target}} picks one by its "
            "{param:switch_target.url} or {param:switch_target.title}"
        )
    return "\n".join([head, *shown])


def switched_target_answer(switch: TargetSwitch) -> str:
    others = switch.others_matched
    extra = f" ({others} more page(s) matched; the first was chosen)" if others else ""
    return f"Current page is now{extra}:\n{target_line(switch.chosen).lstrip()}"


def new_tab_answer(entry: TargetEntry, loaded: NavigationResult | None) -> str:
    """The tab opened, and where it loaded when a URL was given (`loaded`)."""
    text = f"Opened a new tab [{entry.index}], now the current page."
    if loaded is not None:
        verb = "Loaded" if loaded.unfinished is None else "Went to"
        text += f"\n{verb} {loaded.url} ({_status(loaded)}). Title: {loaded.title or '(none)'}"
    if loaded is not None and loaded.unfinished is not None:
        text += "\n" + "\n".join(unfinished_load_lines(loaded.unfinished, loaded.wait_until))
    return text


def closed_target_answer(outcome: TargetClosed | CloseAsked) -> str:
    if isinstance(outcome, CloseAsked):
        return close_asked_answer(outcome)
    closed = outcome.closed
    return (
        f"Closed [{closed.index}] {closed.title or closed.url}.\nCurrent page: {target_line(outcome.current).lstrip()}"
    )


def close_answered_answer(closing: TargetEntry, outcome: TargetClosed | None) -> str:
    """The beforeunload dialog that closing a page raised, answered: closed (`outcome`), or kept."""
    if outcome is None:
        kept = f"[{closing.index}] {closing.title or closing.url}"
        return f"Dismissed the beforeunload dialog: {kept} stays open, the current page."
    return "Accepted leaving the page (its beforeunload dialog).\n" + closed_target_answer(outcome)


def navigation_answer(result: NavigationResult) -> str:
    if result.asked is not None:
        return "\n".join(leave_asked_lines(result.kind, result.to, result.url, result.title))
    if result.download is not None:
        stayed = f"The page stayed at {result.url}" + (f' ("{result.title}").' if result.title else ".")
        return "\n".join([download_line(result.download), stayed, *_dismissed(result)])
    if result.unfinished is not None:
        reached = f"{_status(result)}, after {result.elapsed_ms} ms"
        unfinished = unfinished_load_lines(result.unfinished, result.wait_until)
    else:
        reached, unfinished = f"{_status(result)}, {result.wait_until} after {result.elapsed_ms} ms", []
    lines = [f"{VERB_OF[result.kind]} {result.url} ({reached})", f"Title: {result.title or '(none)'}"]
    return "\n".join(lines + unfinished + _dismissed(result))


def paused_navigation_answer(result: NavigationResult, bundle: list[str]) -> str:
    """A navigation whose new page paused in its scripts before `wait_until`, with the pause bundle."""
    head = f"{VERB_OF[result.kind]} {result.url}; its scripts paused in the debugger before {result.wait_until!r}:"
    return "\n".join([head, *_dismissed(result), *bundle])


def _dismissed(result: NavigationResult) -> list[str]:
    """The dialog the old page had open: the navigation closed it unanswered, as Chrome does."""
    if result.dismissed is None:
        return []
    return [f'The {result.dismissed.type} dialog that was open ("{result.dismissed.preview}") closed unanswered.']


def _status(result: NavigationResult) -> str:
    return f"HTTP {result.status}" if result.status is not None else "no HTTP status"


def screenshot_text(shot: Screenshot, *, exact: bool = False) -> str:
    """``the viewport, 780×437, jpeg q80, 5 KB``: what was captured, its size, format and weight (`exact`: to the
    byte, for a file written); what a cut left out, and the image's own size when it was shrunk."""
    text = f"{_subject(shot)}, {shot.width}×{shot.height}"
    if shot.cut is not None:
        text += f" (cut from {shot.cut.full_width}×{shot.cut.full_height}: {_cut_reason(shot.cut, shot.format)})"
    if shot.scale < 1:
        text += f" scaled to {shot.image_width}×{shot.image_height} (scale {shot.scale:.3g})"
    quality = "" if shot.quality is None else f" q{shot.quality}"
    if shot.asked_quality is not None:
        quality += f" (asked q{shot.asked_quality})"
    weight = exact_size(shot.size_bytes) if exact else human_size(shot.size_bytes)
    return f"{text}, {shot.format}{quality}, {weight}"


def _subject(shot: Screenshot) -> str:
    if shot.area == "viewport":
        return "the viewport"
    if shot.area == "full page":
        return "full page"
    return shot.selector or "an element"


def _cut_reason(cut: ScreenshotCut, image_format: ImageFormat) -> str:
    if cut.by == "format":
        return (
            f"a {image_format} image is at most {cut.limit:,} px a side; "
            "{param:browser_screenshot.format}=png goes further"
        )
    return f"a larger image might not fit in one CDP message of {human_size(cut.limit)}"


def screenshot_answer(shot: Screenshot) -> str:
    """The text beside an image answered inline; one shrunk to fit says so, and how to get it whole."""
    text = f"Screenshot of {screenshot_text(shot)}"
    fit = shot.fitted_to
    if fit is None:
        return text
    steps = (("scaled down", shot.scale < 1), ("quality lowered", shot.asked_quality is not None))
    done = " and ".join(step for step, taken in steps if taken)
    text += (
        f". {done.capitalize()} to fit an inline image (at most {fit.max_side_px:,} px a side and "
        f"{fit.max_chars:,} base64 characters); {{param:browser_screenshot.path}}=… saves it as asked, "
        "at full resolution."
    )
    if shot.scale < UNREADABLE_SCALE:
        text += (
            " Details are unreadable at this scale: capture one element with "
            "{param:browser_screenshot.selector}=…, or the viewport."
        )
    return text


def saved_screenshot_answer(shot: Screenshot, path: str) -> str:
    return f"Saved screenshot of {screenshot_text(shot, exact=True)} to {path}"


def saved_pdf_answer(pdf: PdfFile, *, url: str, path: str, paper: PaperSize, landscape: bool) -> str:
    orientation = "landscape" if landscape else "portrait"
    size = f"{plural(pdf.pages, 'page')}, {exact_size(len(pdf.data))}"
    return f"Saved a PDF of {url} to {path}: {size} ({paper}, {orientation})."


def viewport_answer(viewport: ViewportSet) -> str:
    kind = "mobile" if viewport.mobile else "desktop"
    return (
        f"Viewport set to {viewport.width}×{viewport.height} ({kind}, pixel ratio {viewport.device_scale_factor:g}); "
        f"the page now sees innerWidth {viewport.inner_width}, innerHeight {viewport.inner_height}."
    )


def media_answer(emulation: MediaEmulation) -> str:
    shown = (
        ("media", emulation.media),
        ("prefers-color-scheme", emulation.color_scheme),
        ("prefers-reduced-motion", emulation.reduced_motion),
    )
    return "Emulating " + ", ".join(f"{name}: {value or 'as the browser has it'}" for name, value in shown)


def paused_evaluation_answer(bundle: list[str]) -> str:
    """An expression that ran into a pause, with the pause bundle."""
    return "\n".join(["The expression paused in the debugger before it finished:", *bundle])
