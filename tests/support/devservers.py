"""Real JavaScript dev servers and builds of the apps in tests/fixtures/devapps, on 127.0.0.1.

Every server or build runs in a fresh copy of the app's sources in a temporary folder, whose
``node_modules`` is a link to the app's install in the cache outside the repository (see
`tests.support.devapps`); Vite's deps cache goes into the copy (``cacheDir: ".vite"``) and its
config is loaded without a temporary file (``--configLoader runner``), so nothing is written into
the repository or into the shared install. A test may edit a source of the copy (``root``) to
make the dev server push a hot update.

Dev servers (`dev_server`) listen on a free port of 127.0.0.1, with a strict port and no browser;
each is started in a process group of its own and stopped by its pid at the end, failures
included. Builds (`built_site`) are served, read once into memory, by `tests.support.pages`.
Lines are found by their ``// @marker`` comments (`marker_line`), never by number.

Fixtures: a test file makes the ones it uses by name, e.g. ``vite_react_dev =
dev_server_fixture("vite-react")`` (a `DevServer`, module scope: the file gets a copy of its own
to edit) or ``webpack_build = built_site_fixture("webpack")`` (a `BuiltSite`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.support.devapps import DEVAPPS, install
from tests.support.pages import PageSpec, directory_pages, serve_pages

Scope = Literal["module", "package", "session"]
START_TIMEOUT_S = 60.0
APP_READY_MS = 30000  # an app's first render, in the browser, under the load of a whole test run
STOP_TIMEOUT_S = 10.0
_NOT_COPIED = shutil.ignore_patterns("node_modules", "dist", ".vite")
# The servers get no browser to open, no update checks, no colours in their logs.
_QUIET = {"BROWSER": "none", "NO_COLOR": "1", "FORCE_COLOR": "0", "npm_config_update_notifier": "false"}


@dataclass(frozen=True)
class DevServer:
    """A running dev server: its base URL (no trailing slash), the copy it serves, its pid."""

    app: str
    url: str
    root: Path
    pid: int
    log: Path


@dataclass(frozen=True)
class BuiltSite:
    """A production build served on 127.0.0.1: its base URL (no trailing slash), and the folder
    that is served (its files as built; editing them changes nothing that is served)."""

    app: str
    url: str
    root: Path


def source(app: str, relative: str) -> Path:
    """A committed source of an app, e.g. ``source("vite-react", "src/cart.ts")``."""
    return DEVAPPS / app / relative


def marker_line(path: Path | str, name: str) -> int:
    """The 1-based line of `path` that ends with the comment ``// @name`` (exactly that name)."""
    pattern = re.compile(r"//\s*@" + re.escape(name) + r"\s*$")
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if pattern.search(line):
            return number
    raise KeyError(f"no // @{name} in {path}")


def marker_text(path: Path | str, name: str) -> str:
    """The code on that line, without its marker comment."""
    line = Path(path).read_text().splitlines()[marker_line(path, name) - 1]
    return line[: line.rindex("//")].strip()


def save(path: Path, text: str) -> None:
    """Write a file a dev server watches as an editor saves it: whole, into a file beside it that
    is then renamed over it. Written in place, the server may read it half-written, between the
    truncation and the write, and serve that broken module until the next change."""
    partial = path.with_name(f".{path.name}.saving")
    partial.write_text(text)
    os.replace(partial, path)


def copy_app(app: str, destination: Path) -> Path:
    """A copy of the app's sources in `destination` (a new folder), with ``node_modules`` a link
    to its install (installed first if need be)."""
    modules = install(app) / "node_modules"
    shutil.copytree(DEVAPPS / app, destination, ignore=_NOT_COPIED)
    (destination / "node_modules").symlink_to(modules, target_is_directory=True)
    return destination


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _dev_command(app: str, port: int) -> list[str]:
    if app == "webpack":
        return ["node_modules/.bin/webpack", "serve", "--host", "127.0.0.1", "--port", str(port), "--no-open"]
    return ["node_modules/.bin/vite", "--configLoader", "runner", "--host", "127.0.0.1", "--port", str(port)]


