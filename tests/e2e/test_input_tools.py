"""Input tools and dialogs through the real server, in both modes, on a real Chromium.

Every test asserts what happened in the page (``#result``, ``window.__events``, the URL),
not only the tool's text. One server and browser per mode serve the whole module.
"""

from __future__ import annotations

import re
import time
from typing import Any

import anyio
import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PROMPT_S = 3.0  # "answers promptly": far below any default timeout

EXTRA_PAGES = {
    "/covered": (
        200,
        "text/html",
        html(
            "Covered",
            """<button id="under" onclick="document.getElementById('result').textContent='under clicked'">Under</button>
<div id="result"></div>
<div id="cookie-banner" class="banner" style="position:fixed;inset:0;background:#0003">Accept cookies</div>""",
        ),
    ),
    "/late": (
        200,
        "text/html",
        html(
            "Late",
            """<button id="late-btn" style="display:none"
  onclick="document.getElementById('result').textContent='late clicked'">Late</button><div id="result"></div>
<script>setTimeout(() => document.getElementById("late-btn").style.display = "", 300)</script>""",
        ),
    ),
    "/moving": (
        200,
        "text/html",
        html(
            "Moving",
            # Moved by the page on every frame (its callback runs before our check's in each one).
            # A CSS animation once passed the check as stable on a loaded machine: its position
            # follows the animation clock, which two frames can sample alike (at an alternate turn).
            """<button id="runner" style="position:relative">Run</button>
<script>const runner = document.getElementById("runner"); let x = 0;
(function step() { runner.style.left = (x = (x + 7) % 300) + "px"; requestAnimationFrame(step); })();</script>""",
        ),
    ),
    "/clicks": (
        200,
        "text/html",
        html(
            "Clicks",
            """<button id="target">Target</button><div id="result"></div><a id="hang-link" href="/hang">Never loads</a>
<script>const log = e => document.getElementById("result").textContent += e.type + ":" + e.button + " ";
for (const t of ["click", "dblclick", "contextmenu", "auxclick"])
  document.getElementById("target").addEventListener(t, log);
</script>""",
        ),
    ),
    "/hash": (200, "text/html", html("Hash", '<a id="to-section" href="#section">Jump</a><h2 id="section">Here</h2>')),
    "/edit": (
        200,
        "text/html",
        html(
            "Edit",
            """<div id="editor" contenteditable="true">old text</div>
<iframe id="edit-frame" src="/edit-frame" width="300" height="80"></iframe>""",
        ),
    ),
    "/edit-frame": (
        200,
        "text/html",
        html(
            "Edit frame",
            """<input id="frame-input"><script>window.__events = [];
for (const t of ["input", "change"]) document.getElementById("frame-input").addEventListener(t, () => __events.push(t));
</script>""",
        ),
    ),
}


PAGES = {**SITE, **EXTRA_PAGES}


async def goto(client: ModeClient, site_url: str, path: str) -> None:
    await client.ok("navigate", url=site_url + path)


async def text_of(client: ModeClient, selector: str) -> str:
    return str(await client.js(f"document.querySelector({selector!r}).textContent"))


async def test_click_submits_the_login_form_and_reports_navigation_and_console(
    client: ModeClient, site_url: str
) -> None:
    await goto(client, site_url, "/login")
    text = await client.ok("click_element", selector="button[type=submit]")
    assert text.startswith('Clicked button.btn.primary "Sign in".'), text
    assert f"Navigated to {site_url}/welcome?" in text and '(title "Welcome")' in text
    assert "Console: [log] submitting login" in text
    assert await client.js("location.pathname") == "/welcome"
    assert len(text) < 1000


