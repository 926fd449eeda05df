"""Cookies, the page's web storage, and storage-state files that carry a login elsewhere.

Cookies are the browser's (``Storage.getCookies`` on the browser session: every site, not
only the current page's); localStorage and sessionStorage are the current page's origin's,
read and written by a page script, so what is shown is what the page itself sees.

A storage state is cookies plus localStorage (and, a cdpilot addition other tools ignore,
sessionStorage) by origin, as JSON: the shape Playwright's ``storageState`` uses, so a file
from either tool loads in the other. Saving takes every cookie and the current page's
origin's storage. Loading is one step: every cookie, and each origin's storage wherever the
current tab is. Chrome writes an origin's storage only through a page of that origin
(``DOMStorage`` finds the storage by its frames), so each origin is visited in a hidden tab
of the same browser context, served an empty page of ours (the site itself is not asked, so
no request of the visit reaches it) while the storage is written. sessionStorage is per tab:
it goes into the current tab, through the current page when it is of that origin, through
such a visit of the current tab when it shows no site yet (a blank tab, which it is again
afterwards, its history reset); otherwise it is left out, and the answer says so. An origin the
server's origin lists refuse (``--allowed-origins``, ``--blocked-origins``) is never visited, so
its storage is left out, said with the rule; cookies are set whatever the lists say, as
`set_cookie` sets them: storing one reaches no server, and the browser sends none to a refused
origin, which it never requests.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

from cdpilot.browser.own_scripts import own_expression, page_script
from cdpilot.browser.page.storage_facts import Cookie, StorageNotLoaded, StorageState, WebStorage
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpSession, EventStream
from cdpilot.errors import ArgumentError, CdpCommandError, CdpilotError, FieldProblem, StateError

Area = Literal["local", "session"]
StorageOp = Literal["get", "set", "clear"]
Items = list[tuple[str, str]]
BLANK = "about:blank"
# What a hidden visit is served instead of the site's page: the storage needs a document of the origin, nothing more.
EMPTY_PAGE = base64.b64encode(b"<!doctype html><title>cdpilot: writing saved storage</title>").decode()
EVERY_REQUEST = {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
VISIT_LOAD_S = 5.0


async def cookies(conn: BrowserConnection, *, domain: str | None = None, name: str | None = None) -> list[Cookie]:
    """The browser's cookies whose domain ends with `domain` (at a dot) and whose name is `name`."""
    reply = await conn.cdp.browser.send("Storage.getCookies", conn.context_scope)
    found = [_cookie(raw) for raw in reply.get("cookies", [])]
    return [c for c in found if (name is None or c.name == name) and (domain is None or _in_domain(c.domain, domain))]


async def set_cookie(
    conn: BrowserConnection,
    *,
    name: str,
    value: str,
    domain: str | None,
    path: str,
    expires: float | None,
    http_only: bool,
    secure: bool,
    same_site: str | None,
) -> Cookie:
    """Set one cookie (on the current page's host when no domain is given); the cookie as the
    browser then holds it."""
    host = domain or _page_host(conn)
    if host is None:
        raise ArgumentError(
            "Say which domain the cookie is for: the current page has no host.",
            problems=[FieldProblem("domain", "a domain such as example.com", "nothing")],
        )
    param: dict[str, Any] = {"name": name, "value": value, "domain": host, "path": path}
    param.update(httpOnly=http_only, secure=secure)
    if expires is not None:
        param["expires"] = expires
    if same_site is not None:
        param["sameSite"] = same_site
    try:
        await conn.cdp.browser.send("Storage.setCookies", {"cookies": [param], **conn.context_scope})
    except CdpCommandError as exc:
        raise ArgumentError(
            f"The browser refused the cookie: {exc.cdp_message}.",
            problems=[FieldProblem("name", "a cookie the browser accepts", name)],
            suggestion="A SameSite=None cookie must also be secure; a name cannot hold ';' or '='.",
        ) from exc
    held = await cookies(conn, domain=host.lstrip("."), name=name)
    match = next((c for c in held if c.path == path), None)
    if match is None:  # accepted by the command, then dropped (an expiry in the past, say)
        raise StateError(f"The browser did not keep the cookie {name!r} for {host}.", suggestion="Check its expires.")
    return match


