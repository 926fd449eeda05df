"""The Node.js apps of tests/fixtures/devapps, for debugging Node.js processes rather than pages.

``node-api`` is a TypeScript HTTP server (and a worker_threads script) compiled by tsc to CommonJS
in ``dist/``, with maps that hold no sources' text and point at ``../src/*.ts``: a debugger must
read the TypeScript from disk to set breakpoints by its lines. ``node-vitest`` is a vitest project
whose tests run in Node.js processes vitest starts itself.

As for the browser apps (`tests.support.devservers`), a test works in a copy of the app's sources
in a temporary folder whose ``node_modules`` links to the shared install (`tests.support.devapps`),
so whatever the app or its tools write lands in the copy. Lines are found by their ``// @marker``
comments with `marker_line` (re-exported here), never by number.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.support.devservers import copy_app, marker_line, marker_text, source

__all__ = [
    "LISTENING",
    "NODE_API",
    "NODE_VITEST",
    "PRICES_TS",
    "QUIET",
    "SERVER_JS",
    "SERVER_TS",
    "VITEST_ARGS",
    "VITEST_CART_TS",
    "VITEST_TEST_TS",
    "WORKERS_JS",
    "WORKERS_TS",
    "built_node_app",
    "copy_node_app",
    "marker_line",
    "marker_text",
    "source",
]

NODE_API = "node-api"
NODE_VITEST = "node-vitest"

# node-api, relative to the copy: the sources (where the markers are) and what tsc makes of them.
PRICES_TS = "src/prices.ts"
SERVER_TS = "src/server.ts"
WORKERS_TS = "src/workers.ts"
SERVER_JS = "dist/server.js"  # `PORT=0 node dist/server.js` prints one LISTENING line, then serves
WORKERS_JS = "dist/workers.js"  # prints `workers done 63` and exits 0

# The one line the server prints once it accepts connections; group 1 is its base URL.
LISTENING = re.compile(r"^listening on (http://127\.0\.0\.1:\d+)$", re.MULTILINE)

# node-vitest, relative to the copy: `node *VITEST_ARGS` runs both tests of test/cart.test.ts once.
# The config is loaded by Vite's runner, which writes no temporary file into the shared node_modules.
VITEST_CART_TS = "src/cart.ts"
VITEST_TEST_TS = "test/cart.test.ts"
VITEST_ARGS = ("node_modules/vitest/vitest.mjs", "run", "--configLoader", "runner", VITEST_TEST_TS)

# For the apps' processes: no colours in their output (tests read it), no npm update check.
QUIET = {"NO_COLOR": "1", "FORCE_COLOR": "0", "npm_config_update_notifier": "false"}


def copy_node_app(app: str, workdir: Path) -> Path:
    """A copy of the app's sources in ``workdir/app`` (which must not exist yet), ``node_modules``
    linked to its install (installed first if need be); nothing built yet."""
    return copy_app(app, workdir / "app")


def built_node_app(app: str, workdir: Path) -> Path:
    """`copy_node_app`, then for node-api ``tsc -p tsconfig.json`` in the copy (``dist/*.js`` and
    ``dist/*.js.map`` beside ``src/``, where the maps point); node-vitest needs no build, vitest
    compiles it in memory. Raises with tsc's output when the build fails."""
    root = copy_node_app(app, workdir)
    if app == NODE_API:
        done = subprocess.run(
            ["node_modules/.bin/tsc", "-p", "tsconfig.json"],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**os.environ, **QUIET},
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{app}: tsc failed ({done.returncode}):\n{(done.stdout + done.stderr)[-3000:]}")
    return root
