"""The browser's targets: which pages exist, which one is current, opening and closing tabs.

Pages are numbered in the order the connection first saw them, so an index from
`list_targets` keeps meaning the same tab while other tabs open and close; iframes and
workers are listed for orientation but cannot be made current.
"""

from __future__ import annotations

import asyncio
import fnmatch

from cdpilot.browser.page.tab_facts import CloseAsked, PendingClose, TargetClosed, TargetEntry, TargetSwitch
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import EventStream
from cdpilot.errors import ArgumentError, CdpCommandError, DialogOpenError, FieldProblem, StateError
from cdpilot.text import clip

CLOSE_WAIT_S = 5.0
BLANK = "about:blank"
LISTED_TYPES = ("page", "iframe", "worker", "shared_worker", "service_worker")


async def list_targets(conn: BrowserConnection) -> list[TargetEntry]:
    """Pages first (in first-seen order, numbered), then iframes and workers (unnumbered)."""
    infos = (await conn.cdp.browser.send("Target.getTargets"))["targetInfos"]
    listed = [
        i for i in infos if i["type"] in LISTED_TYPES and conn.owns(i) and not str(i["url"]).startswith("devtools://")
    ]
    order = {target_id: n for n, target_id in enumerate(conn.page_order)}
    pages = sorted((i for i in listed if i["type"] == "page"), key=lambda i: order.get(i["targetId"], len(order)))
    current = conn.page.target_id
    entries = [
        TargetEntry(n, p["targetId"], "page", p["title"], p["url"], p["targetId"] == current)
        for n, p in enumerate(pages)
    ]
    entries += [
        TargetEntry(None, i["targetId"], i["type"], i["title"], i["url"], False) for i in listed if i["type"] != "page"
    ]
    return entries


def _pages(entries: list[TargetEntry]) -> list[TargetEntry]:
    return [e for e in entries if e.index is not None]


def _no_such_page(what: str, entries: list[TargetEntry]) -> StateError:
    listing = "; ".join(clip(f"[{e.index}] {e.title or e.url}", 80) for e in _pages(entries))
    return StateError(f"No page {what}. Pages: {listing}.", suggestion="See every page with {tool:list_targets}.")


def check_page_choice(index: int | None, title: str | None, url: str | None) -> None:
    """A page is chosen by exactly one of index, title or url."""
    given = [value for value in (index, title, url) if value is not None]
    if len(given) != 1:
        raise ArgumentError(
            "Choose the page by exactly one of index, title or url.",
            problems=[FieldProblem("index/title/url", "exactly one of them", f"{len(given)} given")],
        )


async def switch_target(
    conn: BrowserConnection, *, index: int | None, title: str | None, url: str | None
) -> TargetSwitch:
    """Make the chosen page current (chosen as `check_page_choice` allows); answers it and how
    many other pages also matched."""
    pages = _pages(await list_targets(conn))
    if index is not None:
        matches = [p for p in pages if p.index == index]
        what = f"with index {index}"
    elif title is not None:
        matches = [p for p in pages if title.lower() in p.title.lower()]
        what = f"whose title contains {title!r}"
    else:
        assert url is not None
        matches = [p for p in pages if fnmatch.fnmatchcase(p.url, url)]
        what = f"whose URL matches {url!r}"
    if not matches:
        raise _no_such_page(what, pages)
    chosen = matches[0]
    if chosen.target_id != conn.page.target_id:  # the current page keeps its session, and what it collected
        await conn.use_target(chosen.target_id)
    await conn.cdp.browser.send("Target.activateTarget", {"targetId": chosen.target_id})
    return TargetSwitch(chosen, len(matches) - 1)


async def new_target(conn: BrowserConnection) -> TargetEntry:
    """Open a blank tab and make it current (the caller navigates it)."""
    created = await conn.open_page(BLANK)
    await conn.use_target(created)
    await conn.fit_window()
    return next(e for e in await list_targets(conn) if e.target_id == created)


async def close_target(conn: BrowserConnection, index: int | None) -> TargetClosed | CloseAsked:
    """Close a page (default: the current one); answers the closed page and the current one after.

    The current page is closed as a user would close it, running its beforeunload handler: a
    page that asks to confirm leaving stays open until the dialog is answered (`answer_close`),
    and the result says so. A page in the background, or one held by a dialog or a debugger
    pause, is closed by the browser without asking. The last page is replaced by a blank one:
    a browser with no page may shut down."""
    if index is None and (gone := await replace_closed_page(conn)) is not None:
        raise StateError(
            f"Nothing was closed: the current page, {_named(gone.closed)}, had already closed itself. The current "
            f"page is now [{gone.current.index}] {_named(gone.current)}.",
            suggestion="Close a page by its index ({tool:list_targets} lists them) if you mean to.",
        )
    pages = _pages(await list_targets(conn))
    closing = next((p for p in pages if (p.current if index is None else p.index == index)), None)
    if closing is None:
        raise _no_such_page(f"with index {index}", pages)
    if not closing.current:
        await _close(conn, closing.target_id)
        return await _closed(conn, closing)
    alone = all(p.target_id == closing.target_id for p in pages)
    spare = await conn.open_page(BLANK) if alone else None
    if await _close_current_asks(conn):
        conn.features.dialogs.closing = PendingClose(closing, spare)
        return CloseAsked(closing)
    return await _after_current_closed(conn, closing, spare)