async def delete_cookies(conn: BrowserConnection, *, name: str | None, domain: str | None) -> list[Cookie]:
    """Delete the matching cookies (every cookie when neither is given); the ones deleted."""
    doomed = await cookies(conn, domain=domain, name=name)
    if name is None and domain is None:
        await conn.cdp.browser.send("Storage.clearCookies", conn.context_scope)
        return doomed
    for cookie in doomed:
        target = {"name": cookie.name, "domain": cookie.domain, "path": cookie.path}
        await conn.page.send("Network.deleteCookies", target)
    return doomed


async def web_storage(
    conn: BrowserConnection, op: StorageOp, area: Area, key: str | None = None, value: str | None = None
) -> WebStorage:
    """Read or change the current origin's localStorage or sessionStorage (all keys, or `key`);
    a read also lists the origin's IndexedDB databases."""
    arguments = json.dumps([op, area, key, value])
    expression = own_expression(f"(\n{page_script('web_storage')}\n)(...{arguments})")
    params = {"expression": expression, "returnByValue": True, "silent": True}
    reply = await conn.features.unless_blocked(conn.page.send("Runtime.evaluate", params))
    if "exceptionDetails" in reply:
        raise StateError(
            f"The current page ({conn.target_url}) has no storage of its own.",
            suggestion="Open a page of the site first with {tool:navigate}.",
        )
    found = reply["result"]["value"]
    origin = str(found["origin"])
    entries = tuple((str(k), str(v)) for k, v in found["entries"])
    databases = await _databases(conn, origin) if op == "get" else ()
    return WebStorage(origin, area, entries, int(found["total"]), databases)


async def storage_state(conn: BrowserConnection) -> tuple[dict[str, Any], StorageState]:
    """Every cookie and the current origin's localStorage and sessionStorage, as a storage-state document."""
    all_cookies = await cookies(conn)
    origins: list[dict[str, Any]] = []
    if _page_host(conn) is not None:
        local, session = await web_storage(conn, "get", "local"), await web_storage(conn, "get", "session")
        entry: dict[str, Any] = {"origin": local.origin, "localStorage": _items_json(local.entries)}
        if session.entries:
            entry["sessionStorage"] = _items_json(session.entries)
        if local.entries or session.entries:
            origins.append(entry)
    document = {"cookies": [_cookie_json(c) for c in all_cookies], "origins": origins}
    summary = StorageState(len(all_cookies), *_counts(origins))
    return document, summary


async def apply_storage_state(
    conn: BrowserConnection, document: dict[str, Any]
) -> tuple[StorageState, list[StorageNotLoaded]]:
    """Set the document's cookies and write each origin's localStorage and sessionStorage (see the module
    docstring); what was written, and what could not be, with why."""
    raw_cookies, origins = _checked(document)
    if raw_cookies:
        try:
            params = {"cookies": [_cookie_param(c) for c in raw_cookies], **conn.context_scope}
            await conn.cdp.browser.send("Storage.setCookies", params)
        except CdpCommandError as exc:
            raise ArgumentError(
                f"The browser refused the file's cookies: {exc.cdp_message}.",
                problems=[FieldProblem("path", "a storage state with valid cookies", "a cookie it refused")],
            ) from exc
    refused = {o["origin"]: r.statement for o in origins if (r := conn.interceptor.policy.refusal(str(o["origin"])))}
    not_loaded = [
        StorageNotLoaded(area, str(o["origin"]), "refused", refused[o["origin"]])
        for o in origins
        for area in ("local", "session")
        if o["origin"] in refused and _items(o, f"{area}Storage")
    ]
    kept = [o for o in origins if o["origin"] not in refused]
    local = [(str(o["origin"]), _items(o, "localStorage")) for o in kept if _items(o, "localStorage")]
    session = [(str(o["origin"]), _items(o, "sessionStorage")) for o in kept if _items(o, "sessionStorage")]
    not_loaded += await _in_hidden_tab(conn, local) if local else []
    current = _origin(conn.target_url or "")
    elsewhere = [(origin, items) for origin, items in session if origin != current]
    for key, value in next((items for origin, items in session if origin == current), []):
        await web_storage(conn, "set", "session", key, value)
    if elsewhere and current:
        not_loaded += [StorageNotLoaded("session", origin, "other tab", current) for origin, _ in elsewhere]
    elif elsewhere:
        not_loaded += await _in_blank_tab(conn, elsewhere)
    missed = {(n.area, n.origin) for n in not_loaded}
    written = StorageState(
        len(raw_cookies),
        tuple((origin, len(items)) for origin, items in local if ("local", origin) not in missed),
        tuple((origin, len(items)) for origin, items in session if ("session", origin) not in missed),
    )
    return written, not_loaded


