"""The JavaScript debugger through the real server, in both modes, on a real Chromium.

The page under debug is `tests/support/debug_site.py`; its lines are found by marker. No
test sleeps for a pause: the tools wait on ``Debugger.paused`` (bounded), and every test
checks what the page did after a resume (``#result``), not only the tool's text.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import AsyncIterator

import anyio
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from tests.e2e.harness import ModeClient
from tests.support.debug_site import DEBUG_PAGES, line_of
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PROMPT_S = 3.0  # "answers promptly": far below the 30 s a hung navigation or click would take


PAGES = {**SITE, **DEBUG_PAGES}


@pytest.fixture
async def debug_page(client: ModeClient, site_url: str) -> AsyncIterator[ModeClient]:
    """/debug freshly loaded with the debugger on; turned off afterwards (which also resumes)."""
    await client.ok("navigate", url=site_url + "/debug")
    assert "app.js" in await client.ok("debugger_enable")
    yield client
    await client.ok("debugger_disable")


def app_js(site_url: str) -> str:
    return site_url + "/static/app.js"


async def result_text(client: ModeClient) -> str:
    return str(await client.js("document.getElementById('result').textContent"))


async def test_breakpoint_step_evaluate_resume_end_to_end(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    first = line_of("compute-first")
    text = await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=first)
    assert text.startswith(f"Breakpoint bp1 at {app_js(site_url)}:{first}, resolved in app.js:{first}:"), text

    text = await client.ok("click_element", selector="#compute", include_context=True)
    assert text.startswith('Clicked button#compute "compute".'), text
    assert f"Paused (breakpoint bp1) at {app_js(site_url)}:{first}:" in text
    assert f"  {first} | const base = 3;" in text
    assert "#0 compute app.js" in text and len(text) < 1000
    assert await result_text(client) == "ready"  # the handler is stopped before it writes; reading still works

    text = await client.ok("debugger_step_over", include_context=True)
    assert f"Paused (step) at {app_js(site_url)}:{line_of('compute-call')}:" in text
    assert "Locals (#0): base = 3 [CHANGED]" in text

    text = await client.ok("debugger_step_into", include_context=True)
    assert f"at {app_js(site_url)}:{line_of('square-body')}:" in text
    assert "#0 square app.js" in text and "#1 compute app.js" in text and "x = 3" in text

    value = await client.ok("debugger_evaluate_on_call_frame", call_frame_id=1, expression="base * 10")
    assert value == "30"

    text = await client.ok("debugger_step_out", include_context=True)
    assert f"at {app_js(site_url)}:{line_of('compute-sum')}:" in text
    assert "squared = 9 [CHANGED]" in text and "base = 3," in text and "base = 3 [CHANGED]" not in text

    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="squared + base") == "12"
    stack = await client.ok("debugger_get_call_stack")
    assert "#0 compute app.js" in stack and "local compute: base = 3, squared = 9" in stack
    assert "global: Window (not listed)" in stack

    text = await client.ok("debugger_resume")
    assert text.startswith("Resumed; execution ran on without pausing."), text
    assert "[log] computed 45" in text
    assert await result_text(client) == "45"


async def test_smart_bundles_by_default_and_legacy_on_request(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"))
    await client.ok("click_element", selector="#compute")
    text = await client.ok("debugger_step_over")
    assert f"Paused (step) at {app_js(site_url)}:{line_of('compute-call')}:" in text
    if client.mode == "smart":
        assert "Locals (#0): base = 3 [CHANGED]" in text and "Stack (0 = top):" in text
    else:
        assert "Locals" not in text and "debugger_get_call_stack()" in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_conditional_breakpoint_pauses_only_when_its_condition_holds(
    debug_page: ModeClient, site_url: str
) -> None:
    client = debug_page
    never = await client.ok(
        "debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("loop-body"), condition="i > 100"
    )
    assert " when i > 100," in never
    text = await client.ok("click_element", selector="#compute")
    assert "Paused" not in text
    assert await result_text(client) == "45"

    await client.ok("debugger_remove_breakpoint", breakpoint_id=never.split()[1])
    await client.ok(
        "debugger_set_breakpoint", url_regex=r"static/app\.js$", line_number=line_of("loop-body"), condition="i === 4"
    )
    listed = await client.ok("debugger_list_breakpoints")
    assert listed.startswith("1 breakpoint(s):") and "when i === 4" in listed and "/static/app\\.js$/" in listed

    text = await client.ok("click_element", selector="#compute")
    assert f"app.js:{line_of('loop-body')}:" in text
    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="i") == "4"
    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="total") == "6"
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_breakpoint_set_before_reload_hits_after_reload(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url_regex=r"app\.js$", line_number=line_of("boot"))
    started = time.monotonic()
    text = await client.ok("reload")
    assert time.monotonic() - started < PROMPT_S
    assert "its scripts paused in the debugger" in text
    assert f"Paused (breakpoint bp1) at {app_js(site_url)}:{line_of('boot')}:" in text
    assert await client.js("typeof window.__boots") == "undefined"  # stopped before the line ran
    await client.ok("debugger_resume")
    assert await client.js("window.__boots") == 1


async def test_pause_on_uncaught_exceptions_skips_caught_ones(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    assert "uncaught" in await client.ok("debugger_set_pause_on_exceptions", state="uncaught")
    text = await client.ok("click_element", selector="#fail-caught")
    assert "Paused" not in text
    assert await result_text(client) == "caught: caught failure"

    text = await client.ok("click_element", selector="#fail-uncaught", include_context=True)
    assert "Paused (uncaught exception) at" in text and "TypeError: uncaught failure" in text
    assert f"app.js:{line_of('uncaught-throw')}:" in text
    kind, refused = await client.error("click_element", selector="#compute")  # every answer names what was thrown
    assert kind == "STATE" and "Execution is paused (uncaught exception) at " in refused, refused
    assert ": TypeError: uncaught failure." in refused, refused
    await client.ok("debugger_resume")

    await client.ok("debugger_set_pause_on_exceptions", state="all")
    text = await client.ok("click_element", selector="#fail-caught")
    assert "Paused (exception) at" in text and "Error: caught failure" in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "caught: caught failure"
    await client.ok("debugger_set_pause_on_exceptions", state="none")


async def test_async_function_debugger_statement_and_skip_all_pauses(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("async-body"))
    text = await client.ok("click_element", selector="#async", include_context=True)
    assert f"Paused (breakpoint bp1) at {app_js(site_url)}:{line_of('async-body')}:" in text
    assert "value = 21" in text and "loadLater" in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "async 42"

    text = await client.ok("click_element", selector="#trap", include_context=True)
    assert f"Paused (debugger statement) at {app_js(site_url)}:{line_of('debugger')}:" in text
    assert 'marker = "trap"' in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "after trap"

    await client.js("document.getElementById('result').textContent = 'reset'")
    assert "Skipping every pause" in await client.ok("debugger_skip_all_pauses", skip_all_pauses=True)
    assert "Paused" not in await client.ok("click_element", selector="#trap")
    assert await result_text(client) == "after trap"
    assert "honoured again" in await client.ok("debugger_skip_all_pauses", skip_all_pauses=False)


async def test_pause_stops_a_running_script(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("evaluate_js", expression="window.stopSpin = false; setTimeout(spin, 50); 'scheduled'")
    text = await client.ok("debugger_pause", timeout_ms=5000, include_context=True)
    assert "Paused (pause requested) at" in text and "#0 spin app.js" in text
    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="window.stopSpin = true")
    await client.ok("debugger_resume")
    assert await result_text(client) == "spun"


async def test_a_pause_requested_on_an_idle_page_stops_in_the_page_not_in_our_tools(
    debug_page: ModeClient, site_url: str
) -> None:
    """The suggested flow: request a pause, then trigger the page. The query and the click's own
    page scripts run first; the pause must wait for the page's handler, not stop in them."""
    client = debug_page
    text = await client.ok("debugger_pause", timeout_ms=200)
    assert text.startswith("Pause requested; no script ran within 200 ms."), text
    assert "button#compute" in await client.ok("query_elements", selector="#compute")
    text = await client.ok("click_element", selector="#compute", include_context=True)
    assert f"Paused (pause requested) at {app_js(site_url)}:" in text, text
    assert "#0 compute app.js" in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_a_paused_page_answers_other_tools_promptly(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"))
    await client.ok("click_element", selector="#compute")

    started = time.monotonic()
    kind, text = await client.error("click_element", selector="#count")
    assert kind == "STATE" and "Execution is paused (breakpoint bp1) at" in text
    resume = 'execution(action="resume")' if client.mode == "smart" else "debugger_resume()"
    assert resume in text
    kind, text = await client.error("wait_for", selector="#result")
    assert kind == "STATE" and "Execution is paused" in text
    kind, text = await client.error("debugger_pause")
    assert kind == "STATE" and "already paused" in text
    assert "button#compute" in await client.ok("query_elements", selector="#compute")
    assert await result_text(client) == "ready"
    assert "browser-1" in await client.ok("chrome_list_connections")
    with warnings.catch_warnings():  # the SDK deprecates ping for the newest protocol; this session speaks an older one
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.client.send_ping()
    assert time.monotonic() - started < PROMPT_S

    text = await client.ok("navigate", url=site_url + "/debug")  # a navigation ends the paused script
    assert "Title: Debug me" in text
    kind, text = await client.error("debugger_step_over")
    assert kind == "STATE" and "not paused" in text


async def test_a_dialog_opened_in_a_paused_frame_is_answered_and_the_pause_goes_on(
    debug_page: ModeClient, site_url: str
) -> None:
    """alert() evaluated in a paused frame holds the page in the dialog inside the pause: the
    evaluation says so, the dialog can be answered while paused, and resuming then works."""
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"))
    await client.ok("click_element", selector="#compute")
    with anyio.fail_after(PROMPT_S):
        kind, text = await client.error("debugger_evaluate_on_call_frame", call_frame_id="0", expression="alert('in')")
        assert kind == "STATE" and 'An alert dialog is open: "in"' in text, text
        kind, text = await client.error("debugger_resume")
        assert kind == "STATE" and "dialog is open" in text, text
        text = await client.ok("handle_dialog", accept=True)
    assert text.startswith('Accepted the alert dialog "in".'), text
    assert f"Paused (breakpoint bp1) at {app_js(site_url)}:{line_of('compute-first')}" in text, text
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_state_errors_when_not_paused(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    breakpoint_tool = 'breakpoint(action="set")' if client.mode == "smart" else "debugger_set_breakpoint()"
    for tool, arguments in [
        ("debugger_step_over", {}),
        ("debugger_step_into", {}),
        ("debugger_step_out", {}),
        ("debugger_resume", {}),
        ("debugger_get_call_stack", {}),
        ("debugger_evaluate_on_call_frame", {"call_frame_id": 0, "expression": "1"}),
    ]:
        kind, text = await client.error(tool, **arguments)
        assert kind == "STATE", (tool, text)
        assert "Execution is not paused." in text and breakpoint_tool in text, (tool, text)


async def test_bad_debugger_arguments(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    kind, text = await client.error("debugger_set_breakpoint", line_number=3)
    assert kind == "VALIDATION" and "url / url_regex: expected exactly one of them, got neither" in text
    kind, text = await client.error("debugger_set_breakpoint", url=app_js(site_url), url_regex="x", line_number=3)
    assert kind == "VALIDATION" and "got both" in text
    kind, text = await client.error("debugger_set_breakpoint", url_regex="(", line_number=3)
    assert kind == "VALIDATION" and "url_regex" in text
    kind, text = await client.error("debugger_set_breakpoint", url=app_js(site_url), line_number=0)
    assert kind == "VALIDATION" and "line_number" in text
    kind, text = await client.error("debugger_remove_breakpoint", breakpoint_id="bp99")
    assert kind == "STATE" and "No breakpoint 'bp99'" in text

    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"))
    await client.ok("click_element", selector="#compute")
    kind, text = await client.error("debugger_evaluate_on_call_frame", call_frame_id=7, expression="1")
    assert kind == "STATE" and "There is no frame 7" in text
    kind, text = await client.error("debugger_evaluate_on_call_frame", call_frame_id=0, expression="missing.value")
    assert kind == "EXECUTION" and "ReferenceError: missing is not defined" in text
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_the_debugger_tools_that_read_or_run_a_pause_need_it_enabled(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=site_url + "/debug")
    enable = "enable_debug_tools()" if client.mode == "smart" else "debugger_enable()"
    calls: list[tuple[str, dict[str, object]]] = [
        ("debugger_remove_breakpoint", {"breakpoint_id": "bp1"}),
        ("debugger_list_breakpoints", {}),
        ("debugger_resume", {}),
        ("debugger_step_over", {}),
        ("debugger_step_into", {}),
        ("debugger_step_out", {}),
        ("debugger_get_call_stack", {}),
        ("debugger_evaluate_on_call_frame", {"call_frame_id": 0, "expression": "1"}),
        ("debugger_disable", {}),
    ]
    for tool, arguments in calls:
        kind, text = await client.error(tool, **arguments)
        assert kind == "DEBUGGER", (tool, text)
        assert "The debugger is not enabled on this page." in text and enable in text, (tool, text)


@pytest.mark.parametrize(
    ("tool", "arguments", "then"),
    [
        ("debugger_set_breakpoint", {"url": "app.js", "line_number": 1}, "Breakpoint bp1 at app.js:1"),
        ("debugger_set_event_breakpoint", {"event_name": "click"}, "Breakpoint bp1 on event click."),
        ("debugger_set_pause_on_exceptions", {"state": "uncaught"}, "Pausing on uncaught exceptions"),
        ("debugger_pause", {"timeout_ms": 200}, "Pause requested; no script ran within 200 ms."),
        ("debugger_list_scripts", {}, "1 script loaded, 0 with a source map"),
        ("debugger_read_source", {"source": "app.js"}, "http://"),
        ("debugger_search_sources", {"query": "function compute"}, '1 lines match "function compute"'),
    ],
)
async def test_breakpoints_and_pauses_turn_the_debugger_on_themselves(
    client: ModeClient, site_url: str, tool: str, arguments: dict[str, object], then: str
) -> None:
    await client.ok("navigate", url=site_url + "/debug")
    text = await client.ok(tool, **arguments)
    assert text.splitlines()[0] == f"Debugger enabled on {site_url}/debug.", text
    assert text.splitlines()[1].startswith(then), text
    await client.ok("debugger_list_breakpoints")  # on now, for the tools that need it
    if tool == "debugger_pause":  # the request stands: the next script the page runs stops
        assert "Paused (pause requested)" in await client.ok("click_element", selector="#compute")
        await client.ok("debugger_resume")
    await client.ok("debugger_disable")


async def test_breakpoints_are_kept_per_target(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"))
    await client.ok("new_target", url=site_url + "/debug")
    kind, _ = await client.error("debugger_list_breakpoints")
    assert kind == "DEBUGGER"  # the new tab has its own debugger, off
    await client.ok("close_target")
    await client.ok("switch_target", index=0)
    assert "bp1 at" in await client.ok("debugger_list_breakpoints")
    assert "Paused (breakpoint bp1)" in await client.ok("click_element", selector="#compute")
    await client.ok("debugger_resume")
    assert await result_text(client) == "45"


async def test_call_stack_shows_closure_variables(debug_page: ModeClient, site_url: str) -> None:
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("closure-body"))
    text = await client.ok("click_element", selector="#count")
    assert f"Paused (breakpoint bp1) at {app_js(site_url)}:{line_of('closure-body')}:" in text
    stack = await client.ok("debugger_get_call_stack", **({} if client.mode == "smart" else {"max_frames": 2}))
    assert "#0 increment app.js" in stack
    assert "local increment: step = 2" in stack and "closure makeCounter: count = 0" in stack
    assert "#1 (anonymous) app.js" in stack
    assert await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="count + step") == "2"
    await client.ok("debugger_resume")
    assert await result_text(client) == "count 2"


async def test_a_step_that_stops_at_a_return_shows_the_value_returned(debug_page: ModeClient, site_url: str) -> None:
    """Stepping past a ``return`` stops once more on its line (where the function returns):
    the answer says what it returns, or it would read as a step that went nowhere."""
    client = debug_page
    await client.ok("debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("square-body"))
    await client.ok("click_element", selector="#compute")
    text = await client.ok("debugger_step_over")
    assert f"at {app_js(site_url)}:{line_of('square-body') + 1}:" in text, text  # return result;
    assert "Returning 9 from square." in text, text
    stack = await client.ok("debugger_get_call_stack")
    assert "  returning 9" in stack, stack
    text = await client.ok("debugger_step_over")
    assert f"at {app_js(site_url)}:{line_of('compute-sum')}:" in text and "Returning" not in text, text
    await client.ok("debugger_resume")


async def test_a_condition_that_throws_never_reaches_the_pages_console(debug_page: ModeClient, site_url: str) -> None:
    """A condition that throws counts as false; the error is the breakpoint list's to report,
    never the page's console's, where it would read as the app failing."""
    client = debug_page
    await client.ok("get_console_logs")  # read what loading logged
    await client.ok(
        "debugger_set_breakpoint", url=app_js(site_url), line_number=line_of("compute-first"), condition="nosuch > 1"
    )
    text = await client.ok("click_element", selector="#compute")
    assert "Paused" not in text and "Error" not in text, text
    logs = await client.ok("get_console_logs")
    assert "nosuch" not in logs and "computed" in logs, logs
    listed = await client.ok("debugger_list_breakpoints")
    assert "its condition failed (so it counts as false): ReferenceError: nosuch is not defined" in listed, listed
