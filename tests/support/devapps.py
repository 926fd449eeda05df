"""Install the JavaScript dev apps of tests/fixtures/devapps into a cache outside the repository.

Each app's exact versions are in its committed package-lock.json; ``npm ci`` installs them into
``$CDPILOT_DEVAPPS_CACHE`` (default ``${XDG_CACHE_HOME:-~/.cache}/cdpilot/devapps``), in a folder
named by the app and the first 12 hex digits of the lock's SHA-256, with a stamp file written
last. An installed app is never touched again, so a second run does nothing; a changed lock gets
a folder of its own. Without node or npm, Debian's ``nodejs`` and ``npm`` are installed first
(as root, or through sudo), as ``make chromium`` does for the browser.

``python -m tests.support.devapps`` installs every app (``make devapps``); tests call `install`.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEVAPPS = Path(__file__).resolve().parents[1] / "fixtures" / "devapps"
APPS = ("vite-react", "vue", "webpack", "tsc", "node-api", "node-vitest")
STAMP = ".cdpilot-installed"


def cache_root() -> Path:
    """Where the installs live: never inside the repository."""
    if explicit := os.environ.get("CDPILOT_DEVAPPS_CACHE"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cdpilot" / "devapps"


def lock_digest(app: str) -> str:
    """The first 12 hex digits of the SHA-256 of the app's package-lock.json."""
    return hashlib.sha256((DEVAPPS / app / "package-lock.json").read_bytes()).hexdigest()[:12]


def install_dir(app: str) -> Path:
    """The app's install: package.json, package-lock.json and node_modules, once stamped."""
    return cache_root() / f"{app}-{lock_digest(app)}"


def is_installed(app: str) -> bool:
    return (install_dir(app) / STAMP).is_file()


def _run_as_root(*command: str) -> None:
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*prefix, *command], check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def ensure_node() -> None:
    """Install Debian's nodejs and npm when either command is missing; fail on a Node.js too old."""
    missing = [package for package, command in (("nodejs", "node"), ("npm", "npm")) if shutil.which(command) is None]
    if missing:
        print(f"installing Debian's {' and '.join(missing)} ...", flush=True)
        _run_as_root("apt-get", "update", "-qq")
        _run_as_root("apt-get", "install", "-y", "-qq", *missing)
    version = subprocess.run(["node", "--version"], check=True, capture_output=True, text=True).stdout.strip()
    major, minor = (int(part) for part in version.lstrip("v").split(".")[:2])
    if not ((major == 20 and minor >= 19) or (major, minor) >= (22, 12)):  # what Vite 8 runs on
        raise SystemExit(f"devapps: Vite 8 needs Node.js 20.19 or newer (or 22.12+); this node is {version}")


def install(app: str) -> Path:
    """The app's install folder, running ``npm ci`` into it first if it has no stamp yet.

    Concurrent callers wait on a lock file; the install is built in a temporary folder beside
    the final one and renamed into place, so a half-done install is never seen as done."""
    target = install_dir(app)
    if (target / STAMP).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{app}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / STAMP).is_file():
            return target
        if shutil.which("npm") is None:
            raise RuntimeError("devapps: npm is not installed; run `make devapps`")
        shutil.rmtree(target, ignore_errors=True)
        building = Path(tempfile.mkdtemp(prefix=f".{app}-", dir=target.parent))
        building.chmod(0o755)
        try:
            for name in ("package.json", "package-lock.json"):
                shutil.copy2(DEVAPPS / app / name, building / name)
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=building,
                check=True,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "npm_config_update_notifier": "false"},
            )
            (building / STAMP).write_text(f"{app} {lock_digest(app)}\n")
            building.rename(target)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    return target


def main(argv: list[str]) -> int:
    apps = argv or list(APPS)
    unknown = sorted(set(apps) - set(APPS))
    if unknown:
        print(f"devapps: no such app: {', '.join(unknown)} (apps: {', '.join(APPS)})", file=sys.stderr)
        return 2
    if all(is_installed(app) for app in apps):
        return 0
    ensure_node()
    for app in apps:
        if is_installed(app):
            continue
        started = time.monotonic()
        where = install(app)
        print(f"devapps: {app} installed in {where} ({time.monotonic() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
