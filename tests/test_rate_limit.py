"""The per-tool token bucket, with a clock the test moves."""

from __future__ import annotations

import pytest

from cdpilot.call_rate import RateLimit
from cdpilot.errors import RateLimitedError
from cdpilot.server.rate_limit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_up_to_the_limit_passes_then_one_more_is_refused_with_when_to_retry() -> None:
    clock = Clock()
    limiter = RateLimiter(RateLimit(3, 6.0), clock=clock)
    for _ in range(3):
        limiter.take("navigate")
    with pytest.raises(RateLimitedError) as refused:
        limiter.take("navigate")
    assert refused.value.message == "navigate is over its rate limit (3 calls per 6 s); the call was not run."
    assert refused.value.suggestion.startswith("Wait 2.0 s before calling navigate again")
    limiter.take("query_elements")  # every tool has its own bucket
    clock.now += 2.0  # one token refilled (3 per 6 s)
    limiter.take("navigate")
    with pytest.raises(RateLimitedError):
        limiter.take("navigate")


def test_no_limit_never_refuses() -> None:
    limiter = RateLimiter(None, clock=Clock())
    for _ in range(10_000):
        limiter.take("evaluate_js")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("200/10", RateLimit(200, 10.0)), ("5", RateLimit(5, 1.0)), ("0", None), ("7/0.5", RateLimit(7, 0.5))],
)
def test_parse(text: str, expected: RateLimit | None) -> None:
    assert RateLimit.parse(text) == expected


@pytest.mark.parametrize("text", ["-1/10", "3/0", "x", "3/y", ""])
def test_parse_refuses_nonsense(text: str) -> None:
    with pytest.raises(ValueError, match=r"invalid literal|could not convert|must be positive"):
        RateLimit.parse(text)
