"""Dialogs on a real Chromium: an open dialog ends waits at once, and is answered cleanly.

The dialogs are opened by ``Runtime.evaluate`` itself, whose reply Chrome holds back until
the dialog closes: exactly the command that would hang without the watcher.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cdpilot.browser.page.dialogs import DialogWatcher
from cdpilot.browser.page.page_facts import DialogInfo
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import DialogOpenError, StateError

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PROMPT_S = 3.0


def evaluate(browser: BrowserConnection, expression: str) -> Any:
    return browser.page.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})


async def value_of(browser: BrowserConnection, expression: str) -> Any:
    reply = await browser.features.unless_blocked(evaluate(browser, expression))
    return reply["result"].get("value")


async def test_without_a_dialog_the_operation_answers(browser: BrowserConnection) -> None:
    assert browser.features.dialogs.open is None
    assert await value_of(browser, "6 * 7") == 42


async def test_a_dialog_that_opens_ends_the_wait_and_is_answered(browser: BrowserConnection) -> None:
    dialogs = browser.features.dialogs
    started = time.monotonic()
    with pytest.raises(DialogOpenError) as caught:
        await value_of(browser, "window.answer = prompt('Your name?', 'nobody')")
    assert time.monotonic() - started < PROMPT_S
    assert caught.value.dialog == DialogInfo("prompt", "Your name?", "nobody")
    assert caught.value.message == 'A prompt dialog is open: "Your name?".'
    assert "{tool:handle_dialog}" in caught.value.suggestion
    assert dialogs.open == caught.value.dialog

    with pytest.raises(DialogOpenError):  # refused before anything is sent
        await value_of(browser, "1")

    answered = await dialogs.handle(browser.page, True, "Ada")
    assert answered.type == "prompt" and dialogs.open is None
    assert await value_of(browser, "window.answer") == "Ada"  # the stalled evaluate went on


async def test_dismissing_a_confirm(browser: BrowserConnection) -> None:
    dialogs = browser.features.dialogs
    with pytest.raises(DialogOpenError):
        await value_of(browser, "window.sure = confirm('Delete it?')")
    await dialogs.handle(browser.page, False, None)
    assert await value_of(browser, "window.sure") is False


async def test_handle_without_a_dialog_is_a_state_error(browser: BrowserConnection) -> None:
    with pytest.raises(StateError, match="No dialog is open") as caught:
        await browser.features.dialogs.handle(browser.page, True, None)
    assert "{tool:click_element}" in caught.value.suggestion


async def test_a_cancelled_wait_cancels_its_operation(browser: BrowserConnection) -> None:
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await browser.features.unless_blocked(never)
    assert never.cancelled()


async def test_attaching_a_new_page_forgets_the_old_dialog(browser: BrowserConnection) -> None:
    watcher = DialogWatcher()
    await watcher.attach(browser.page)
    with pytest.raises(DialogOpenError):
        await browser.features.unless_blocked(evaluate(browser, "alert('old page')"))
    assert watcher.open is not None
    await watcher.attach(browser.page)  # as BrowserConnection does for a page made current
    assert watcher.open is None
    await browser.features.dialogs.handle(browser.page, True, None)
