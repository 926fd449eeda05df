"""Performance in both modes, through the real server on a real Chromium: the page's vitals
(named elements, a long task, an interaction), compared with what the page's own observers
see, and traces read back from their files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.e2e.harness import ModeClient, spelled, text_of
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BUSY_MS = 200  # the page's long task
CLICK_BUSY_MS = 120  # what a click on #go costs
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e0d2ea5f0000000049454e44ae426082"
)
# The page keeps what its own observers see (LCP element, shifted elements) in window.pageSaw.
VITALS_BODY = f"""
<div id="slot"></div>
<h1 id="headline" style="font-size:64px;margin:0">Performance matters</h1>
<img id="logo" src="/logo.png" width="16" height="16">
<button id="go" onclick="const t = performance.now(); while (performance.now() - t < {CLICK_BUSY_MS}) {{}}
  this.textContent = 'clicked'">Go</button>
<script src="/app.js"></script>
"""
APP_JS = f"""
window.pageSaw = {{ lcp: null, shifted: [], cls: 0 }};
new PerformanceObserver((list) => {{
  for (const e of list.getEntries()) window.pageSaw.lcp = e.element && e.element.id;
}}).observe({{ type: "largest-contentful-paint", buffered: true }});
new PerformanceObserver((list) => {{
  for (const e of list.getEntries()) {{
    window.pageSaw.cls += e.value;
    for (const s of e.sources) if (s.node && s.node.id) window.pageSaw.shifted.push(s.node.id);
  }}
}}).observe({{ type: "layout-shift", buffered: true }});
setTimeout(() => {{ const t = performance.now(); while (performance.now() - t < {BUSY_MS}) {{}} }}, 50);
setTimeout(() => {{
  document.getElementById("slot").innerHTML = '<div id="banner" style="height:200px">Banner</div>';
}}, 400);
""".encode()
PAGES: dict[str, tuple[int, str, bytes]] = {
    "/vitals": (200, "text/html", html("Vitals", VITALS_BODY)),
    "/logo.png": (200, "image/png", PNG),
    "/app.js": (200, "text/javascript", APP_JS),
    "/plain": (200, "text/html", html("Plain", "<p>plain</p>")),
}
LCP_LINE = re.compile(r"^LCP (\d+) ms: h1#headline\.$", re.M)
CLS_LINE = re.compile(r"^CLS ([\d.]+): (\S+) moved most\.$", re.M)
LONG_TASKS = re.compile(r"^Long tasks: (\d+), (\d+) ms in all, the longest (\d+) ms\.$", re.M)
NAVIGATION = re.compile(r"^Navigation: TTFB \d+ ms, DOMContentLoaded \d+ ms, load \d+ ms\.$", re.M)
INP_LINE = re.compile(r"^INP (\d+) ms: (\w+) on button#go \((\d+) interactions?\)\.$", re.M)
TRACE_SAID = re.compile(r"to (\S+): ([\d,]+) events, ([\d,]+) bytes \([\d.]+ [KM]B\), spanning [\d.]+ s\.")


async def loaded_vitals(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/vitals")
    await client.ok("wait_for", selector="#banner")


async def test_vitals_name_the_largest_paint_the_shift_and_the_long_task(client: ModeClient, site_url: str) -> None:
    await loaded_vitals(client, site_url)
    answer = await client.ok("performance_metrics")
    assert answer.startswith(f"Performance of {site_url}/vitals:\n"), answer
    assert len(answer) < 1000, answer
    saw = await client.js("window.pageSaw")
    assert saw["lcp"] == "headline" and LCP_LINE.search(answer), answer
    cls = CLS_LINE.search(answer)
    assert cls is not None, answer
    assert float(cls[1]) == pytest.approx(saw["cls"], abs=0.001) and float(cls[1]) > 0
    element = cls[2]
    assert element.split("#")[1] in saw["shifted"], (element, saw)
    tasks = LONG_TASKS.search(answer)
    assert tasks is not None and int(tasks[1]) >= 1 and int(tasks[3]) >= BUSY_MS, answer
    assert NAVIGATION.search(answer), answer
    assert "INP: no interaction yet." in answer
    assert re.search(r"^Slowest of \d+ resources: /(app\.js|logo\.png) \d+ ms, \d+ K?B; ", answer, re.M), answer
    assert "Interactions are measured from " in answer  # measuring started with this call
    assert await client.js("Object.keys(window).filter((k) => k.includes('cdpilot'))") == []


async def test_a_click_gives_an_inp_and_a_reload_measures_from_the_start(client: ModeClient, site_url: str) -> None:
    await loaded_vitals(client, site_url)
    await client.ok("performance_metrics")  # starts measuring interactions
    await client.ok("click_element", selector="#go")
    assert await client.js("document.getElementById('go').textContent") == "clicked"
    answer = await client.ok("performance_metrics")
    inp = INP_LINE.search(answer)
    assert inp is not None, answer
    assert int(inp[1]) >= CLICK_BUSY_MS and inp[2] == "click"
    await client.ok("reload")
    await client.ok("wait_for", selector="#banner")
    answer = await client.ok("performance_metrics")
    assert "INP: no interaction yet." in answer and "Interactions are measured from" not in answer, answer


async def test_interactions_before_measuring_are_said_to_need_a_reload(client: ModeClient, site_url: str) -> None:
    """A new tab is a new page session: nothing measures its interactions until asked, and the
    browser keeps only the slow ones (104 ms and more) by itself; a quick click is lost."""
    await client.ok("new_target", url=f"{site_url}/vitals")
    await client.ok("wait_for", selector="#banner")
    await client.ok("click_element", selector="#headline")
    answer = await client.ok("performance_metrics")
    assert re.search(r"^INP: not measurable: the 1 interaction so far came before measuring started;", answer, re.M)
    reload = "reload()" if client.mode == "legacy" else 'navigate(action="reload")'
    assert f"interact again, or {reload} the page to measure from its start." in answer, answer
    await client.ok("reload")
    await client.ok("wait_for", selector="#banner")
    await client.ok("click_element", selector="#go")
    answer = await client.ok("performance_metrics")
    assert INP_LINE.search(answer) and "Interactions are measured from" not in answer, answer
    await client.ok("close_target")


def trace_events(path: Path) -> list[dict[str, Any]]:
    document = json.loads(path.read_bytes())
    assert isinstance(document, dict) and isinstance(document["traceEvents"], list)
    events: list[dict[str, Any]] = document["traceEvents"]
    return events


class Collected:
    def __init__(self) -> None:
        self.messages: list[str] = []
        self.first = anyio.Event()

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.messages.append(message or "")
        self.first.set()


async def test_a_timed_trace_opens_in_devtools_and_matches_its_answer(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/plain")
    collected = Collected()
    name, args = spelled(client.mode, "record_trace", {"duration_ms": 1500, "path": "traces/timed.json"})
    result = await client.client.call_tool(name, args, progress_callback=collected)
    answer = text_of(result)
    assert not result.is_error, answer
    saved = output_dir / client.mode / "traces" / "timed.json"
    said = TRACE_SAID.search(answer)
    assert said is not None and said[1] == str(saved), answer
    assert answer.startswith(f"Recorded a 1.5 s trace of {site_url}/plain to "), answer
    events = trace_events(saved)
    assert int(said[2].replace(",", "")) == len(events) > 0
    assert int(said[3].replace(",", "")) == saved.stat().st_size  # to the byte
    names = {event.get("name") for event in events}
    assert {"TracingStartedInBrowser", "thread_name"} <= names, sorted(n for n in names if n)[:50]
    assert any(message.startswith("Recording a trace: ") for message in collected.messages), collected.messages
    assert "Saving the trace" in collected.messages


async def test_a_trace_around_a_reload_holds_the_navigation(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/vitals")
    answer = await client.ok("record_trace", reload=True)
    said = TRACE_SAID.search(answer)
    assert said is not None, answer
    saved = Path(said[1])
    assert saved.parent == output_dir / client.mode and re.fullmatch(r"trace-\d{8}-\d{6}\.json", saved.name)
    assert answer.startswith("Recorded a ") and f"trace around a reload of {site_url}/vitals to " in answer
    events = trace_events(saved)
    loaded = {
        event["args"]["data"].get("documentLoaderURL")
        for event in events
        if event.get("name") == "navigationStart" and "data" in event.get("args", {})
    }
    assert f"{site_url}/vitals" in loaded, loaded
    assert f"1 navigation: {site_url}/vitals" in answer, answer
    assert await client.js("performance.getEntriesByType('navigation')[0].type") == "reload"


async def test_a_trace_path_outside_the_output_dir_is_refused(client: ModeClient, output_dir: Path) -> None:
    before = sorted(output_dir.parent.rglob("*"))
    for path in ["../x.json", "a/../../x.json", "/tmp/x.json"]:
        kind, text = await client.error("record_trace", path=path, duration_ms=100)
        assert kind == "VALIDATION" and "- path: expected a relative path inside the output directory" in text
    assert sorted(output_dir.parent.rglob("*")) == before


async def test_a_second_trace_while_one_records_is_a_state_error(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/plain")
    collected = Collected()
    name, args = spelled(client.mode, "record_trace", {"duration_ms": 3000, "path": "first.json"})
    async with anyio.create_task_group() as group:
        results: list[Any] = []

        async def first() -> None:
            results.append(await client.client.call_tool(name, args, progress_callback=collected))

        group.start_soon(first)
        await collected.first.wait()
        kind, text = await client.error("record_trace", duration_ms=100, path="second.json")
    assert kind == "STATE" and "A trace is already being recorded in this browser" in text, text
    assert not results[0].is_error
    assert (output_dir / client.mode / "first.json").exists()
    assert not (output_dir / client.mode / "second.json").exists()


async def test_the_interaction_observer_stays_out_of_the_debugger(client: ModeClient, site_url: str) -> None:
    """Our observer runs in every new document, but is ours: never listed, never stopped in."""
    await loaded_vitals(client, site_url)
    await client.ok("debugger_enable")
    try:
        await client.ok("performance_metrics")
        await client.ok("reload")
        await client.ok("wait_for", selector="#banner")
        listed = await client.ok("debugger_list_scripts")
        assert "/app.js" in listed and "cdpilot" not in listed and "Symbol.for" not in listed, listed
        assert "Interactions are measured from" not in await client.ok("performance_metrics")
    finally:
        await client.ok("debugger_disable")
