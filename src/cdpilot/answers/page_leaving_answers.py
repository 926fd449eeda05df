"""Answers about leaving a page: one that asks to confirm it (beforeunload), one whose new
document never finished loading, and one that closed itself (a popup's ``window.close()``).

A beforeunload dialog holds the navigation or the close that raised it, so the answer says at
once that nothing moved yet and how the agent decides. Chrome shows the dialog only to a page
that has had a user gesture; the message is the browser's own (pages cannot set it), so it is
not quoted. A load that ran out of time is not a failure when its document committed: the
answer says how far it got and what still holds it.
"""

from __future__ import annotations

from cdpilot.browser.page.page_facts import LoadProgress, NavigationKind
from cdpilot.browser.page.tab_facts import CloseAsked, TargetClosed, TargetEntry
from cdpilot.text import clip, one_line, plural

URL_CHARS = 160
TITLE_CHARS = 80
ASKS = "The page asks to confirm leaving (its beforeunload dialog is open)"
LEAVE_CHOICE = "Answer with {tool:handle_dialog}: {param:handle_dialog.accept}=true leaves, false stays."
CLOSE_CHOICE = "Answer with {tool:handle_dialog}: {param:handle_dialog.accept}=true closes it, false keeps it open."
HELD: dict[NavigationKind, str] = {
    "goto": "the navigation to {to} waits",
    "back": "going back waits",
    "forward": "going forward waits",
    "reload": "the reload waits",
}


def leave_asked_lines(kind: NavigationKind, to: str, url: str, title: str) -> list[str]:
    """A navigation held by the old page's beforeunload dialog: it has not moved."""
    held = HELD[kind].format(to=_url(to))
    named = f' ("{clip(one_line(title), TITLE_CHARS)}")' if title else ""
    return [f"{ASKS}, so {held}: the page is still at {_url(url)}{named}.", LEAVE_CHOICE]


def action_leave_asked_lines(requested_url: str) -> list[str]:
    """An action (a link clicked, a form sent) whose navigation the page asks to confirm."""
    held = f", so the navigation to {_url(requested_url)} waits" if requested_url else ""
    return [f"{ASKS}{held}.", LEAVE_CHOICE]


def close_asked_answer(asked: CloseAsked) -> str:
    """Closing the current page ran its beforeunload handler, which asks to confirm."""
    return "\n".join([f"{ASKS}, so {_page(asked.closing)} is not closed yet; it stays the current page.", CLOSE_CHOICE])


def leave_answered_line(*, accepted: bool) -> str:
    """The beforeunload dialog answered; where the page went follows in the answer."""
    if accepted:
        return "Accepted leaving the page (its beforeunload dialog)."
    return "Dismissed the beforeunload dialog: the page stays."


def unfinished_load_lines(progress: LoadProgress, wait_until: str) -> list[str]:
    """How far a committed document got when the wait for `wait_until` ran out."""
    lines = [f"{wait_until!r} was not reached within {progress.timeout_ms} ms."]
    if progress.dom_ready:
        lines.append("The document is parsed (DOMContentLoaded fired): the page can be used, queries and actions work.")
    else:
        lines.append("The document is not parsed yet (no DOMContentLoaded): queries see the part parsed so far.")
    if not progress.pending_total:
        return [*lines, "No request is pending."]
    lines.append(f"{plural(progress.pending_total, 'request')} still pending:")
    lines += [f"  {_url(url)}" for url in progress.pending]
    rest = progress.pending_total - len(progress.pending)
    if rest > 0:
        lines.append(f"  … {rest} more; {{tool:list_network_requests}} lists them all.")
    return lines


def _page(entry: TargetEntry) -> str:
    return f"[{entry.index}] {clip(one_line(entry.title or entry.url), TITLE_CHARS)}"


def _url(url: str) -> str:
    return clip(one_line(url), URL_CHARS)


def closed_itself_line(done: str, gone: TargetClosed) -> str:
    """An action whose page closed itself (a sign-in popup that posts to its opener, then closes): what was done,
    that the tab closed, and the page current now, which the next tools act on."""
    return (
        f"{done}; the tab closed itself ({_title_and_url(gone.closed)}); the current page is now "
        f"[{gone.current.index}] {_title_and_url(gone.current)}."
    )


def _title_and_url(entry: TargetEntry) -> str:
    named = f'"{clip(one_line(entry.title), TITLE_CHARS)}" ' if entry.title else ""
    return named + _url(entry.url)