async def _in_hidden_tab(conn: BrowserConnection, origins: Sequence[tuple[str, Items]]) -> list[StorageNotLoaded]:
    """Write each origin's localStorage through a hidden tab of the connection's browser context, closed after."""
    created = await conn.cdp.browser.send(
        "Target.createTarget", {"url": BLANK, "background": True, **conn.context_scope}
    )
    target_id = str(created["targetId"])
    try:
        session = await conn.cdp.attach(target_id)
        await session.send("Page.enable")
        return await _visit(session, "local", origins)
    finally:
        with contextlib.suppress(CdpilotError):
            await conn.cdp.browser.send("Target.closeTarget", {"targetId": target_id})
        conn.forget_page(target_id)


async def _in_blank_tab(conn: BrowserConnection, origins: Sequence[tuple[str, Items]]) -> list[StorageNotLoaded]:
    """Write each origin's sessionStorage through the current tab, which shows no site: blank again after, with
    no history of the visits."""
    page = conn.page
    try:
        return await _visit(page, "session", origins)
    finally:
        with contextlib.suppress(CdpilotError):
            # Loaded before the history goes: until then the tab may have no active page, and the
            # next command sent to it (the reset, or the agent's next call) would fail.
            await _open(page, BLANK)
            await page.send("Page.resetNavigationHistory")


async def _visit(session: CdpSession, area: Area, origins: Sequence[tuple[str, Items]]) -> list[StorageNotLoaded]:
    """Bring `session`'s page to each origin, served `EMPTY_PAGE` for every request it makes meanwhile, and write
    the origin's items there; the origins it could not reach."""
    not_loaded: list[StorageNotLoaded] = []
    with session.listen("Fetch.requestPaused") as paused:
        serving = asyncio.ensure_future(_serve_empty(session, paused))
        try:
            await session.send("Fetch.enable", EVERY_REQUEST)
            for origin, items in origins:
                problem = await _write_at(session, origin, area, items)
                if problem:
                    not_loaded.append(StorageNotLoaded(area, origin, "unreachable", problem))
        finally:
            serving.cancel()
            with contextlib.suppress(CdpilotError):
                await session.send("Fetch.disable")
    return not_loaded


async def _serve_empty(session: CdpSession, paused: EventStream) -> None:
    while True:
        event = await paused.next()
        reply = {"responseCode": 200, "responseHeaders": [{"name": "Content-Type", "value": "text/html"}]}
        with contextlib.suppress(CdpilotError):  # the visit may have moved on
            await session.send(
                "Fetch.fulfillRequest", {"requestId": event.params["requestId"], **reply, "body": EMPTY_PAGE}
            )


async def _write_at(session: CdpSession, origin: str, area: Area, items: Items) -> str:
    """Write `items` into `area` of `origin` through `session`'s page; why not, or "" once written."""
    if not _origin(origin) or _origin(origin) != origin:
        return "it is not an http(s) origin"
    problem = await _open(session, origin + "/")
    if problem:
        return problem
    arguments = json.dumps([origin, area, items])
    expression = own_expression(f"(\n{page_script('restore_storage')}\n)(...{arguments})")
    result = await session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "silent": True})
    if "exceptionDetails" in result or result["result"].get("value") is None:
        return "its page did not take the storage"
    return ""


async def _open(session: CdpSession, url: str) -> str:
    """Navigate `session`'s page to `url` and wait for its load; why not, or "" once loaded."""
    with session.listen("Page.loadEventFired") as loaded:
        reply = await session.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            return f"its page did not open: {reply['errorText']}"
        try:
            async with asyncio.timeout(VISIT_LOAD_S):
                await loaded.next()
        except TimeoutError:
            return "its page did not load"
    return ""


def _items(entry: dict[str, Any], area: str) -> Items:
    return [(str(item["name"]), str(item["value"])) for item in entry.get(area, [])]


def _items_json(entries: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in entries]


def _counts(origins: Sequence[dict[str, Any]]) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """(origin, keys) of each origin's localStorage, then of its sessionStorage, leaving out the empty ones."""
    local = tuple((str(o["origin"]), len(o["localStorage"])) for o in origins if o.get("localStorage"))
    session = tuple((str(o["origin"]), len(o["sessionStorage"])) for o in origins if o.get("sessionStorage"))
    return local, session


