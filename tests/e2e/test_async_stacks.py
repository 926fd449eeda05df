"""Async call stacks through the real server, in both modes: a pause after an ``await`` or in
a timer's callback shows what led there across the async boundary, in the original sources
where a map covers them, in the call stack and, in one line, in the pause bundle."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.bundle_site import BUNDLE_PAGES, ts_line
from tests.support.debug_site import APP_JS, DEBUG_PAGES, line_of
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {**SITE, **DEBUG_PAGES, **BUNDLE_PAGES}
SPIN_TIMER = APP_JS.splitlines().index("  setTimeout(spin);") + 1  # in the #spin button's listener


async def test_a_pause_after_awaits_shows_the_awaiting_caller_in_its_ts_source(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/esbuild-external/")
    returns = ts_line("api.ts", "api-return")
    await client.ok("debugger_set_breakpoint", url="api.ts", line_number=returns)
    await client.ok("click_element", selector="#price")
    stack = await client.stack_once_paused()
    assert f"#0 loadPrice app/src/api.ts:{returns}:" in stack, stack
    # loadPrice resumed from a microtask: no caller is left on the stack but the one that awaits it.
    awaited = f"-- await --\n  at onPrice app/src/main.ts:{ts_line('main.ts', 'main-await-price')}:"
    assert awaited in stack, stack
    assert "\n  at (anonymous) app/src/main.ts:" in stack, stack  # the click listener that called onPrice
    await client.ok("debugger_resume")


async def test_a_timer_callback_shows_who_set_the_timer_in_the_stack_and_the_bundle(
    debugging: ModeClient, site_url: str
) -> None:
    client = debugging
    await client.ok("navigate", url=f"{site_url}/debug")
    await client.ok("debugger_set_breakpoint", url=f"{site_url}/static/app.js", line_number=line_of("spin"))
    await client.ok("click_element", selector="#spin")
    stack = await client.stack_once_paused()
    assert f"#0 spin app.js:{line_of('spin')}:" in stack, stack
    assert f"-- setTimeout --\n  at (anonymous) app.js:{SPIN_TIMER}:" in stack, stack
    stepped = await client.ok("debugger_step_over", include_context=True)
    assert "#0 spin app.js:" in stepped, stepped
    assert f"\n  -- setTimeout -- (anonymous) app.js:{SPIN_TIMER}:" in stepped, stepped
    await client.ok("debugger_remove_breakpoint", breakpoint_id="bp1")
    await client.ok("debugger_evaluate_on_call_frame", call_frame_id=0, expression="window.stopSpin = true")
    await client.ok("debugger_resume")
    assert await client.js("document.getElementById('result').textContent") == "spun"
