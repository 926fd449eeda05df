"""The cookie, web storage and storage-state answers."""

from __future__ import annotations

from cdpilot.answers.site_data_answers import (
    cookie_set_line,
    cookie_text,
    cookies_answer,
    cookies_deleted_line,
    state_loaded_lines,
    storage_answer,
)
from cdpilot.browser.page.storage_facts import Cookie, StorageNotLoaded, StorageState, WebStorage

SID = Cookie("sid", "v" * 100, ".example.com", "/", 1_800_000_000, True, True, "Lax", 103)


def test_a_cookie_shows_its_scope_expiry_and_flags_and_a_cut_value() -> None:
    assert cookie_text(SID, include_values=False) == (
        "sid=" + "v" * 28 + "…[+72 chars] (.example.com /, expires 2027-01-15 08:00 UTC, HttpOnly, Secure, "
        "SameSite=Lax)"
    )
    assert "v" * 100 in cookie_text(SID, include_values=True)


def test_a_long_cookie_list_stops_at_the_budget_and_says_how_to_narrow_it() -> None:
    many = [Cookie(f"c{i}", "x", "a.test", "/", None, False, False, "", 2) for i in range(200)]
    text = cookies_answer(many, domain=None, name=None, include_values=False, max_chars=1000)
    assert text.startswith("200 cookies:\n  c0=x (a.test /, session)")
    assert text.endswith("more: narrow with {param:get_cookies.domain} or {param:get_cookies.name})")
    assert len(text) < 1000
    assert cookies_answer([], domain="a.test", name="sid", include_values=False, max_chars=1000) == (
        "No cookies named 'sid' for a.test."
    )


def test_cut_values_say_how_to_see_them_whole() -> None:
    text = cookies_answer([SID], domain=None, name=None, include_values=False, max_chars=5000)
    assert text.endswith("Values are cut; {param:get_cookies.include_values}=true shows them whole.")
    assert "Values are cut" not in cookies_answer([SID], domain=None, name=None, include_values=True, max_chars=5000)


def test_a_cookie_for_another_site_says_the_current_page_does_not_get_it() -> None:
    assert cookie_set_line(SID, "127.0.0.1").endswith(
        "SameSite=Lax). The current page (127.0.0.1) does not get it: it goes to example.com only."
    )
    assert cookie_set_line(SID).endswith("SameSite=Lax).")


def test_deleted_cookies_are_named() -> None:
    assert cookies_deleted_line([SID]) == "Deleted 1 cookie: sid (.example.com)."
    assert cookies_deleted_line([]) == "No cookie matched; nothing was deleted."


def test_storage_lists_entries_and_databases_or_says_what_is_missing() -> None:
    view = WebStorage("http://a.test", "local", (("token", "t" * 50),), 1, ("shop",))
    assert storage_answer(view, key=None, include_values=False, max_chars=5000) == (
        'localStorage of http://a.test (1 key):\n  "token" = "' + "t" * 28 + '…[+22 chars]"\n'
        "Values are cut; {param:get_storage.include_values}=true shows them whole.\n"
        "IndexedDB databases: shop."
    )
    missing = WebStorage("http://a.test", "session", (), 3)
    assert storage_answer(missing, key="cart", include_values=False, max_chars=5000) == (
        'sessionStorage of http://a.test has no key "cart" (3 keys in all).'
    )
    paused = WebStorage("http://a.test", "local", (), 0, None)
    assert storage_answer(paused, key=None, include_values=False, max_chars=5000) == (
        "localStorage of http://a.test is empty.\n"
        "IndexedDB databases: not listed while the page is paused in the debugger."
    )


def test_a_load_names_the_storage_it_could_not_write_and_why() -> None:
    state = StorageState(2, (("http://a.test", 1),), (("http://a.test", 2),))
    not_loaded = [
        StorageNotLoaded("local", "http://b.test", "unreachable", "its page did not open: net::ERR_BLOCKED_BY_CLIENT"),
        StorageNotLoaded("session", "http://c.test", "other tab", "http://a.test"),
    ]
    assert state_loaded_lines(state, not_loaded) == [
        "Loaded 2 cookies, the localStorage of http://a.test (1 key) and the sessionStorage of http://a.test (2 keys).",
        "Not loaded: the localStorage of http://b.test: its page did not open: net::ERR_BLOCKED_BY_CLIENT.",
        "Not loaded: the sessionStorage of http://c.test: sessionStorage is per tab, and this tab is at "
        "http://a.test. Load the file again from a page of http://c.test, or in a new tab ({tool:new_target}).",
    ]


def test_a_load_says_an_origin_the_lists_refuse_was_left_out_and_what_became_of_the_cookies() -> None:
    state = StorageState(1, (("http://a.test", 1),), ())
    refusal = "http://d.test is blocked by --blocked-origins d.test"
    not_loaded = [StorageNotLoaded("local", "http://d.test", "refused", refusal)]
    assert state_loaded_lines(state, not_loaded) == [
        "Loaded 1 cookie and the localStorage of http://a.test (1 key).",
        "Not loaded: the localStorage of http://d.test: http://d.test is blocked by --blocked-origins d.test, and "
        "writing it takes a page of that origin.",
        "The cookies were all set, whatever the origin lists say, as {tool:set_cookie} sets them: the browser sends "
        "none to a refused origin, which it never requests.",
    ]
