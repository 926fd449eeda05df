"""Answers about cookies, web storage and storage-state files.

Values are credentials as often as not, and long: each is cut to `VALUE_CHARS` unless the
call asked for whole values, and a list stops at the answer budget saying how many it left
out and how to narrow it down.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from cdpilot.browser.page.storage_facts import Cookie, StorageNotLoaded, StorageState, WebStorage
from cdpilot.text import clip, one_line, plural

VALUE_CHARS = 40
AREA_NAMES = {"local": "localStorage", "session": "sessionStorage"}


def cookies_answer(
    found: Sequence[Cookie], *, domain: str | None, name: str | None, include_values: bool, max_chars: int
) -> str:
    wanted = " ".join(part for part in (f"named {name!r}" if name else "", f"for {domain}" if domain else "") if part)
    if not found:
        return f"No cookies{' ' + wanted if wanted else ''}."
    head = f"{plural(len(found), 'cookie')}{' ' + wanted if wanted else ''}:"
    lines, size = [head], len(head)
    for index, cookie in enumerate(found):
        line = "  " + cookie_text(cookie, include_values=include_values)
        if size + len(line) + 1 > max_chars - 200:
            lines.append(
                f"(+{len(found) - index} more: narrow with {{param:get_cookies.domain}} or {{param:get_cookies.name}})"
            )
            break
        lines.append(line)
        size += len(line) + 1
    if not include_values and any(len(c.value) > VALUE_CHARS for c in found):
        lines.append("Values are cut; {param:get_cookies.include_values}=true shows them whole.")
    return "\n".join(lines)


def cookie_text(cookie: Cookie, *, include_values: bool) -> str:
    """``session=abc… (example.com /, expires 2026-12-01, HttpOnly, Secure, SameSite=Lax, 45 B)``."""
    value = cookie.value if include_values else clip(cookie.value, VALUE_CHARS)
    flags = [f"{cookie.domain} {cookie.path}", _expiry(cookie.expires)]
    flags += [flag for flag, on in (("HttpOnly", cookie.http_only), ("Secure", cookie.secure)) if on]
    if cookie.same_site:
        flags.append(f"SameSite={cookie.same_site}")
    return f"{cookie.name}={one_line(value)} ({', '.join(flags)})"


def cookie_set_line(cookie: Cookie, unseen_by: str | None = None) -> str:
    """The cookie as the browser holds it; `unseen_by` is the current page's host when the cookie
    is not for it, said so that nobody expects that page to see it."""
    line = f"Set cookie {cookie_text(cookie, include_values=False)}."
    if unseen_by is not None:
        line += f" The current page ({unseen_by}) does not get it: it goes to {cookie.domain.lstrip('.')} only."
    return line


def cookies_deleted_line(deleted: Sequence[Cookie]) -> str:
    if not deleted:
        return "No cookie matched; nothing was deleted."
    names = ", ".join(f"{c.name} ({c.domain})" for c in deleted[:10])
    more = f" and {len(deleted) - 10} more" if len(deleted) > 10 else ""
    return f"Deleted {plural(len(deleted), 'cookie')}: {names}{more}."


def storage_answer(view: WebStorage, *, key: str | None, include_values: bool, max_chars: int) -> str:
    store = f"{AREA_NAMES[view.area]} of {view.origin}"
    if key is not None and not view.entries:
        lines = [f"{store} has no key {json.dumps(key, ensure_ascii=False)} ({plural(view.total, 'key')} in all)."]
    elif not view.entries:
        lines = [f"{store} is empty."]
    else:
        lines = [f"{store} ({plural(view.total, 'key')}):"]
        size = len(lines[0])
        for index, (name, value) in enumerate(view.entries):
            shown = value if include_values else clip(value, VALUE_CHARS)
            line = f"  {json.dumps(name, ensure_ascii=False)} = {json.dumps(one_line(shown), ensure_ascii=False)}"
            if size + len(line) + 1 > max_chars - 200:
                lines.append(f"(+{len(view.entries) - index} more: ask for one with {{param:get_storage.key}})")
                break
            lines.append(line)
            size += len(line) + 1
        if not include_values and any(len(value) > VALUE_CHARS for _, value in view.entries):
            lines.append("Values are cut; {param:get_storage.include_values}=true shows them whole.")
    if view.databases is None:
        lines.append("IndexedDB databases: not listed while the page is paused in the debugger.")
    elif view.databases:
        lines.append(f"IndexedDB databases: {', '.join(view.databases)}.")
    return "\n".join(lines)


def storage_set_line(view: WebStorage, key: str) -> str:
    shown = json.dumps(key, ensure_ascii=False)
    return f"Set {shown} in the {AREA_NAMES[view.area]} of {view.origin} ({plural(view.total, 'key')} now)."


def storage_cleared_line(view: WebStorage, key: str | None) -> str:
    store = f"{AREA_NAMES[view.area]} of {view.origin}"
    if key is None:
        return f"Cleared the {store}."
    return f"Removed {json.dumps(key, ensure_ascii=False)} from the {store} ({plural(view.total, 'key')} left)."


def state_saved_line(path: str, state: StorageState) -> str:
    return f"Saved {_state_text(state)} to {path}."


def state_loaded_lines(state: StorageState, not_loaded: Sequence[StorageNotLoaded]) -> list[str]:
    """What loading a storage state wrote, then each origin's storage it could not write, with why and what to do."""
    lines = [f"Loaded {_state_text(state)}."]
    for missed in not_loaded:
        store = f"the {missed.area}Storage of {missed.origin}"
        if missed.reason == "other tab":
            lines.append(
                f"Not loaded: {store}: sessionStorage is per tab, and this tab is at {missed.detail}. Load the file "
                f"again from a page of {missed.origin}, or in a new tab ({{tool:new_target}})."
            )
        elif missed.reason == "refused":
            lines.append(f"Not loaded: {store}: {missed.detail}, and writing it takes a page of that origin.")
        else:
            lines.append(f"Not loaded: {store}: {missed.detail}.")
    if state.cookies and any(missed.reason == "refused" for missed in not_loaded):
        lines.append(
            "The cookies were all set, whatever the origin lists say, as {tool:set_cookie} sets them: the browser "
            "sends none to a refused origin, which it never requests."
        )
    return lines


def _state_text(state: StorageState) -> str:
    parts = [plural(state.cookies, "cookie")]
    parts += [f"the localStorage of {origin} ({plural(keys, 'key')})" for origin, keys in state.origins]
    parts += [f"the sessionStorage of {origin} ({plural(keys, 'key')})" for origin, keys in state.sessions]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _expiry(expires: float | None) -> str:
    if expires is None:
        return "session"
    return "expires " + datetime.fromtimestamp(expires, UTC).strftime("%Y-%m-%d %H:%M UTC")
