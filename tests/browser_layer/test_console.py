"""ConsoleLog on a real Chromium: marks, folding, replays on re-attach, page generations, the bounds,
and what one read of it says about the entries it leaves out; and its buffer on its own, fed
hand-built entries: buckets, arrival order, folding and the counts of what the bounds pushed out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cdpilot.browser.observe.console import ConsoleLog, render_args
from cdpilot.browser.observe.console_buffer import ConsoleBuffer
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.browser.page.loading import navigate
from cdpilot.browser.remote_values import render_remote
from cdpilot.browser.session.browser_connection import BrowserConnection
from tests.browser_layer.helpers import run
from tests.support.pages import serve_pages
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


def texts(log: ConsoleLog, **kwargs: bool) -> list[tuple[str, int]]:
    return [(entry.text, entry.count) for entry in log.entries(**kwargs)]


async def test_mark_and_since_count_only_what_came_after(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/console")
    log = browser.features.console
    await run(browser, "document.getElementById('repeat-btn').click()")
    mark = log.mark()
    assert log.since(mark) == []
    await run(browser, "document.getElementById('repeat-btn').click(); console.log('after')")
    assert [(e.text, e.count) for e in log.since(mark)] == [("same again", 5), ("after", 1)]
    assert texts(log)[-2:] == [("same again", 10), ("after", 1)]
    assert log.mark() > mark


async def test_sources_are_one_based_and_errors_carry_a_stack(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/console")
    await run(browser, "document.getElementById('throw-btn').click(); new Promise(r => setTimeout(r))")
    [loaded, thrown] = browser.features.console.entries()
    assert (loaded.level, loaded.url, loaded.line, loaded.stack) == ("info", f"{pages}/console", 7, ())
    assert (thrown.level, thrown.text, thrown.line) == ("error", "Uncaught TypeError: boom from page", 6)
    top = thrown.stack[0]
    assert (top.function, top.url, top.line) == ("", f"{pages}/console", 6) and top.column > 1


async def test_browser_reported_errors_are_recorded(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/fetch")
    await run(browser, "fetch('/api/fail', {method: 'POST'}).then(r => r.status)")
    failed = [e for e in browser.features.console.entries() if "status of 500" in e.text]
    assert [(e.level, e.url) for e in failed] == [("error", f"{pages}/api/fail")]


async def test_a_reattached_page_does_not_replay_what_was_held(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/console")
    log = browser.features.console
    await run(browser, "console.warn('before re-attach')")
    generation, before = log.generation, texts(log)
    await browser.use_target(browser.page.target_id or "")
    assert (log.generation, texts(log)) == (generation, before)
    await run(browser, "console.warn('after re-attach')")
    assert texts(log) == [*before, ("after re-attach", 1)]


async def test_navigation_starts_a_new_generation(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/console")
    log = browser.features.console
    first = log.generation
    await navigate(browser, f"{pages}/welcome")
    assert log.generation == first + 1
    assert log.page_urls[first] == f"{pages}/console"
    assert log.entries() == []
    assert ("console page loaded", 1) in texts(log, include_previous_pages=True)
    current = log.read(include_previous_pages=False, level=None)
    assert (current.entries, current.generation, current.earlier_pages) == (
        (),
        first + 1,
        len(log.entries(include_previous_pages=True)),
    )
    assert log.read(include_previous_pages=True, level="info").entries[-1].text == "console page loaded"


async def test_a_burst_of_logs_keeps_the_error_before_it(browser: BrowserConnection, pages: str) -> None:
    await navigate(browser, f"{pages}/console")
    small = ConsoleLog(max_entries=10)
    await small.attach(browser.page)
    await run(browser, "console.error('root cause'); for (let i = 0; i < 15; i++) console.log('line ' + i)")
    assert [text for text, _ in texts(small)] == ["root cause", *(f"line {i}" for i in range(5, 15))]
    errors = small.read(include_previous_pages=False, level="error")
    assert ([e.text for e in errors.entries], errors.dropped) == (["root cause"], {"log": 5})
    await navigate(browser, f"{pages}/welcome")  # what was dropped came from an earlier page
    assert small.read(include_previous_pages=False, level=None).dropped == {}
    assert small.read(include_previous_pages=True, level=None).dropped == {"log": 5}
    await browser.use_target(browser.page.target_id or "")  # let go of the extra subscriber's session


def logged(text: str, level: str = "log", generation: int = 0) -> ConsoleEntry:
    return ConsoleEntry(level, text, None, None, (), generation)


def fill(buffer: ConsoleBuffer, *entries: ConsoleEntry) -> None:
    for entry in entries:
        buffer.add(entry)


def test_errors_and_warnings_are_bounded_apart_from_the_rest() -> None:
    buffer = ConsoleBuffer(capacity=3)
    fill(buffer, logged("root cause", "error"), *(logged(f"n{i}", "debug" if i % 2 else "log") for i in range(10)))
    fill(buffer, *(logged(f"careful {i}", "warning") for i in range(2)))
    assert [e.text for e in buffer.entries()] == ["root cause", "n7", "n8", "n9", "careful 0", "careful 1"]
    assert buffer.dropped() == {"log": 4, "debug": 3}
    fill(buffer, logged("careful 2", "warning"))  # only more errors and warnings push an error out
    assert buffer.entries()[0].text == "n7"
    assert buffer.dropped() == {"log": 4, "debug": 3, "error": 1}


def test_reads_merge_the_buckets_in_arrival_order() -> None:
    buffer = ConsoleBuffer()
    arrived = [logged("a", "info"), logged("b", "warning"), logged("c"), logged("d", "error"), logged("e", "debug")]
    fill(buffer, *arrived)
    assert buffer.entries() == arrived


def test_repeats_fold_only_right_after_the_same_message() -> None:
    buffer = ConsoleBuffer()
    fill(buffer, logged("again", "error"), logged("again", "error"), logged("between"), logged("again", "error"))
    assert [(e.text, e.count) for e in buffer.entries()] == [("again", 2), ("between", 1), ("again", 1)]
    mark = buffer.mark()
    fill(buffer, logged("again", "error"), logged("new"))
    assert [(e.text, e.count) for e in buffer.since(mark)] == [("again", 1), ("new", 1)]
    assert [(e.text, e.count) for e in buffer.entries()][-2:] == [("again", 2), ("new", 1)]


def test_drops_are_counted_per_page_for_the_newest_page_that_lost_some() -> None:
    buffer = ConsoleBuffer(capacity=2)
    fill(buffer, logged("old error", "error", 0), *(logged(f"old {i}", "log", 0) for i in range(3)))
    assert (buffer.dropped(0), buffer.dropped(1)) == ({"log": 1}, {})
    fill(buffer, *(logged(f"new {i}", "info", 1) for i in range(4)))
    assert (buffer.dropped(0), buffer.dropped(1), buffer.dropped()) == ({}, {"info": 2}, {"log": 3, "info": 2})
    fill(buffer, *(logged(f"new error {i}", "error", 1) for i in range(2)))  # pushes out page 0's error
    assert (buffer.dropped(1), buffer.dropped()) == ({"info": 2}, {"log": 3, "info": 2, "error": 1})


def test_a_hundred_thousand_messages_keep_the_buffer_bounded() -> None:
    buffer = ConsoleBuffer(capacity=1000)
    fill(buffer, *(logged(f"message {i}", "warning" if i % 10 == 0 else "log") for i in range(100_000)))
    held = buffer.entries()
    assert len(held) == 2000 and held[-1].text == "message 99999"
    assert buffer.dropped() == {"warning": 9000, "log": 89_000}


def remote(kind: str, value: Any = None, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "value": value, **extra}


def test_arguments_render_like_the_console_prints_them() -> None:
    assert render_args([remote("string", "%s has %d%%"), remote("string", "x"), remote("number", 4)]) == "x has 4%"
    assert render_args([remote("string", "%c styled"), remote("string", "color: red")]) == " styled"
    assert render_args([remote("string", "missing %s")]) == "missing %s"
    assert render_args([remote("number", 1), remote("boolean", True), remote("undefined")]) == "1 true undefined"
    assert render_remote({"type": "number", "unserializableValue": "NaN"}) == "NaN"
    assert render_remote({"type": "object", "subtype": "null", "value": None}) == "null"
    preview = {
        "type": "object",
        "description": "Object",
        "overflow": True,
        "properties": [{"name": "a", "type": "number", "value": "1"}, {"name": "b", "type": "string", "value": "x"}],
    }
    assert render_remote({"type": "object", "description": "Object", "preview": preview}) == '{a: 1, b: "x", …}'
    array = {"type": "object", "subtype": "array", "description": "Array(2)", "properties": []}
    assert render_remote({"type": "object", "subtype": "array", "preview": array}) == "Array(2) []"
    error = {"type": "object", "subtype": "error", "description": "Error: bad\n    at x", "preview": preview}
    assert render_remote(error) == "Error: bad"
