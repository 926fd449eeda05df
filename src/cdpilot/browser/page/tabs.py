"""The browser's targets: which pages exist, which one is current, opening and closing tabs.

Pages are numbered in the order the connection first saw them, so an index from
`list_targets` keeps meaning the same tab while other tabs open and close; iframes and
workers are listed for orientation but cannot be made current.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch

from cdpilot.browser.page.page_facts import TargetClosed, TargetEntry, TargetSwitch
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, FieldProblem, StateError
from cdpilot.text import clip

CLOSE_WAIT_S = 5.0
LISTED_TYPES = ("page", "iframe", "worker", "shared_worker", "service_worker")


async def list_targets(conn: BrowserConnection) -> list[TargetEntry]:
    """Pages first (in first-seen order, numbered), then iframes and workers (unnumbered)."""
    infos = (await conn.cdp.browser.send("Target.getTargets"))["targetInfos"]
    listed = [i for i in infos if i["type"] in LISTED_TYPES and not str(i["url"]).startswith("devtools://")]
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
    created = await conn.cdp.browser.send("Target.createTarget", {"url": "about:blank"})
    await conn.use_target(str(created["targetId"]))
    await conn.fit_window()
    return next(e for e in await list_targets(conn) if e.target_id == created["targetId"])


async def close_target(conn: BrowserConnection, index: int | None) -> TargetClosed:
    """Close a page (default: the current one); answers the closed page and the current one after.

    The last page is replaced by a blank one first: a browser with no page may shut down."""
    pages = _pages(await list_targets(conn))
    closing = next((p for p in pages if (p.current if index is None else p.index == index)), None)
    if closing is None:
        raise _no_such_page(f"with index {index}", pages)
    remaining = [p for p in pages if p.target_id != closing.target_id]
    if closing.current:
        if remaining:
            await conn.use_target(remaining[-1].target_id)
        else:
            await new_target(conn)
    await _close(conn, closing.target_id)
    conn.forget_page(closing.target_id)
    current = next(e for e in await list_targets(conn) if e.current)
    return TargetClosed(closing, current)


async def _close(conn: BrowserConnection, target_id: str) -> None:
    """Close a target and wait (bounded) until the browser reports it destroyed: closeTarget
    answers before the target is gone, and a listing right after would still show it."""
    browser = conn.cdp.browser
    with browser.listen("Target.targetDestroyed") as destroyed:
        await browser.send("Target.closeTarget", {"targetId": target_id})
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_WAIT_S):
                while (await destroyed.next()).params.get("targetId") != target_id:
                    pass