async def replace_closed_page(conn: BrowserConnection) -> TargetClosed | None:
    """When the current page has closed itself (``window.close()``, as a sign-in popup does once it has told its
    opener), make the page that opened it current, else the newest other page (else a new blank one), so that
    the next tool has a page; what closed and what is current now. None while the current page is there (a
    session detached from a page that is still open is no close). A closing page's session may end a moment
    before the browser drops the target: that moment is waited for (bounded)."""
    page = conn.page
    target_id = page.target_id
    assert target_id is not None, "a page session always belongs to a target"
    with conn.cdp.browser.listen("Target.targetDestroyed") as destroyed:
        infos = (await conn.cdp.browser.send("Target.getTargets"))["targetInfos"]
        listed = any(info["targetId"] == target_id for info in infos)
        if listed and (page.ended is None or not await _until_destroyed(destroyed, target_id)):
            return None
    closed = TargetEntry(None, target_id, "page", conn.target_title or "", conn.target_url or "", False)
    pages = _pages(await list_targets(conn))
    opener = conn.openers.get(target_id)
    chosen = next((p for p in pages if p.target_id == opener), pages[-1] if pages else None)
    if chosen is None:
        await new_target(conn)
    else:
        await conn.use_target(chosen.target_id)
    return await _closed(conn, closed)


def _named(entry: TargetEntry) -> str:
    return f'"{clip(entry.title, 80)}" ({clip(entry.url, 160)})' if entry.title else clip(entry.url, 160)


async def answer_close(conn: BrowserConnection, pending: PendingClose, accept: bool) -> TargetClosed | None:
    """Answer the beforeunload dialog that closing the current page raised: accepted, the page
    closes and another becomes current; dismissed, it stays (None) and the spare blank page goes."""
    target_id = pending.closing.target_id
    browser = conn.cdp.browser
    with browser.listen("Target.targetDestroyed") as destroyed:
        if not accept:
            await conn.features.dialogs.handle(conn.page, False, None)
            if pending.spare is not None:
                await _close(conn, pending.spare)
            return None
        await conn.page.send("Page.handleJavaScriptDialog", {"accept": True})
        if not await _until_destroyed(destroyed, target_id):
            await _close(conn, target_id)  # it did not go by itself: close it as a background page is
    return await _after_current_closed(conn, pending.closing, pending.spare)


async def _close_current_asks(conn: BrowserConnection) -> bool:
    """Close the current page with ``Page.close``, which runs its beforeunload handler; True
    when that asks to confirm (the page stays). A page held by a dialog or a pause cannot run
    the handler, and one that does not go in time goes by ``Target.closeTarget``."""
    page, features = conn.page, conn.features
    target_id = page.target_id
    assert target_id is not None, "a page session always belongs to a target"
    if features.dialogs.open is not None or features.debugger.paused is not None:
        await _close(conn, target_id)
        return False
    with conn.cdp.browser.listen("Target.targetDestroyed") as destroyed:

        async def closed() -> bool:
            await page.send("Page.close")
            return await _until_destroyed(destroyed, target_id)

        try:
            gone = await features.unless_blocked(closed())
        except DialogOpenError as exc:
            if exc.dialog.type == "beforeunload":
                return True
            raise
        except CdpCommandError:  # a browser without Page.close
            gone = False
    if not gone:
        await _close(conn, target_id)
    return False


async def _after_current_closed(conn: BrowserConnection, closing: TargetEntry, spare: str | None) -> TargetClosed:
    """Make the spare page current (a new tab: fitted like one), else the last other page."""
    if spare is not None:
        await conn.use_target(spare)
        await conn.fit_window()
    else:
        others = [p for p in _pages(await list_targets(conn)) if p.target_id != closing.target_id]
        if others:
            await conn.use_target(others[-1].target_id)
        else:  # the other pages closed meanwhile
            await new_target(conn)
    return await _closed(conn, closing)


async def _closed(conn: BrowserConnection, closing: TargetEntry) -> TargetClosed:
    conn.forget_page(closing.target_id)
    current = next(e for e in await list_targets(conn) if e.current)
    return TargetClosed(closing, current)


async def _close(conn: BrowserConnection, target_id: str) -> None:
    """Close a target and wait (bounded) until the browser reports it destroyed: closeTarget
    answers before the target is gone, and a listing right after would still show it."""
    browser = conn.cdp.browser
    with browser.listen("Target.targetDestroyed") as destroyed:
        await browser.send("Target.closeTarget", {"targetId": target_id})
        await _until_destroyed(destroyed, target_id)


async def _until_destroyed(destroyed: EventStream, target_id: str) -> bool:
    """Whether the browser reported `target_id` destroyed within `CLOSE_WAIT_S`."""
    try:
        async with asyncio.timeout(CLOSE_WAIT_S):
            while (await destroyed.next()).params.get("targetId") != target_id:
                pass
    except TimeoutError:
        return False
    return True
