"""`PageFeatures.unless_blocked` and a debugger pause, on a real Chromium, and the debugger
made on first use.

A command whose page code pauses is not answered until resume: the race must end the
wait at once with the pause. A pause that was already there does not block reading.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cdpilot.browser.debugger.page_debugger import PageDebugger
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.features import PageFeatures
from cdpilot.cdp import CdpSession
from cdpilot.errors import ExecutionPausedError
from tests.support.bundle_site import BUNDLE_PAGES, ts_line
from tests.support.pages import serve_pages

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PROMPT_S = 3.0
RACE_ROUNDS = 10
LOOP = ts_line("cart.ts", "cart-total-loop")


def evaluate(browser: BrowserConnection, expression: str) -> Any:
    return browser.page.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})


async def test_a_pause_ends_the_wait_and_an_existing_pause_does_not_block_reading(browser: BrowserConnection) -> None:
    debugger = browser.features.debugger
    await debugger.enable()
    try:
        started = time.monotonic()
        with pytest.raises(ExecutionPausedError) as caught:
            await browser.features.unless_blocked(evaluate(browser, "window.step = 1; debugger; window.step = 2"))
        assert time.monotonic() - started < PROMPT_S
        assert caught.value.pause.reason == "debugger statement"
        assert debugger.paused is caught.value.pause

        reply = await browser.features.unless_blocked(evaluate(browser, "window.step"))
        assert reply["result"]["value"] == 1  # evaluated while paused: the line after debugger; has not run

        with pytest.raises(ExecutionPausedError, match=r"Execution is paused \(debugger statement\)"):
            browser.features.raise_if_blocked()
        outcome = await debugger.resume(2000)
        assert outcome.pause is None and not outcome.busy
        reply = await browser.features.unless_blocked(evaluate(browser, "window.step"))
        assert reply["result"]["value"] == 2
    finally:
        await debugger.disable()


TICKER = (
    "window.ticker = setInterval(function tick() {\n  window.ticks = (window.ticks || 0) + 1;\n}, 1);\n"
    "//# sourceURL=ticker.js"
)


async def test_turning_the_debugger_off_is_not_stopped_by_a_pause_it_would_end(browser: BrowserConnection) -> None:
    """The page pauses (code that runs every millisecond, a pause asked for) while the debugger
    is being turned off; turning off resumes it, so that pause must not refuse it."""
    debugger = browser.features.debugger
    await evaluate(browser, TICKER)
    paused_meanwhile = 0
    try:
        for _ in range(20):
            await debugger.enable()
            await debugger.set_breakpoint(url="ticker.js", url_regex=None, line=1, column=None, condition=None)
            pauses_before = debugger.pause_count
            await asyncio.gather(  # the pause is asked for while the breakpoint is being removed
                browser.features.unless_blocked(debugger.disable(), pause_blocks=False),
                browser.page.send("Debugger.pause"),
            )
            paused_meanwhile += debugger.pause_count > pauses_before
            assert debugger.paused is None and not debugger.enabled
        assert paused_meanwhile, "the pause never landed during the turning off: the test proved nothing"
        assert (await evaluate(browser, "window.ticks"))["result"]["value"] > 0  # the page runs
    finally:
        await evaluate(browser, "clearInterval(window.ticker)")


async def test_turning_the_debugger_off_while_bundles_load_leaves_no_breakpoint(browser: BrowserConnection) -> None:
    """A bundle that loads binds the breakpoints on its files as it is parsed, in a task of its
    own; a turning off meanwhile must end with no breakpoint left and no error (the browser
    refuses a second instrumentation breakpoint, and a binding must not bring back a breakpoint
    the turning off removed)."""
    debugger = browser.features.debugger
    with serve_pages(BUNDLE_PAGES) as site:
        page = f"{site}/esbuild-external/"
        for _ in range(RACE_ROUNDS):
            await navigate(browser, page)
            await debugger.enable()
            await debugger.set_breakpoint(url="src/cart.ts", url_regex=None, line=LOOP, column=None, condition=None)
            with browser.page.listen("Debugger.scriptParsed") as parsed:
                reloading = asyncio.ensure_future(navigate(browser, page))
                while not str((await parsed.next()).params.get("url", "")).endswith("/app.js"):
                    pass
                outcome = await debugger.disable()  # the bundle's binding has just begun
            assert outcome.breakpoints_removed == 1
            await reloading
            await debugger.enable()
            assert await debugger.breakpoints() == []
            await debugger.disable()


class CountedDebugger:
    """A `PageFeatures.new_debugger` that counts the debuggers it makes."""

    def __init__(self) -> None:
        self.made: list[PageDebugger] = []

    def __call__(self) -> PageDebugger:
        self.made.append(PageDebugger())
        return self.made[-1]


@asynccontextmanager
async def own_page(browser: BrowserConnection, features: PageFeatures) -> AsyncIterator[CdpSession]:
    """A tab of its own with `features` attached (the connection's own page has a debugger of
    its own on that session already, which would see the same pauses), closed after."""
    target = await browser.open_page("about:blank")
    session = await browser.cdp.attach(target)
    await features.attach(browser.cdp, session)
    try:
        yield session
    finally:
        await browser.cdp.browser.send("Target.closeTarget", {"targetId": target})


def evaluate_on(session: CdpSession, expression: str) -> Any:
    return session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})


async def test_a_page_is_attached_and_raced_without_a_debugger_until_one_is_asked_for(
    browser: BrowserConnection,
) -> None:
    """The debugger's modules are a fifth of a first navigate's imports: attaching a page and
    racing its commands must not make one, and the one made later follows that page's session
    (its pauses end a race, as a debugger made with the page does)."""
    new_debugger = CountedDebugger()
    features = PageFeatures(new_debugger=new_debugger)
    async with own_page(browser, features) as session:
        reply = await features.unless_blocked(evaluate_on(session, "1 + 1"))
        features.raise_if_blocked()
        assert (reply["result"]["value"], features.pause, new_debugger.made) == (2, None, [])

        debugger = features.debugger
        assert new_debugger.made == [debugger] and features.debugger is debugger  # made once
        await debugger.enable()
        with pytest.raises(ExecutionPausedError):
            await features.unless_blocked(evaluate_on(session, "debugger;"))
        assert features.pause is debugger.paused is not None
        await debugger.resume(2000)


async def test_a_pause_of_a_debugger_made_during_the_race_ends_it(browser: BrowserConnection) -> None:
    """The race waits for a pause of the debugger it had not when it began: one made (and
    turned on) by the operation itself."""
    features = PageFeatures()
    async with own_page(browser, features) as session:

        async def turn_on_and_pause() -> Any:
            await features.debugger.enable()
            return await evaluate_on(session, "debugger;")

        started = time.monotonic()
        with pytest.raises(ExecutionPausedError) as caught:
            await features.unless_blocked(turn_on_and_pause())
        assert time.monotonic() - started < PROMPT_S
        assert caught.value.pause.reason == "debugger statement"
        await features.debugger.resume(2000)
