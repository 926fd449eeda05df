"""Where cdpilot's per-call CPU goes: cProfile of the server over N trivial calls.

The server runs under cProfile (`bench.cpu_profile`: timed by CPU, not wall clock, so the
machine's load does not leak into it) twice: once for the handshake and a warm-up, once for
the same plus `CALLS` more calls. Subtracting the first profile from the second, function
by function, leaves the cost of those calls alone, free of start-up and imports. Own time
is then grouped by where the code lives (cdpilot, the mcp SDK, pydantic, anyio, asyncio, …):
the figure that says what bounds a call. The profiler slows every function call down, so
the profiled µs exceed the unprofiled ones: read them as shares. `coverage` compares the
profile with the CPU the kernel charged the whole process over the same calls.
"""

from __future__ import annotations

import pstats
import sysconfig
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.overhead import CDPILOT_LEGACY, WARMUP_CALLS
from bench.pipe import PipeServer

CALLS = 1500
TOP = 12
STDLIB = sysconfig.get_paths()["stdlib"]
Key = tuple[str, int, str]


def _profile(out: Path, calls: int) -> tuple[dict[Key, tuple[int, float]], int]:
    """(primitive calls, own seconds) per function, and the process CPU ns over the calls."""
    template = CDPILOT_LEGACY.call_template()
    with PipeServer(("-m", "bench.cpu_profile", str(out), *CDPILOT_LEGACY.argv)) as server:
        server.initialize()
        cpu_before = server.cpu_ns()
        for _ in range(calls):
            server.call_ok(template)
        cpu_ns = server.cpu_ns() - cpu_before
    raw: dict[Key, tuple[int, int, float, float, Any]] = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    return {key: (nc, tt) for key, (_cc, nc, tt, _ct, _callers) in raw.items()}, cpu_ns


def where(key: Key) -> str:
    """The package or stdlib module a function belongs to; C functions by their type's module."""
    filename, _line, name = key
    if filename == "~":
        return "pydantic_core (C)" if "pydantic_core" in name else "C builtins (json, os, select, …)"
    path = Path(filename)
    if "site-packages" in path.parts:
        return path.parts[path.parts.index("site-packages") + 1].removesuffix(".py")
    if "cdpilot" in path.parts or "cdpilot_generated" in path.parts:
        return "cdpilot"
    if filename.startswith(STDLIB):
        return "stdlib " + Path(filename).relative_to(STDLIB).parts[0].removesuffix(".py")
    return filename


def label(key: Key) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    path = Path(filename)
    parts = path.parts[path.parts.index("site-packages") + 1 :] if "site-packages" in path.parts else path.parts[-2:]
    return f"{'/'.join(parts)}:{line}({name})"


def measure(calls: int = CALLS) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cdpilot-bench-prof-") as tmp:
        before, cpu_before = _profile(Path(tmp) / "warmup.prof", WARMUP_CALLS)
        after, cpu_after = _profile(Path(tmp) / "measured.prof", WARMUP_CALLS + calls)
    own_us: dict[Key, float] = {}
    count: dict[Key, int] = {}
    for key, (nc, tt) in after.items():
        nc_before, tt_before = before.get(key, (0, 0.0))
        if nc > nc_before:
            own_us[key] = max(0.0, (tt - tt_before) * 1e6 / calls)
            count[key] = nc - nc_before
    groups: dict[str, float] = defaultdict(float)
    for key, us in own_us.items():
        groups[where(key)] += us
    total = sum(own_us.values())
    top = sorted(own_us, key=own_us.__getitem__, reverse=True)[:TOP]
    return {
        "calls": calls,
        "profiled_us_per_call": total,
        "coverage": total / ((cpu_after - cpu_before) / 1000 / calls),
        "by_package": {
            name: {"us_per_call": us, "share": us / total}
            for name, us in sorted(groups.items(), key=lambda item: item[1], reverse=True)
        },
        "top_functions": [
            {"function": label(key), "calls_per_call": count[key] / calls, "own_us_per_call": own_us[key]}
            for key in top
        ],
    }
