"""The rate limit as a setting: how many calls of one tool per how many seconds.

A value type only, so that the settings (`context.Settings`, `config`) can hold it without
importing the server; `server/rate_limit.py` enforces it.
"""

from __future__ import annotations

from dataclasses import dataclass


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
