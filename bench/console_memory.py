"""`python -m bench.console_memory`: what the console buffer keeps after 100,000 messages.

A page that logs in a loop must not grow the server: the buffer keeps the newest entries of
each bucket (errors and warnings, and log/info/debug) and counts the rest. The buffer is fed
the kind of entries the console log makes: every message distinct (nothing folds), texts of
20 to 500 characters, every tenth an error with a five-frame stack, a new page every 10,000.

1. held: tracemalloc's size of what the buffer keeps after 1,000, 10,000 and 100,000
   messages (the last two match when it is bounded);
2. RSS: the process's resident size after 10,000 and after 100,000 messages, in a run
   without tracemalloc, and the time each message takes to record.

Plain figures, no thresholds. No browser needed.
"""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from collections.abc import Iterator

from cdpilot.browser.observe.console import MAX_TEXT_CHARS
from cdpilot.browser.observe.console_buffer import ConsoleBuffer
from cdpilot.browser.observe.console_facts import ConsoleEntry, StackFrame

MESSAGES = 100_000
CHECKPOINTS = (1_000, 10_000, MESSAGES)
PAGE_EVERY = 10_000
SCRIPT = "http://127.0.0.1:8000/assets/app.js"


def _entries(count: int) -> Iterator[ConsoleEntry]:
    for n in range(count):
        text = f"message {n} " + "x" * (n * 7 % (MAX_TEXT_CHARS - 20))
        if n % 10:
            yield ConsoleEntry("log", text, SCRIPT, n % 900 + 1, (), n // PAGE_EVERY, column=5, script_id="42")
        else:
            stack = tuple(StackFrame(f"caller{depth}", SCRIPT, n % 900 + depth, 9, "42") for depth in range(5))
            yield ConsoleEntry("error", text, SCRIPT, n % 900 + 1, stack, n // PAGE_EVERY, column=9, script_id="42")


def _rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        resident_pages = int(statm.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _held_mb() -> dict[int, float]:
    gc.collect()
    tracemalloc.start()
    buffer = ConsoleBuffer()
    held = {}
    for n, entry in enumerate(_entries(MESSAGES), start=1):
        buffer.add(entry)
        if n in CHECKPOINTS:
            held[n] = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    return held


def measure() -> dict[str, float | int]:
    """The figures of the module docstring, for `make bench`'s report."""
    held = _held_mb()
    gc.collect()
    buffer = ConsoleBuffer()
    rss = {}
    started = time.perf_counter()
    for n, entry in enumerate(_entries(MESSAGES), start=1):
        buffer.add(entry)
        if n in CHECKPOINTS[1:]:
            gc.collect()
            rss[n] = _rss_mib()
    per_message_us = (time.perf_counter() - started) / MESSAGES * 1e6
    return {
        "messages": MESSAGES,
        "entries_kept": len(buffer.entries()),
        **{f"held_mb_at_{n}": mb for n, mb in held.items()},
        "rss_mib_at_10000": rss[10_000],
        "rss_mib_at_100000": rss[MESSAGES],
        "record_us_per_message": per_message_us,
    }


def report_lines(figures: dict[str, float | int]) -> list[str]:
    growth = figures["rss_mib_at_100000"] - figures["rss_mib_at_10000"]
    return [
        f"console buffer: {figures['messages']:,} distinct messages (every tenth an error with a 5-frame stack), "
        f"{figures['entries_kept']:,} entries kept",
        f"  held (tracemalloc): {figures['held_mb_at_1000']:.2f} MB after 1,000, "
        f"{figures['held_mb_at_10000']:.2f} MB after 10,000, {figures['held_mb_at_100000']:.2f} MB after 100,000",
        f"  RSS: {figures['rss_mib_at_10000']:.1f} MiB after 10,000, {figures['rss_mib_at_100000']:.1f} MiB after "
        f"100,000 ({growth:+.1f} MiB); {figures['record_us_per_message']:.1f} µs to record a message",
    ]


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
