"""The browser scenario over stdio: sign in on the test site's login page, then look.

Steps (legacy tool names): launch, navigate, find the submit button, fill the email,
click submit, read the console, take a screenshot. Each run is a fresh cdpilot process
with a fresh headless Chromium; per step we keep the wall time seen by the client, the
time since the process was spawned (so the run's start is also the cold start to the
first navigate, browser launch included), the characters of text the agent reads and the
characters on the wire (a screenshot's image travels as base64). The server's RSS is read
after the last step, next to its RSS right after the handshake.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from bench.overhead import CDPILOT_LEGACY
from bench.pipe import PipeServer
from bench.stats import median

RUNS = 10


@dataclass(frozen=True)
class Step:
    label: str
    tool: str
    arguments: dict[str, Any]


def steps(base_url: str) -> tuple[Step, ...]:
    return (
        Step("launch", "chrome_launch", {}),
        Step("navigate", "navigate", {"url": f"{base_url}/login"}),
        Step("find submit", "query_elements", {"selector": "button[type=submit]"}),
        Step("fill email", "fill_element", {"selector": "#email", "text": "ada@example.test"}),
        Step("click submit", "click_element", {"selector": "button[type=submit]"}),
        Step("read console", "get_console_logs", {"include_previous_pages": True}),
        Step("screenshot", "browser_screenshot", {}),
    )


@dataclass
class StepFigures:
    wall_ms: list[float] = field(default_factory=list)
    since_spawn_ms: list[float] = field(default_factory=list)
    text_chars: int = 0
    wire_chars: int = 0
    answer: str = ""


@dataclass
class ScenarioRuns:
    steps: dict[str, StepFigures] = field(default_factory=dict)
    initialized_ms: list[float] = field(default_factory=list)  # since spawn
    rss_idle_kib: list[int] = field(default_factory=list)
    rss_after_kib: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "runs": len(self.rss_after_kib),
            "initialized_since_spawn_ms_median": median(self.initialized_ms),
            "steps": {
                label: {
                    "wall_ms_median": median(f.wall_ms),
                    "wall_ms_runs": f.wall_ms,
                    "since_spawn_ms_median": median(f.since_spawn_ms),
                    "text_chars": f.text_chars,
                    "wire_chars": f.wire_chars,
                    "answer": f.answer,
                }
                for label, f in self.steps.items()
            },
            "total_ms_median": median(
                [sum(run) for run in zip(*(f.wall_ms for f in self.steps.values()), strict=True)]
            ),
            "rss_idle_mib_median": median(self.rss_idle_kib) / 1024,
            "rss_after_scenario_mib_median": median(self.rss_after_kib) / 1024,
        }


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result["content"])


def run(base_url: str, runs: int = RUNS) -> dict[str, Any]:
    found = ScenarioRuns()
    for _ in range(runs):
        with PipeServer(CDPILOT_LEGACY.argv) as server:
            server.initialize()
            found.initialized_ms.append((time.perf_counter() - server.started) * 1000)
            found.rss_idle_kib.append(server.rss_kib())
            for step in steps(base_url):
                started = time.perf_counter()
                result, wire_chars = server.call_tool(step.tool, step.arguments)
                figures = found.steps.setdefault(step.label, StepFigures())
                finished = time.perf_counter()
                figures.wall_ms.append((finished - started) * 1000)
                figures.since_spawn_ms.append((finished - server.started) * 1000)
                figures.answer = text_of(result)
                figures.text_chars, figures.wire_chars = len(figures.answer), wire_chars
            found.rss_after_kib.append(server.rss_kib())
    return found.summary()
