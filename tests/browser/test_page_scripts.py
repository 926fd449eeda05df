"""Every page-side script in ``browser/js/`` parses in Chromium, as cdpilot sends it."""

from __future__ import annotations

from importlib import resources

import pytest

from cdpilot.browser.own_scripts import page_script
from cdpilot.browser.session.browser_connection import BrowserConnection

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

SCRIPTS = sorted(
    entry.name.removesuffix(".js")
    for entry in resources.files("cdpilot.browser").joinpath("js").iterdir()
    if entry.name.endswith(".js")
)


def test_the_scripts_are_found() -> None:
    assert "element_state" in SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
async def test_the_script_parses(browser: BrowserConnection, name: str) -> None:
    """Each file is one function or one expression: in parentheses it is a valid expression,
    which is how ``Runtime.callFunctionOn`` and ``Runtime.evaluate`` both take it."""
    source = page_script(name)
    reply = await browser.page.send(
        "Runtime.compileScript",
        {"expression": f"(\n{source}\n)", "sourceURL": f"{name}.js", "persistScript": False},
    )
    details = reply.get("exceptionDetails")
    assert details is None, f"{name}.js:{details and details['lineNumber']}: {details and details['exception']}"


async def test_a_broken_script_is_caught(browser: BrowserConnection) -> None:
    """The check above can fail: a script with a syntax error does not compile."""
    reply = await browser.page.send(
        "Runtime.compileScript",
        {"expression": "(\nfunction () { return ; ]\n)", "sourceURL": "x.js", "persistScript": False},
    )
    assert reply.get("exceptionDetails") is not None
