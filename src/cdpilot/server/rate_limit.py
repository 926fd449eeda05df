"""A per-tool rate limit, so a runaway agent loop cannot flood the browser.

Each tool name (as the client calls it) has a token bucket: `RateLimit.calls` tokens,
refilled at ``calls / per_s`` per second. A call takes one token; with none left it is
refused at once with an error that says when the next call is allowed. The limit is set
at start-up (``--rate-limit CALLS/SECONDS``, ``0`` turns it off).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cdpilot.errors import RateLimitedError


@dataclass(frozen=True)
class RateLimit:
    calls: int
    per_s: float

    @classmethod
    def parse(cls, text: str) -> RateLimit | None:
        """``"200/10"`` (200 calls per 10 s), or ``"0"`` for no limit; ValueError otherwise."""
        if text.strip() == "0":
            return None
        calls, _, seconds = text.partition("/")
        limit = cls(int(calls), float(seconds or "1"))
        if limit.calls < 1 or limit.per_s <= 0:
            raise ValueError(f"rate limit {text!r}: calls and seconds must be positive")
        return limit

    def __str__(self) -> str:
        return f"{self.calls} calls per {self.per_s:g} s"


DEFAULT_RATE_LIMIT = RateLimit(200, 10.0)


class RateLimiter:
    def __init__(self, limit: RateLimit | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._limit = limit
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # tool -> (tokens, when counted)

    def take(self, tool: str) -> None:
        """Spend one of `tool`'s tokens, or raise `RateLimitedError` when it has none."""
        limit = self._limit
        if limit is None:
            return
        now = self._clock()
        rate = limit.calls / limit.per_s
        tokens, counted = self._buckets.get(tool, (float(limit.calls), now))
        tokens = min(float(limit.calls), tokens + (now - counted) * rate)
        if tokens < 1:
            self._buckets[tool] = (tokens, now)
            raise RateLimitedError(tool, limit, (1 - tokens) / rate)
        self._buckets[tool] = (tokens - 1, now)
