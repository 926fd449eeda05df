"""The reliability suites' shared figures: how big a run is, and the report they fill.

`make test` runs every suite at ``small`` scale; `make reliability` sets
``CDPILOT_RELIABILITY_SCALE=full`` for larger counts. Either way the figures each suite
records are written to ``reliability-report.json`` (or ``CDPILOT_RELIABILITY_REPORT``)
when the session ends, so a run leaves its evidence behind.
"""

from __future__ import annotations

import fcntl
import json
import os
import platform
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCALE = os.environ.get("CDPILOT_RELIABILITY_SCALE", "small")


def scaled(small: int, full: int) -> int:
    """A count for this run: `small` in `make test`, `full` in `make reliability`."""
    return full if SCALE == "full" else small


class Report:
    """Figures by suite, written as one JSON document."""

    def __init__(self) -> None:
        self.suites: dict[str, dict[str, Any]] = {}

    def record(self, suite: str, **figures: Any) -> None:
        self.suites.setdefault(suite, {}).update(figures)

    def write(self, path: Path) -> None:
        """Write the figures; under pytest-xdist each worker ran some of the suites, so the
        workers of one run (``PYTEST_XDIST_TESTRUNUID``) add theirs to one document, in turn."""
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
        with open(path.with_name(path.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            suites = dict(self.suites)
            if run and path.exists():
                earlier = json.loads(path.read_text())
                if earlier.get("run") == run:
                    suites = {**earlier.get("suites", {}), **suites}
            document = {
                "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "run": run,
                "scale": SCALE,
                "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
                "suites": suites,
            }
            path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")


@pytest.fixture(scope="session")
def report() -> Iterator[Report]:
    collected = Report()
    yield collected
    if collected.suites:
        collected.write(Path(os.environ.get("CDPILOT_RELIABILITY_REPORT", ROOT / "reliability-report.json")))
