"""The two summaries the report uses: medians and nearest-rank percentiles."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100): always a value that was measured."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def ratio(value: float, baseline: float) -> float:
    return value / baseline if baseline else math.inf