async def test_click_reaches_shadow_root_and_iframe_buttons(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/shadow")
    assert "shadow root" in await client.ok("click_element", selector="#shadow-btn")
    assert await text_of(client, "#result") == "shadow clicked"
    await goto(client, site_url, "/frames")
    text = await client.ok("click_element", selector="#frame-btn")
    assert "(in iframe#inner-frame)" in text
    frame_result = "document.querySelector('iframe').contentDocument.querySelector('#frame-result').textContent"
    assert await client.js(frame_result) == "frame clicked"


async def test_click_waits_for_a_button_that_appears_later(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/late")
    await client.ok("click_element", selector="#late-btn", timeout_ms=5000)
    assert await text_of(client, "#result") == "late clicked"


@pytest.mark.parametrize(
    ("selector", "reason"),
    [
        ("#none-btn", "is not visible (display:none"),
        ("#invisible-btn", "is not visible (visibility:hidden)"),
        ("#zero-btn", "is not visible (zero size)"),
        ("#disabled-btn", "is disabled"),
    ],
)
async def test_click_refuses_hidden_and_disabled_buttons_within_the_timeout(
    client: ModeClient, site_url: str, selector: str, reason: str
) -> None:
    await goto(client, site_url, "/hidden")
    started = time.monotonic()
    kind, text = await client.error("click_element", selector=selector, timeout_ms=200)
    assert kind == "STATE" and reason in text and "Suggestion:" in text, text
    assert time.monotonic() - started < PROMPT_S
    await client.ok("click_element", selector="#visible-btn")


async def test_click_refuses_an_element_that_keeps_moving(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/moving")
    kind, text = await client.error("click_element", selector="#runner", timeout_ms=300)
    assert kind == "STATE" and "kept moving" in text and "timeout_ms" in text


async def test_a_suggestion_names_timeout_ms_only_where_the_tool_takes_it(client: ModeClient, site_url: str) -> None:
    """Smart mode's interact takes no timeout_ms, so its hover waits the default and says nothing of it."""
    await goto(client, site_url, "/moving")
    arguments = {"timeout_ms": 300} if client.mode == "legacy" else {}
    kind, text = await client.error("hover_element", selector="#runner", **arguments)
    assert kind == "STATE" and "kept moving" in text and "Suggestion: Wait for the page with wait_for" in text, text
    assert ("timeout_ms" in text) == (client.mode == "legacy"), text


async def test_click_refuses_a_covered_element_and_names_the_cover(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/covered")
    kind, text = await client.error("click_element", selector="#under", timeout_ms=500)
    assert kind == "STATE" and 'covered by div#cookie-banner.banner "Accept cookies"' in text, text
    assert await text_of(client, "#result") == ""


async def test_click_on_a_hash_link_reports_a_same_document_navigation(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/hash")
    text = await client.ok("click_element", selector="#to-section")
    assert f"Navigated within the page to {site_url}/hash#section." in text
    assert await client.js("location.hash") == "#section"


async def test_double_click_and_other_buttons(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/clicks")
    assert (await client.ok("click_element", selector="#target", click_count=2)).startswith("Double-clicked")
    assert await text_of(client, "#result") == "click:0 click:0 dblclick:0 "
    text = await client.ok("click_element", selector="#target", button="right")
    assert "with the right button" in text
    assert (await text_of(client, "#result")).endswith("contextmenu:2 auxclick:2 ")


async def test_a_navigation_that_never_loads_is_reported_within_the_timeout(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/clicks")
    started = time.monotonic()
    text = await client.ok("click_element", selector="#hang-link", timeout_ms=500)
    assert f"A navigation to {site_url}/hang started; not loaded within 500 ms." in text, text
    assert time.monotonic() - started < PROMPT_S


async def test_fill_types_with_input_and_change_events(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    text = await client.ok("fill_element", selector="#email", text="ada@example.test")
    assert text.startswith('Filled input#email with "ada@example.test".'), text
    assert await client.js("document.querySelector('#email').value") == "ada@example.test"
    assert await client.js("window.__events") == ["email:input", "email:change"]
    await client.ok("fill_element", selector="#email", text="grace@example.test")
    assert await client.js("document.querySelector('#email').value") == "grace@example.test"
    text = await client.ok("fill_element", selector="#password", text="hunter2")
    assert "with 7 characters" in text and "hunter2" not in text
    await client.ok("fill_element", selector="#bio", text=" more", clear=False)
    await client.ok("fill_element", selector="#bio", text="", clear=True)
    assert await client.js("document.querySelector('#bio').value") == ""


async def test_fill_with_submit_presses_enter_and_navigates(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    text = await client.ok("fill_element", selector="#email", text="ada@example.test", submit=True)
    assert "and pressed Enter." in text and f"Navigated to {site_url}/welcome?email=ada%40example.test" in text
    assert await client.js("location.pathname") == "/welcome"


async def test_fill_a_contenteditable_and_an_iframe_input(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/edit")
    await client.ok("fill_element", selector="#editor", text="new text")
    assert await text_of(client, "#editor") == "new text"
    await client.ok("fill_element", selector="#frame-input", text="inside")
    frame = "document.querySelector('#edit-frame').contentWindow"
    assert await client.js(f"{frame}.document.querySelector('#frame-input').value") == "inside"
    assert await client.js(f"{frame}.__events") == ["input", "change"]


async def test_fill_refuses_a_select_and_a_checkbox(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    kind, text = await client.error("fill_element", selector="#country", text="fr")
    spelled = 'interact(action="select_option")' if client.mode == "smart" else "select_option()"
    assert kind == "VALIDATION" and "selector" in text and spelled in text, text
    kind, text = await client.error("fill_element", selector="#remember", text="yes")
    assert kind == "VALIDATION" and "click_element()" in text


async def test_press_key_sends_combinations_and_named_keys(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/keys")
    await client.ok("fill_element", selector="#field", text="hello")
    text = await client.ok("press_key", key="Control+a", selector="#field")
    assert text.startswith("Pressed Control+a in input#field."), text
    selection = "(e => [e.selectionStart, e.selectionEnd])(document.querySelector('#field'))"
    assert await client.js(selection) == [0, 5]
    await client.ok("press_key", key="Backspace")
    await client.ok("press_key", key="X")
    await client.ok("press_key", key="Shift+Tab")
    assert await client.js("document.querySelector('#field').value") == "X"
    log = await text_of(client, "#log")
    assert "ctrl+a" in log and "Backspace" in log and "X" in log and "shift+Tab" in log, log
    assert await client.js("document.activeElement === document.querySelector('#field')") is False


async def test_press_key_refuses_an_unknown_key_name(client: ModeClient, site_url: str) -> None:
    kind, text = await client.error("press_key", key="Control+Hyper")
    assert kind == "VALIDATION" and "- key:" in text and "Enter" in text, text


async def test_hover_reaches_the_element(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/hover")
    assert (await client.ok("hover_element", selector="#target")).startswith('Hovered div#target "Hover me".')
    assert await text_of(client, "#result") == "hovered"


async def test_select_option_by_value_and_by_label(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    text = await client.ok("select_option", selector="#country", value="de")
    assert 'Selected "Germany" (value "de")' in text
    assert await client.js("document.querySelector('#country').value") == "de"
    await client.ok("select_option", selector="#country", label="Japan")
    assert await client.js("document.querySelector('#country').value") == "jp"
    assert await client.js("window.__events") == ["country:input", "country:change"] * 2


async def test_select_option_errors(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    kind, text = await client.error("select_option", selector="#country", value="xx")
    assert kind == "STATE" and '"fr" (France)' in text and '"jp" (Japan)' in text, text
    kind, text = await client.error("select_option", selector="#email", value="x")
    assert kind == "VALIDATION" and "a <select> element" in text
    kind, text = await client.error("select_option", selector="#country", value="fr", label="France")
    assert kind == "VALIDATION" and "value" in text
    assert await client.js("document.querySelector('#country').value") == ""


async def test_confirm_dialog_never_hangs_and_is_answered(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/dialogs")
    text = await client.ok("click_element", selector="#confirm-btn")
    assert 'Opened a confirm dialog: "Delete it?"' in text and "handle_dialog" in text, text
    started = time.monotonic()
    kind, text = await client.error("evaluate_js", expression="1 + 1")
    assert kind == "STATE" and 'A confirm dialog is open: "Delete it?"' in text
    assert time.monotonic() - started < PROMPT_S
    kind, _ = await client.error("click_element", selector="#alert-btn")
    assert kind == "STATE"
    assert 'Accepted the confirm dialog "Delete it?".' in await client.ok("handle_dialog", accept=True)
    assert await text_of(client, "#result") == "confirmed"
    await client.ok("click_element", selector="#confirm-btn")
    assert "Dismissed" in await client.ok("handle_dialog", accept=False)
    assert await text_of(client, "#result") == "cancelled"


async def test_prompt_and_alert_dialogs(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/dialogs")
    await client.ok("click_element", selector="#prompt-btn")
    assert 'with "Ada"' in await client.ok("handle_dialog", accept=True, prompt_text="Ada")
    assert await text_of(client, "#result") == "name=Ada"
    assert "Opened an alert dialog" in await client.ok("press_key", key="Enter", selector="#alert-btn")
    await client.ok("handle_dialog")
    assert await text_of(client, "#result") == "alert done"


async def test_an_open_dialog_is_said_at_once_by_tools_that_need_the_page(client: ModeClient, site_url: str) -> None:
    """Each of these waits on the page's thread, which the dialog holds: none may hang."""
    await goto(client, site_url, "/dialogs")
    listed = await client.ok("list_network_requests", resource_type="document")
    request_id = re.search(r"^(\S+) GET 200 document /dialogs", listed, re.M)
    assert request_id is not None, listed
    await client.ok("click_element", selector="#alert-btn")
    started = time.monotonic()
    calls: list[tuple[str, dict[str, Any]]] = [
        ("browser_screenshot", {}),
        ("browser_set_viewport", {"width": 800, "height": 600}),
        ("browser_emulate_media", {"media": "print"}),
        ("get_network_request", {"request_id": request_id[1], "include_body": True}),
        ("debugger_skip_all_pauses", {"skip_all_pauses": True}),
    ]
    assert "Current page is now" in await client.ok("switch_target", index=0)  # the page it is on already
    for tool, arguments in calls:
        kind, text = await client.error(tool, **arguments)
        assert kind == "STATE" and 'An alert dialog is open: "Hello alert"' in text, (tool, text)
    assert time.monotonic() - started < PROMPT_S
    assert "Accepted the alert" in await client.ok("handle_dialog")


@pytest.mark.parametrize(("tool", "arguments"), [("reload", {}), ("navigate", {"url": "/"}), ("go_back", {})])
async def test_a_navigation_closes_an_open_dialog_and_says_so(
    client: ModeClient, site_url: str, tool: str, arguments: dict[str, str]
) -> None:
    await goto(client, site_url, "/")
    await goto(client, site_url, "/dialogs")
    await client.ok("click_element", selector="#alert-btn")
    if "url" in arguments:
        arguments = {"url": site_url + arguments["url"]}
    with anyio.fail_after(PROMPT_S):
        text = await client.ok(tool, **arguments)
    assert 'The alert dialog that was open ("Hello alert") closed unanswered.' in text, text
    kind, text = await client.error("handle_dialog")
    assert kind == "STATE" and "No dialog is open" in text
    assert await client.js("1 + 1") == 2


async def test_handle_dialog_without_a_dialog_is_a_state_error(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/dialogs")
    kind, text = await client.error("handle_dialog")
    assert kind == "STATE" and "No dialog is open" in text and "click_element()" in text


async def test_selector_errors_and_the_next_call_still_works(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/hidden")
    kind, text = await client.error("click_element", selector="#nothing-here")
    assert kind == "STATE" and "query_elements()" in text
    kind, text = await client.error("click_element", selector="button[", timeout_ms=100)
    assert kind == "VALIDATION" and "selector" in text
    kind, text = await client.error("click_element", selector=".action", index=99)
    assert kind == "STATE" and "index 99" in text
    kind, text = await client.error("click_element", selector="#visible-btn", timeout_ms=0)
    assert kind == "VALIDATION" and "timeout_ms" in text
    assert "Clicked" in await client.ok("click_element", selector="#visible-btn")


async def test_console_output_of_a_click_is_reported(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/console")
    assert "Console: [log] button clicked 42" in await client.ok("click_element", selector="#log-btn")


async def test_include_context_bundles_element_and_page_state(client: ModeClient, site_url: str) -> None:
    await goto(client, site_url, "/login")
    text = await client.ok("fill_element", selector="#email", text="a@b.test")
    assert ('Page: "Sign in"' in text) == (client.mode == "smart")
    text = await client.ok("fill_element", selector="#email", text="c@d.test", include_context=True)
    assert 'Element: value "c@d.test", focused' in text and f'Page: "Sign in" {site_url}/login' in text
    assert "Page:" not in await client.ok("click_element", selector="#forgot", include_context=False)