def _dev_args(app: str) -> list[str]:
    return [] if app == "webpack" else ["--strictPort"]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def _exited(pid: int) -> bool:
    """Whether the process has exited (a zombie, not reaped yet, counts)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (FileNotFoundError, IndexError):
        return True


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and whatever it started: its process group, whose id is its pid. The
    leader is reaped only after the group's last signal, so that id cannot have been reused."""
    if process.returncode is not None:
        return  # reaped already (it exited while starting): nothing of it to signal
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while not _exited(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # children that outlived it, or a leader that hung
    process.wait(STOP_TIMEOUT_S)


def tail(log: Path) -> str:
    """The end of a dev server's log, for a failure's message."""
    return log.read_text(errors="replace")[-3000:] if log.exists() else ""


@contextmanager
def dev_server(app: str, workdir: Path, timeout_s: float = START_TIMEOUT_S) -> Iterator[DevServer]:
    """The app's dev server (Vite for vite-react and vue, webpack-dev-server for webpack) over a
    copy of it in ``workdir/app``, once its page answers; stopped at the end."""
    root = copy_app(app, workdir / "app")
    log = workdir / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [*_dev_command(app, port), *_dev_args(app)],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **_QUIET},
        )
    try:
        deadline = time.monotonic() + timeout_s
        while not _answers(url + "/"):
            if process.poll() is not None:
                raise RuntimeError(f"{app} dev server exited with {process.returncode}:\n{tail(log)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{app} dev server did not answer within {timeout_s} s:\n{tail(log)}")
            time.sleep(0.1)
        yield DevServer(app, url, root, process.pid, log)
    finally:
        _stop(process)


def build(app: str, workdir: Path) -> Path:
    """The folder to serve of the app built for production from a copy in ``workdir/app``: Vite
    (``app/dist``: minified, external maps with the sources' text, named ``src/...``), webpack
    ``--env production`` (``app/dist``: minified ``main.js`` and ``main.js.map``), or tsc
    (``site``: ``dist/*.js`` and ``dist/*.js.map`` without the sources' text, beside ``src/*.ts``,
    where the maps point, and ``index.html``)."""
    root = copy_app(app, workdir / "app")
    out = root / "dist"
    if app == "webpack":
        command = ["node_modules/.bin/webpack", "--env", "production"]
    elif app == "tsc":
        command = ["node_modules/.bin/tsc", "-p", "tsconfig.json"]
    else:
        command = ["node_modules/.bin/vite", "build", "--configLoader", "runner", "--logLevel", "warn"]
    done = subprocess.run(
        command, cwd=root, stdin=subprocess.DEVNULL, capture_output=True, env={**os.environ, **_QUIET}, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{app} build failed ({done.returncode}):\n{(done.stdout + done.stderr).decode()[-3000:]}")
    if app == "tsc":  # dist/ beside src/, as built, so the maps' ../src/*.ts resolve
        out = workdir / "site"
        shutil.copytree(root / "dist", out / "dist")
        shutil.copytree(root / "src", out / "src")
        shutil.copy2(root / "index.html", out / "index.html")
    return out


def _site_pages(root: Path) -> dict[str, PageSpec]:
    pages = directory_pages(root)
    for path, spec in pages.items():
        if path.endswith(".ts"):  # not video/mp2t: the original TypeScript, as text
            pages[path] = (200, "text/plain; charset=utf-8", spec[2])
        elif path.endswith(".map"):
            pages[path] = (200, "application/json", spec[2])
    return pages


@contextmanager
def built_site(app: str, workdir: Path) -> Iterator[BuiltSite]:
    """`build`'s output, served on 127.0.0.1 (``/`` is its index.html)."""
    root = build(app, workdir)
    with serve_pages(_site_pages(root)) as url:
        yield BuiltSite(app, url, root)


def dev_server_fixture(app: str, scope: Scope = "module") -> Any:
    """A pytest fixture that yields the app's `DevServer` (module scope by default: each test file
    gets a copy of its own to edit). In a test file: ``vite_react_dev = dev_server_fixture("vite-react")``."""

    def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
        with dev_server(app, tmp_path_factory.mktemp(f"{app}-dev")) as server:
            yield server

    return pytest.fixture(scope=scope)(running)


def built_site_fixture(app: str, scope: Scope = "module") -> Any:
    """A pytest fixture that yields the app's `BuiltSite`. In a test file:
    ``webpack_build = built_site_fixture("webpack")``."""

    def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
        with built_site(app, tmp_path_factory.mktemp(f"{app}-build")) as site:
            yield site

    return pytest.fixture(scope=scope)(served)
