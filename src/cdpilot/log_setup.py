"""Where the server's own log goes: warnings and errors, to stderr.

A module of its own because importing `logging` costs about 3 ms: the stdio server has its
loader thread configure it (`startup.load_server`) rather than spend that before its first
answer; the HTTP server configures it as it starts. (A warning before then would still reach
stderr, unformatted: `logging`'s last resort.)
"""

from __future__ import annotations

import logging
import sys


def configure_logging() -> None:
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
