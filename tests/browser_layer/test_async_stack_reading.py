"""How a ``Debugger.paused``'s async stack is read into `AsyncSegment`s (no browser needed):
places 1-based and named by their script, empty segments left out, and a chain the browser
sent only part of marked as cut."""

from __future__ import annotations

from typing import Any

from cdpilot.browser.debugger.debugger_facts import AsyncFrame, AsyncSegment, Location
from cdpilot.browser.debugger.script_sources import ScriptSources
from cdpilot.cdp import CdpEvent

APP = "http://127.0.0.1:8000/app.js"


def sources() -> ScriptSources:
    scripts = ScriptSources()
    scripts.on_script_parsed(CdpEvent("Debugger.scriptParsed", {"scriptId": "7", "url": APP}, None))
    return scripts


def call(name: str, line: int, column: int, url: str = APP) -> dict[str, Any]:
    return {"functionName": name, "scriptId": "7", "url": url, "lineNumber": line, "columnNumber": column}


def test_segments_are_read_newest_first_with_1_based_places() -> None:
    paused = {
        "asyncStackTrace": {
            "description": "await",
            "callFrames": [call("onPrice", 21, 22), call("", 28, 68, url="")],
            "parent": {
                "description": "Promise.then",
                "callFrames": [],
                "parent": {"description": "setTimeout", "callFrames": [call("schedule", 0, 0)]},
            },
        }
    }
    assert sources().async_stack(paused) == (
        (
            AsyncSegment(
                "await",
                (AsyncFrame("onPrice", Location("7", APP, 22, 23)), AsyncFrame("", Location("7", APP, 29, 69))),
            ),
            AsyncSegment("setTimeout", (AsyncFrame("schedule", Location("7", APP, 1, 1)),)),
        ),
        False,
    )


def test_no_async_stack_reads_as_none_and_a_part_left_unsent_as_cut() -> None:
    assert sources().async_stack({}) == ((), False)
    beyond_depth = {
        "asyncStackTrace": {"description": "await", "callFrames": [call("f", 0, 0)], "parentId": {"id": "1"}}
    }
    assert sources().async_stack(beyond_depth)[1] is True
    other_target = {"asyncStackTraceId": {"id": "2", "debuggerId": "d"}}
    assert sources().async_stack(other_target) == ((), True)