def parse_storage_state(data: bytes) -> dict[str, Any]:
    """A storage-state file's document; ArgumentError naming `path` when it is not one."""
    try:
        document = json.loads(data)
        _checked(document)
    except (ValueError, TypeError, KeyError) as exc:
        raise ArgumentError(
            "The file is not a storage state.",
            problems=[FieldProblem("path", 'JSON with "cookies" and "origins" lists', f"a file that fails: {exc}")],
            suggestion="Load a file written by {tool:save_storage_state}.",
        ) from exc
    return dict(document)


def _checked(document: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    if not isinstance(document, dict):
        raise TypeError("the top level is not an object")
    raw_cookies, origins = document.get("cookies", []), document.get("origins", [])
    if not isinstance(raw_cookies, list) or not isinstance(origins, list):
        raise TypeError('"cookies" and "origins" must be lists')
    for cookie in raw_cookies:
        if not isinstance(cookie, dict) or not {"name", "value", "domain"} <= cookie.keys():
            raise KeyError("a cookie without name, value and domain")
    for entry in origins:
        if not isinstance(entry, dict) or not isinstance(entry.get("origin"), str):
            raise KeyError("an origin entry without its origin")
        for area in ("localStorage", "sessionStorage"):
            items = entry.get(area, [])
            if not isinstance(items, list) or not all(
                isinstance(i, dict) and {"name", "value"} <= i.keys() for i in items
            ):
                raise KeyError(f"a {area} that is not a list of name and value")
    return raw_cookies, origins


async def _databases(conn: BrowserConnection, origin: str) -> tuple[str, ...] | None:
    """The origin's IndexedDB database names; none when the browser cannot say, and None while
    the page is paused in the debugger: the IndexedDB backend answers through the page's
    renderer, which does not answer until it resumes."""
    if conn.features.debugger.paused is not None:
        return None
    try:
        reply = await conn.page.send("IndexedDB.requestDatabaseNames", {"securityOrigin": origin})
    except CdpCommandError:
        return ()
    return tuple(str(name) for name in reply.get("databaseNames", []))


def _cookie(raw: dict[str, Any]) -> Cookie:
    session = bool(raw.get("session")) or float(raw.get("expires", -1)) < 0
    return Cookie(
        name=str(raw["name"]),
        value=str(raw["value"]),
        domain=str(raw["domain"]),
        path=str(raw.get("path", "/")),
        expires=None if session else float(raw["expires"]),
        http_only=bool(raw.get("httpOnly")),
        secure=bool(raw.get("secure")),
        same_site=str(raw.get("sameSite", "")),
        size=int(raw.get("size", 0)),
    )


def _cookie_json(cookie: Cookie) -> dict[str, Any]:
    """As Playwright writes it: expires -1 for a session cookie."""
    return {
        "name": cookie.name,
        "value": cookie.value,
        "domain": cookie.domain,
        "path": cookie.path,
        "expires": -1 if cookie.expires is None else cookie.expires,
        "httpOnly": cookie.http_only,
        "secure": cookie.secure,
        "sameSite": cookie.same_site or "Lax",
    }


def _cookie_param(raw: dict[str, Any]) -> dict[str, Any]:
    param: dict[str, Any] = {k: raw[k] for k in ("name", "value", "domain", "path", "httpOnly", "secure") if k in raw}
    if isinstance(raw.get("expires"), int | float) and raw["expires"] >= 0:
        param["expires"] = raw["expires"]
    if raw.get("sameSite") in ("Strict", "Lax", "None"):
        param["sameSite"] = raw["sameSite"]
    return param


def host_outside(conn: BrowserConnection, cookie: Cookie) -> str | None:
    """The current page's host when `cookie` is not sent to it (a cookie set for another site,
    to carry a login there, is legitimate, but the page at hand will not see it); else None."""
    host = _page_host(conn)
    return host if host is not None and not _in_domain(host, cookie.domain) else None


def _in_domain(cookie_domain: str, wanted: str) -> bool:
    have, want = cookie_domain.lstrip(".").lower(), wanted.lstrip(".").lower()
    return have == want or have.endswith("." + want)


def _page_host(conn: BrowserConnection) -> str | None:
    parts = urlsplit(conn.target_url or "")
    return parts.hostname if parts.scheme in ("http", "https") else None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    return f"{parts.scheme}://{parts.netloc}"
