"""Every answer and every error names tools as the active mode calls them.

The layers below the registry write ``{tool:<granular name>}``; the registry spells each one,
on its success and its error path alike. This scenario walks through answers that name tools
(errors before a browser exists, a disabled debugger, breakpoints, a pause bundle, a STATE
error while paused, a pause request that found nothing to stop) and checks that no placeholder
is left and no call is spelled the other mode's way.
"""

from __future__ import annotations

import re

import pytest
from cdpilot_generated.catalog import DISPATCH
from cdpilot_generated.manifests import MODES, Mode

from tests.e2e.harness import ModeClient, mcp_client, text_of
from tests.support.debug_site import DEBUG_PAGES, line_of
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


PAGES = {**SITE, **DEBUG_PAGES}


def other_modes_calls(mode: Mode) -> re.Pattern[str]:
    """A call spelled the way only the other mode spells it: ``chrome_launch(`` in smart mode,
    ``chrome(`` or ``breakpoint(`` in legacy mode."""
    other = next(m for m in MODES if m != mode)
    names = sorted(set(DISPATCH[other]) - set(DISPATCH[mode]))
    return re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\(")


async def scenario(client: ModeClient, site_url: str) -> list[tuple[str, bool, str]]:
    """(the call, whether it failed, its text) for each step."""
    app_js = f"{site_url}/static/app.js"
    steps: list[tuple[str, dict[str, object]]] = [
        ("navigate", {"url": f"{site_url}/debug"}),  # no browser yet: CONNECTION
        ("chrome_launch", {}),
        ("debugger_get_call_stack", {}),  # the debugger is off: DEBUGGER
        ("navigate", {"url": f"{site_url}/debug"}),
        ("debugger_enable", {}),
        ("debugger_get_call_stack", {}),  # not paused: STATE
        ("debugger_list_breakpoints", {}),
        ("debugger_set_breakpoint", {"url": f"{site_url}/static/nowhere.js", "line_number": 1}),
        ("debugger_set_breakpoint", {"url": app_js, "line_number": line_of("compute-first")}),
        ("click_element", {"selector": "#compute", "include_context": True}),  # a pause bundle
        ("click_element", {"selector": "#compute"}),  # paused: STATE
        ("debugger_step_over", {"include_context": False}),  # the short bundle
        ("debugger_resume", {}),
        ("debugger_pause", {"timeout_ms": 200}),  # nothing runs: how to trigger a pause
        ("click_element", {"selector": "#count"}),  # stops at the requested pause
        ("debugger_resume", {}),
        ("handle_dialog", {"accept": True}),  # no dialog: STATE
        ("query_elements", {"selector": "#nothing-like-this"}),
        ("get_console_logs", {}),
        ("debugger_remove_breakpoint", {"breakpoint_id": "bp9"}),
    ]
    seen = []
    for tool, arguments in steps:
        result = await client.call(tool, **arguments)
        seen.append((tool, bool(result.is_error), text_of(result)))
    return seen


@pytest.mark.parametrize("mode", MODES)
async def test_no_answer_leaves_a_placeholder_or_names_the_other_modes_tools(mode: Mode, site_url: str) -> None:
    async with mcp_client(mode, "--no-auto-launch") as raw:  # the first step meets no browser
        seen = await scenario(ModeClient(raw, mode), site_url)
    failed = [tool for tool, is_error, _ in seen if is_error]
    assert failed == [
        "navigate",
        "debugger_get_call_stack",
        "debugger_get_call_stack",
        "click_element",
        "handle_dialog",
        "debugger_remove_breakpoint",
    ], seen
    assert any("Paused (breakpoint bp2)" in text for _, _, text in seen[9:10]), seen[9]
    naming = [text for _, _, text in seen if re.search(r"\b[a-z_]+\(", text)]
    assert len(naming) >= 6, "the scenario must reach answers that name tools"
    other = other_modes_calls(mode)
    for tool, _, text in seen:
        assert "{tool:" not in text, (tool, text)
        assert not other.search(text), (tool, text)
