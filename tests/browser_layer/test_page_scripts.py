"""Every page-side script in ``browser/js/`` parses in Chromium, as cdpilot sends it."""

from __future__ import annotations

from importlib import resources

import pytest

from cdpilot.browser.dom.dom_scripts import LIBRARY_PARTS, script
from cdpilot.browser.own_scripts import page_script
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.text import clip

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

SCRIPTS = sorted(
    entry.name.removesuffix(".js")
    for entry in resources.files("cdpilot.browser").joinpath("js").iterdir()
    if entry.name.endswith(".js")
)


def test_the_scripts_are_found() -> None:
    assert "element_state" in SCRIPTS


async def _compile_problem(browser: BrowserConnection, expression: str, url: str) -> str | None:
    reply = await browser.page.send(
        "Runtime.compileScript", {"expression": expression, "sourceURL": url, "persistScript": False}
    )
    details = reply.get("exceptionDetails")
    return None if details is None else f"{url}:{details['lineNumber']}: {details['exception']}"


@pytest.mark.parametrize("name", SCRIPTS)
async def test_the_script_parses(browser: BrowserConnection, name: str) -> None:
    """Each file is one function or one expression: in parentheses it is a valid expression,
    which is how ``Runtime.callFunctionOn`` and ``Runtime.evaluate`` both take it. A part of
    a DOM library (``dom_*.js``) is declarations: it must parse as a function body."""
    source = page_script(name)
    wrapped = f"(function () {{\n{source}\n}})" if name.startswith("dom_") else f"(\n{source}\n)"
    assert await _compile_problem(browser, wrapped, f"{name}.js") is None


@pytest.mark.parametrize("name", sorted(LIBRARY_PARTS))
async def test_each_dom_library_parses_as_sent(browser: BrowserConnection, name: str) -> None:
    """The parts together, wrapped as `script` sends them: no name is declared twice."""
    assert await _compile_problem(browser, script(name, "String"), f"{name}-library.js") is None


async def test_a_broken_script_is_caught(browser: BrowserConnection) -> None:
    """The checks above can fail: a syntax error, or a name declared twice, does not compile."""
    assert await _compile_problem(browser, "(\nfunction () { return ; ]\n)", "x.js") is not None
    assert await _compile_problem(browser, "(function () {\nconst a = 1;\nconst a = 2;\n})", "y.js") is not None


@pytest.mark.parametrize(("length", "limit"), [(10, 40), (41, 40), (200, 40), (5000, 80), (30, 3)])
async def test_the_page_cuts_text_as_the_answers_do(browser: BrowserConnection, length: int, limit: int) -> None:
    """Text cut in the page (element texts, opening tags) carries the same mark as `text.clip`."""
    text = "".join(chr(ord("a") + n % 26) for n in range(length))
    reply = await browser.page.send(
        "Runtime.evaluate", {"expression": script("query", "clip", text, limit), "returnByValue": True}
    )
    assert reply["result"]["value"] == clip(text, limit)
