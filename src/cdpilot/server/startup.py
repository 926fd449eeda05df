"""A stdio server's start, before its event loop runs: the first lines answered while a thread
imports the rest, and the browser of a first page tool started as its call arrives.

Why this order: until its ``initialize`` is answered a client sends nothing else, and a
page tool's first call waits for Chromium's start-up (240 ms on a two-core machine), which
nothing can shorten but starting it sooner. So, importing no more than the standard
library (asyncio excepted, which alone costs about as much as the interpreter's start) and
the generated manifest, `serve_stdio`:

1. answers the first lines with blocking reads (`first_lines.read_first_lines`) until the
   first request that is not answered there;
2. if that request calls a page tool that will launch a browser, starts the browser now
   (`head_start.browser_ahead`);
3. starts a thread that configures the log and imports asyncio, the server
   (`cdpilot.server.app`) and the call layer (`app.load_call_layer`), with the handlers of
   the first call if it has come by then (`head_start.FirstCall`): after step 2, or sooner,
   as soon as the client falls quiet during step 1 (`first_lines.QUIET_S`), so that it fills
   the client's thinking time and never holds up the browser's spawn (the thread's imports
   would take the interpreter lock from it: the spawn came 15-20 ms later with the thread
   started first, measured);
4. runs the event loop (`app.serve`), whose wire and handshake go on from where step 1
   stopped, losing nothing.

Until the loop takes them over, SIGTERM, SIGINT and SIGHUP end the server at once, as
they do an idle one later (exit status 0), and the early browser with it.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import suppress
from typing import TYPE_CHECKING, Any, NoReturn

from cdpilot_generated.manifests import Mode

from cdpilot.context import Settings
from cdpilot.server.first_lines import EarlyAnswers, read_first_lines
from cdpilot.server.head_start import FirstCall, browser_ahead
from cdpilot.server.tool_filter import tools_list_json

if TYPE_CHECKING:
    from cdpilot.browser.session.launcher import HeadStart

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# While the loader imports, the main thread gets the interpreter lock back within 0.2 ms, not
# the default 5 ms, each time it wakes (a line read, a syscall of the browser's spawn): the spawn
# came 30-45 ms after its call was read with the default, about 20 ms with this (measured).
LOADING_SWITCH_INTERVAL_S = 0.0002
DEFAULT_SWITCH_INTERVAL_S = sys.getswitchinterval()


class Stopped(Exception):
    """A stop signal came before the event loop took the signals over."""


def serve_stdio(mode: Mode, settings: Settings, started: str) -> int:
    """Serve MCP on stdio (steps in the module's docstring); the exit status. `started` is
    written to stderr once a stop signal would end the server cleanly."""
    first_call = FirstCall(mode)
    loader = threading.Thread(target=load_server, args=(first_call,), name="cdpilot-loader")
    head_start: HeadStart | None = None
    for sig in STOP_SIGNALS:
        signal.signal(sig, _raise_stopped)
    try:
        print(started, file=sys.stderr, flush=True)
        answers = EarlyAnswers(mode, tools_list_json(mode, settings.tools))
        first = read_first_lines(0, 1, answers, on_quiet=lambda: start_loading(loader))
        if first.first_tool is not None:
            first_call.tool = first.first_tool
            head_start = browser_ahead(mode, settings, first.first_tool)
        start_loading(loader)
        import asyncio

        from cdpilot.server.app import serve

        return asyncio.run(serve(mode, settings, answers, first, loader, head_start, first_call))
    except Stopped:
        if head_start is not None:
            head_start.process.kill_now()
        return 0


def start_loading(loader: threading.Thread) -> None:
    """Start `loader` (`load_server`) unless it has been started already."""
    if loader.ident is None:
        sys.setswitchinterval(LOADING_SWITCH_INTERVAL_S)
        loader.start()


def load_server(first_call: FirstCall) -> None:
    """Import the event loop, the server and the call layer with the first call's handlers
    (run in a thread by `serve_stdio`). A module that fails to import is left for the main
    thread, which imports it again and reports why."""
    with suppress(Exception):
        from cdpilot.log_setup import configure_logging

        configure_logging()
        from cdpilot.server import app

        app.load_call_layer(first_call)
    sys.setswitchinterval(DEFAULT_SWITCH_INTERVAL_S)


def _raise_stopped(signum: int, frame: Any) -> NoReturn:
    raise Stopped(signal.Signals(signum).name)
