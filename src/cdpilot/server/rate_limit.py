"""A per-tool rate limit, so a runaway agent loop cannot flood the browser.

Each tool name (as the client calls it) has a token bucket: `RateLimit.calls` tokens,
refilled at ``calls / per_s`` per second. A call takes one token; with none left it is
refused at once with an error that says when the next call is allowed. The limit is set
at start-up (``--rate-limit CALLS/SECONDS``, ``0`` turns it off).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cdpilot.call_rate import RateLimit
from cdpilot.errors import RateLimitedError


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
