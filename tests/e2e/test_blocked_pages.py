"""Answers on a page that is not running freely, through the real server in both modes: a page
stuck in its own script (evaluate has to stop that script to answer, and says so) and a page
paused in the debugger (what depends on the page running names the pause, not a missing element).
"""

from __future__ import annotations

import anyio
import pytest

from tests.e2e.harness import ModeClient

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

LATER_JS = b"""function render() {
  debugger;
  const button = document.createElement('button');
  button.id = 'later';
  button.textContent = 'Later';
  button.onclick = () => { document.title = 'clicked'; };
  document.body.append(button);
}
render();
"""

PAGES = {
    "/busy": (200, "text/html", b"<title>Busy</title><p id=status>idle</p>"),
    "/later": (200, "text/html", b"<title>Later</title><body><h1>Later</h1><script src=/later.js></script></body>"),
    "/later.js": (200, "text/javascript", LATER_JS),
}


def tool(client: ModeClient, legacy: str, smart: str) -> str:
    """How the active mode spells a tool in an answer."""
    return smart if client.mode == "smart" else f"{legacy}()"


async def test_evaluate_on_a_page_stuck_in_its_own_loop_says_it_stopped_the_page_script(
    client: ModeClient, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/busy")
    started = "setTimeout(() => { document.getElementById('status').textContent = 'looping'; while (true) {} }); 1"
    assert await client.ok("evaluate_js", expression=started) == "1"
    await anyio.sleep(0.3)  # the page's own timer is in its loop by now

    text = await client.ok("evaluate_js", expression="1 + 1", timeout_ms=1000)
    lines = text.splitlines()
    assert lines[0].startswith("The page was busy: its own script had been running for at least 1 s"), text
    assert "cdpilot stopped that script to run the expression" in lines[0], text
    assert tool(client, "reload", 'navigate(action="reload")') in lines[0], text
    assert lines[-1] == "2", text

    # The page's script was stopped, so the page answers again at once, as it is.
    assert await client.ok("evaluate_js", expression="document.getElementById('status').textContent") == '"looping"'
    assert await client.ok("evaluate_js", expression="2 + 2") == "4"


async def test_an_expression_that_loops_itself_is_still_the_one_stopped(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/busy")
    kind, text = await client.error("evaluate_js", expression="while (true) {}", timeout_ms=500)
    assert kind == "EXECUTION" and "did not finish within 500 ms, so it was stopped" in text, text
    assert "page was busy" not in text
    assert await client.ok("evaluate_js", expression="document.title") == '"Busy"'


async def test_page_actions_on_a_page_paused_before_it_made_the_element_name_the_pause(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    text = await client.ok("navigate", url=site_url + "/later")
    assert "debugger statement" in text, text
    place = f"{site_url}/later.js:2:"
    resume = tool(client, "debugger_resume", 'execution(action="resume")')

    calls: list[tuple[str, dict[str, object]]] = [
        ("click_element", {"selector": "#later"}),
        ("fill_element", {"selector": "#later", "text": "x"}),
        ("hover_element", {"selector": "#later"}),
        ("press_key", {"key": "Enter", "selector": "#later"}),
        ("wait_for", {"selector": "#later", "timeout_ms": 500}),
        ("inspect_element", {"text": "Press me"}),
        ("query_elements", {"selector": "#later"}),
    ]
    answers: dict[str, str] = {}
    for name, arguments in calls:
        kind, text = await client.error(name, **arguments)
        assert kind == "STATE", (name, text)
        assert text.startswith(f"Execution is paused (debugger statement) at {place}"), (name, text)
        assert " in render()." in text and f"Resume with {resume} first" in text, (name, text)
        assert "wait_for" not in text, (name, text)  # waiting cannot help: nothing runs until a resume
        answers[name] = text
    assert "in render(). A click needs the page running." in answers["click_element"]
    assert "in render(). Waiting needs the page running" in answers["wait_for"]
    no_element = "No element matches the selector yet, and the page cannot add one until it runs again."
    assert no_element in answers["query_elements"]

    # What exists can still be read while paused.
    assert 'h1 "Later"' in await client.ok("query_elements", selector="h1")

    await client.ok("debugger_resume")
    text = await client.ok("click_element", selector="#later")
    assert text.startswith('Clicked button#later "Later".'), text
    assert await client.js("document.title") == "clicked"
