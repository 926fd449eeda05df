"""Cookies, web storage and storage-state files through the real server in both modes, on a
page served on 127.0.0.1 that sets a cookie, localStorage, sessionStorage and an IndexedDB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient, browser_session
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

NEW_TAB = {"legacy": "new_target()", "smart": 'target(action="new")'}
TOKEN = "tok-" + "x" * 60
PAGES = {
    "/login": (
        200,
        "text/html",
        html(
            "Log in",
            """<script>localStorage.setItem("user", "ada"); sessionStorage.setItem("cart", "3");</script>""",
        ),
        {"Set-Cookie": "session=abc; Path=/"},
    ),
    "/account": (
        200,
        "text/html",
        html(
            "Account",
            """<p id="who"></p>
<script>
const cookie = document.cookie.includes("session=abc") ? "cookie" : "no cookie";
const cart = "cart " + (sessionStorage.getItem("cart") || "empty");
document.getElementById("who").textContent = [localStorage.getItem("user") || "nobody", cart, cookie].join(", ");
</script>""",
        ),
    ),
    "/app": (
        200,
        "text/html",
        html(
            "App",
            f"""<div id="who"></div>
<script>
if (!localStorage.getItem("token")) localStorage.setItem("token", "{TOKEN}");
sessionStorage.setItem("tab", "1");
indexedDB.open("shop", 1);
document.getElementById("who").textContent = document.cookie.includes("theme=dark") ? "dark" : "plain";
</script>""",
        ),
        {"Set-Cookie": "sid=s3cr3t-" + "y" * 50 + "; Path=/; HttpOnly; SameSite=Lax"},
    ),
}


@pytest.fixture
async def app(client: ModeClient, site_url: str) -> ModeClient:
    """A fresh start: no cookies, then the app loaded (which sets its cookie and storage)."""
    await client.ok("navigate", url=site_url + "/app")
    await client.ok("delete_cookies")
    await client.ok("clear_storage")
    await client.ok("reload")
    return client


async def test_cookies_are_listed_cut_set_and_deleted(app: ModeClient) -> None:
    text = await app.ok("get_cookies", domain="127.0.0.1")
    assert text.startswith("1 cookie for 127.0.0.1:\n  sid=s3cr3t-"), text
    assert "(127.0.0.1 /, session, HttpOnly, SameSite=Lax)" in text and "…[+" in text, text
    assert "include_values=true shows them whole" in text, text
    whole = await app.ok("get_cookies", name="sid", include_values=True)
    assert "s3cr3t-" + "y" * 50 in whole, whole

    text = await app.ok("set_cookie", name="theme", value="dark")
    assert text == "Set cookie theme=dark (127.0.0.1 /, session).", text
    await app.ok("reload")
    assert await app.js("document.getElementById('who').textContent") == "dark"

    elsewhere = await app.ok("set_cookie", name="sso", value="1", domain="login.example.test")
    assert elsewhere.endswith("The current page (127.0.0.1) does not get it: it goes to login.example.test only.")
    assert "sso=" not in await app.js("document.cookie")
    await app.ok("delete_cookies", name="sso")

    text = await app.ok("delete_cookies", name="theme")
    assert text == "Deleted 1 cookie: theme (127.0.0.1).", text
    assert await app.ok("get_cookies", name="theme") == "No cookies named 'theme'."


async def test_web_storage_is_read_set_and_cleared_with_the_origins_databases(app: ModeClient, site_url: str) -> None:
    text = await app.ok("get_storage")
    assert text.startswith(f'localStorage of {site_url} (1 key):\n  "token" = "tok-'), text
    assert "IndexedDB databases: shop." in text, text
    text = await app.ok("set_storage", key="cart", value='["apple"]')
    assert text == f'Set "cart" in the localStorage of {site_url} (2 keys now).', text
    assert await app.js("localStorage.getItem('cart')") == '["apple"]'
    text = await app.ok("get_storage", area="session", key="tab")
    assert text.startswith(f'sessionStorage of {site_url} (1 key):\n  "tab" = "1"'), text
    text = await app.ok("clear_storage", key="cart")
    assert text == f'Removed "cart" from the localStorage of {site_url} (1 key left).', text

    await app.ok("navigate", url="about:blank")
    kind, text = await app.error("get_storage")
    assert kind == "STATE" and "has no storage of its own" in text, text


async def test_a_saved_state_brings_a_login_back(app: ModeClient, site_url: str, output_dir: Path) -> None:
    await app.ok("set_cookie", name="theme", value="dark")
    text = await app.ok("save_storage_state", path="states/login.json")
    saved = output_dir / app.mode / "states" / "login.json"
    stores = f"the localStorage of {site_url} (1 key) and the sessionStorage of {site_url} (1 key)"
    assert text == f"Saved 2 cookies, {stores} to {saved}.", text
    document = json.loads(saved.read_text())
    assert {c["name"] for c in document["cookies"]} == {"sid", "theme"}
    assert document["origins"] == [
        {
            "origin": site_url,
            "localStorage": [{"name": "token", "value": TOKEN}],
            "sessionStorage": [{"name": "tab", "value": "1"}],
        }
    ]

    await app.ok("delete_cookies")
    await app.ok("clear_storage")
    text = await app.ok("load_storage_state", path="states/login.json")
    assert text == f"Loaded 2 cookies, {stores}.", text
    assert await app.js("localStorage.getItem('token')") == TOKEN
    await app.ok("reload")
    assert await app.js("document.getElementById('who').textContent") == "dark"

    await app.ok("navigate", url="about:blank")  # no page of the site open: loaded all the same
    await app.ok("delete_cookies")
    text = await app.ok("load_storage_state", path="states/login.json")
    assert text == f"Loaded 2 cookies, {stores}.", text
    assert "[1]" not in await app.ok("list_targets")  # the hidden tab that wrote the localStorage is gone


@pytest.mark.parametrize(
    ("path", "problem"),
    [("../x.json", "a path with '..'"), ("nothing.json", "There is no such file"), ("bad.json", "not a storage state")],
)
async def test_a_state_that_cannot_be_loaded_is_refused(
    app: ModeClient, output_dir: Path, path: str, problem: str
) -> None:
    (output_dir / app.mode).mkdir(parents=True, exist_ok=True)
    (output_dir / app.mode / "bad.json").write_text('{"cookies": {}}')
    kind, text = await app.error("load_storage_state", path=path)
    assert kind == "VALIDATION" and problem in text and "path" in text, text


async def test_one_load_restores_a_login_with_its_session_storage_into_a_blank_tab(
    client: ModeClient, site_url: str
) -> None:
    """Saved on the site, loaded into a fresh blank tab with no page of the site open: one call writes the cookie,
    the localStorage and (into this tab) the sessionStorage, so the first visit of the app is logged in."""
    await client.ok("navigate", url=f"{site_url}/account")
    await client.ok("delete_cookies")
    await client.ok("clear_storage")
    await client.ok("clear_storage", area="session")
    await client.ok("navigate", url=f"{site_url}/login")
    text = await client.ok("save_storage_state", path="states/account.json")
    assert text.startswith(
        f"Saved 1 cookie, the localStorage of {site_url} (1 key) and the sessionStorage of {site_url} (1 key) to "
    ), text
    await client.ok("delete_cookies")
    await client.ok("clear_storage")
    await client.ok("new_target")  # a tab with no sessionStorage, and no page of the site open anywhere
    await client.ok("close_target", index=0)

    text = await client.ok("load_storage_state", path="states/account.json")
    assert text == (
        f"Loaded 1 cookie, the localStorage of {site_url} (1 key) and the sessionStorage of {site_url} (1 key)."
    ), text
    assert await client.js("location.href") == "about:blank"  # the tab is as it was
    await client.ok("navigate", url=f"{site_url}/account")
    assert await client.js("document.getElementById('who').textContent") == "ada, cart 3, cookie"


async def test_a_blank_tab_a_state_was_loaded_into_takes_the_next_call_at_once(
    client: ModeClient, site_url: str
) -> None:
    """The load visits the site in the tab and brings it back to about:blank: the next call must not find it between
    pages ("Not attached to an active page"), however soon it comes."""
    await client.ok("navigate", url=f"{site_url}/login")
    await client.ok("save_storage_state", path="states/again.json")
    for _ in range(6):
        await client.ok("navigate", url="about:blank")
        await client.ok("load_storage_state", path="states/again.json")
        await client.ok("navigate", url=f"{site_url}/account")


async def test_session_storage_of_another_origin_than_the_tab_is_said_not_loaded(
    client: ModeClient, site_url: str
) -> None:
    """sessionStorage is the tab's: a tab showing another origin (localhost: the same site, another origin) gets
    the cookie and the localStorage, and the answer says the sessionStorage was left out and why."""
    await client.ok("navigate", url=f"{site_url}/login")
    await client.ok("save_storage_state", path="states/other.json")
    other = site_url.replace("127.0.0.1", "localhost")
    await client.ok("navigate", url=f"{other}/account")
    lines = (await client.ok("load_storage_state", path="states/other.json")).splitlines()
    assert lines[0].startswith("Loaded ") and f"the localStorage of {site_url} (1 key)." in lines[0], lines
    assert lines[1:] == [
        f"Not loaded: the sessionStorage of {site_url}: sessionStorage is per tab, and this tab is at {other}. "
        f"Load the file again from a page of {site_url}, or in a new tab ({NEW_TAB[client.mode]}).",
    ], lines


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_an_origin_the_server_refuses_gets_no_storage(mode: str, site_url: str, output_dir: Path) -> None:
    """A server started with --blocked-origins localhost:* never visits localhost to write its storage: the
    answer says why it was left out (and that cookies are set as set_cookie sets them), while 127.0.0.1's
    storage loads into the blank tab as ever."""
    other = site_url.replace("127.0.0.1", "localhost")
    items = [{"name": "user", "value": "ada"}]
    state = {
        "cookies": [
            {"name": "session", "value": "abc", "domain": host, "path": "/"} for host in ("127.0.0.1", "localhost")
        ],
        "origins": [
            {"origin": site_url, "localStorage": items, "sessionStorage": [{"name": "cart", "value": "3"}]},
            {"origin": other, "localStorage": items, "sessionStorage": items},
        ],
    }
    folder = output_dir / f"{mode}-blocked"
    (folder / "states").mkdir(parents=True)
    (folder / "states" / "mixed.json").write_text(json.dumps(state))
    async with browser_session(mode, "--output-dir", str(folder), "--blocked-origins", "localhost:*") as client:
        lines = (await client.ok("load_storage_state", path="states/mixed.json")).splitlines()
        refused = f"{other} is blocked by --blocked-origins localhost:*, and writing it takes a page of that origin."
        assert lines == [
            f"Loaded 2 cookies, the localStorage of {site_url} (1 key) and the sessionStorage of {site_url} (1 key).",
            f"Not loaded: the localStorage of {other}: {refused}",
            f"Not loaded: the sessionStorage of {other}: {refused}",
            "The cookies were all set, whatever the origin lists say, as "
            + ('network(action="set_cookie")' if mode == "smart" else "set_cookie()")
            + " sets them: the browser sends none to a refused origin, which it never requests.",
        ], lines
        assert await client.js("location.href") == "about:blank"
        await client.ok("navigate", url=f"{site_url}/account")
        assert await client.js("document.getElementById('who').textContent") == "ada, cart 3, cookie"
