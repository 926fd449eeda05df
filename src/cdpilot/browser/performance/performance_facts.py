"""What a page's performance measures and a recorded trace are, as the answers read them.

A value the page could not measure is None (or ``"unsupported"`` where this browser does not
record that kind of entry at all), never 0: 0 is a measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Unsupported = Literal["unsupported"]
InteractionState = Literal["measured", "none", "fast", "before"]
"""measured: an INP; none: no interaction yet; fast: interactions, none of 16 ms or more (the
least the browser reports); before: interactions, all before measuring started."""


@dataclass(frozen=True)
class LargestPaint:
    time_ms: float
    element: str | None  # "h1#title"; None once the element has left the document
    url: str | None  # an image's


@dataclass(frozen=True)
class LayoutShifts:
    score: float
    element: str | None  # the element that moved most in the largest shift


@dataclass(frozen=True)
class Interactions:
    state: InteractionState
    count: int
    inp_ms: float | None = None
    event: str | None = None  # "click"
    element: str | None = None


@dataclass(frozen=True)
class LongTasks:
    durations_ms: tuple[float, ...]


@dataclass(frozen=True)
class NavigationTiming:
    ttfb_ms: float
    dom_content_loaded_ms: float | None  # None: not reached yet
    load_ms: float | None


@dataclass(frozen=True)
class SlowResource:
    url: str
    duration_ms: float
    size: int | None  # None: not known (a cross-origin response without Timing-Allow-Origin)


@dataclass(frozen=True)
class PerformanceMetrics:
    url: str
    measuring_since_ms: float | None  # interactions are kept from then on; None: from page start
    lcp: LargestPaint | Unsupported | None  # None: nothing painted yet
    cls: LayoutShifts | Unsupported
    long_tasks: LongTasks | Unsupported
    interactions: Interactions
    navigation: NavigationTiming | None  # None: no document load to measure (about:blank)
    resources: tuple[SlowResource, ...]  # the slowest first
    resource_total: int


@dataclass(frozen=True)
class Recording:
    stream: str  # the handle of the trace, waiting in the browser to be read
    recorded_ms: float
    load_missed: bool  # with a reload: the page did not finish loading in time


@dataclass(frozen=True)
class TraceFile:
    path: str  # where it was written
    size: int  # bytes written
    events: int
    span_ms: float | None  # from the first to the last timed event
    recorded_ms: float  # how long the recording ran
    longest_task_ms: float | None  # the longest main-thread task of a page
    navigations: tuple[str, ...]  # documents that started loading during the trace
    load_missed: bool


@dataclass(frozen=True)
class HotFunction:
    """One function of a CPU sample: its time on the CPU itself (not in what it called)."""

    name: str
    place: str  # where it is: the original place when a map covers it, else the script's
    self_ms: float
    library: bool  # node_modules, Node.js's own code, the engine's (garbage collection, idle)
    busiest_line: int | None = None  # the line of its place's file that took most of its time


@dataclass(frozen=True)
class CpuSample:
    """What ran during a sample, busiest first."""

    duration_ms: float
    samples: int
    idle_ms: float  # waiting for work: the program was idle, not busy
    functions: tuple[HotFunction, ...]  # by self time, busiest first
