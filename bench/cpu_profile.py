"""``python -m bench.cpu_profile OUT -m MODULE [ARGS…]``: ``python -m cProfile -o OUT -m MODULE``, timed by CPU.

``python -m cProfile`` times by wall clock. On this shared 2-core machine a preempted
server charges the wait to whatever function was running (at load 5, a reply's
``os.write`` showed 1.2 ms per call), so the profile described the neighbours more than
the server. The thread's CPU clock does not move with load. cdpilot's call path runs on
the main thread (its transport is the event loop, no worker threads), so the main
thread's clock sees all of it; `bench.profiling` checks that against the process's CPU.
"""

from __future__ import annotations

import cProfile
import runpy
import sys
import time


def main(argv: list[str]) -> None:
    out, flag, module, *args = argv
    if flag != "-m":
        raise SystemExit(__doc__)
    sys.argv = [module, *args]
    profiler = cProfile.Profile(time.thread_time_ns, 1e-9)
    profiler.enable()
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit:
        pass  # the server's normal way out; the profile is written below either way
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    main(sys.argv[1:])
