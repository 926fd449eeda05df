"""Cookies, the page's web storage, and storage-state files that carry a login elsewhere.

Cookies are the browser's (``Storage.getCookies`` on the browser session: every site, not
only the current page's); localStorage and sessionStorage are the current page's origin's,
read and written by a page script, so what is shown is what the page itself sees.

A storage state is cookies plus localStorage by origin, as JSON: the shape Playwright's
``storageState`` uses, so a file from either tool loads in the other. Loading sets every
cookie, and the localStorage of the current page's origin: Chrome changes a page's storage
only through a page of that origin (``DOMStorage`` finds the storage by its frames). The
result names the origins left out, so the agent can open one of their pages and load again.
"""

from __future__ import annotations

import json
from typing import Any, Literal
from urllib.parse import urlsplit

from cdpilot.browser.own_scripts import own_expression, page_script
from cdpilot.browser.page.page_facts import Cookie, StorageState, WebStorage
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, CdpCommandError, FieldProblem, StateError

Area = Literal["local", "session"]
StorageOp = Literal["get", "set", "clear"]


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
    """Every cookie and the current origin's localStorage, as a storage-state document."""
    all_cookies = await cookies(conn)
    origins: list[dict[str, Any]] = []
    if _page_host(conn) is not None:
        local = await web_storage(conn, "get", "local")
        if local.entries:
            items = [{"name": k, "value": v} for k, v in local.entries]
            origins.append({"origin": local.origin, "localStorage": items})
    document = {"cookies": [_cookie_json(c) for c in all_cookies], "origins": origins}
    summary = StorageState(len(all_cookies), tuple((o["origin"], len(o["localStorage"])) for o in origins))
    return document, summary


async def apply_storage_state(conn: BrowserConnection, document: dict[str, Any]) -> tuple[StorageState, list[str]]:
    """Set the document's cookies, and its localStorage for the current origin; returns what
    was applied and the origins whose localStorage was not (no page of theirs is open)."""
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
    current = _origin(conn.target_url or "")
    applied, left_out = [], []
    for entry in origins:
        items = [(str(item["name"]), str(item["value"])) for item in entry.get("localStorage", [])]
        if entry["origin"] != current:
            left_out.append(str(entry["origin"]))
            continue
        for key, value in items:
            await web_storage(conn, "set", "local", key, value)
        applied.append((current, len(items)))
    return StorageState(len(raw_cookies), tuple(applied)), left_out


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
