"""The console's entries, bounded: errors and warnings kept apart from log/info/debug.

Why two buckets: a burst of log lines must never push out the last errors, which are what an
agent looks for. Each bucket keeps its newest `MAX_ENTRIES`; reads merge both in arrival
order, and what the bounds pushed out is counted by level (in all, and for the current page
generation), in constant memory, so an answer can say what it no longer holds.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, replace

from cdpilot.browser.observe.console_facts import ConsoleBucket, ConsoleEntry

MAX_ENTRIES = 1000  # per bucket
BUCKET_LEVELS = (("error", "warning"), ("log", "info", "debug"))


@dataclass
class _Slot:
    entry: ConsoleEntry
    first_seq: int  # the entry covers first_seq .. last_seq, one number per repeat
    last_seq: int


class ConsoleBuffer:
    """Console entries in bounded buckets, read back in the order they arrived.

    Errors and warnings are kept apart from log/info/debug, each bucket under a bound of its
    own, because the error an agent looks for is often followed by a burst of logging (a loop,
    a chatty library) that would push it out of a single bound. Every message takes the next
    sequence number; an identical message right after the previous one is folded into it
    (``count``), so an entry covers a contiguous run of numbers: reads merge the buckets by
    those numbers, and `since` can tell how many repeats came after a mark. What a bound
    pushes out is counted by level, for every page and for the newest page generation that
    lost entries, so an answer can say what is no longer held."""

    def __init__(self, capacity: int = MAX_ENTRIES) -> None:
        self.buckets = tuple(ConsoleBucket(levels, capacity) for levels in BUCKET_LEVELS)
        self._queues: tuple[deque[_Slot], ...] = tuple(deque() for _ in BUCKET_LEVELS)
        self._queue_of = {
            level: queue for levels, queue in zip(BUCKET_LEVELS, self._queues, strict=True) for level in levels
        }
        self._capacity = capacity
        self._seq = 0
        self._last: _Slot | None = None  # the newest message's, for folding
        self._dropped: Counter[str] = Counter()  # level -> entries pushed out, every page
        self._dropped_generation = -1  # the newest page generation that lost entries
        self._dropped_there: Counter[str] = Counter()  # level -> entries that generation lost

    def add(self, entry: ConsoleEntry) -> None:
        """Record one message: folded into the previous one when identical, else a new entry."""
        self._seq += 1
        last = self._last
        if last is not None and last.entry == replace(entry, count=last.entry.count):
            last.entry = replace(last.entry, count=last.entry.count + 1)
            last.last_seq = self._seq
            return
        self._last = _Slot(entry, self._seq, self._seq)
        queue = self._queue_of[entry.level]
        queue.append(self._last)
        if len(queue) > self._capacity:
            self._count_dropped(queue.popleft().entry)

    def _count_dropped(self, entry: ConsoleEntry) -> None:
        self._dropped[entry.level] += 1
        if entry.page_generation > self._dropped_generation:
            self._dropped_generation, self._dropped_there = entry.page_generation, Counter()
        if entry.page_generation == self._dropped_generation:
            self._dropped_there[entry.level] += 1

    def mark(self) -> int:
        """A position in the log; `since(mark)` returns what was logged after it."""
        return self._seq

    def since(self, mark: int) -> list[ConsoleEntry]:
        """Entries logged after `mark`, each counting only its repeats after the mark."""
        newer = [self._tail(queue, mark) for queue in self._queues]
        return [replace(slot.entry, count=min(slot.entry.count, slot.last_seq - mark)) for slot in self._merged(newer)]

    def entries(self) -> list[ConsoleEntry]:
        """Every entry held, oldest first."""
        return [slot.entry for slot in self._merged(self._queues)]

    def dropped(self, generation: int | None = None) -> dict[str, int]:
        """Level -> entries pushed out by the bounds: of every page, or of page `generation`
        (known for the newest generation that lost any, which is the current page's whenever
        it lost some)."""
        if generation is None:
            return dict(self._dropped)
        return dict(self._dropped_there) if generation == self._dropped_generation else {}

    @staticmethod
    def _tail(queue: deque[_Slot], mark: int) -> list[_Slot]:
        """The slots of `queue` with repeats after `mark`: its newest ones, since a queue's
        numbers only grow."""
        tail: list[_Slot] = []
        for slot in reversed(queue):
            if slot.last_seq <= mark:
                break
            tail.append(slot)
        return tail[::-1]

    @staticmethod
    def _merged(queues: Iterable[Iterable[_Slot]]) -> Iterable[_Slot]:
        return heapq.merge(*queues, key=lambda slot: slot.first_seq)
