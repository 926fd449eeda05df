"""cdpilot as users install it: a wheel built from a clean clone of HEAD, installed into a fresh
virtual environment and run from a directory that is not the checkout. No browser is started.

Nothing is fetched: the wheel is built with the dev environment's build backend (the one
pyproject.toml pins), and the fresh environment reaches the dev environment's installed
dependencies through a .pth file. That line only appends their directory to the path (an
editable install's finder there is never run), so cdpilot and cdpilot_generated can come from
the wheel alone, which the first test checks; the others would fail if the wheel missed a file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.e2e.harness import text_of

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_TREES = ("src", "generated")  # the import roots of cdpilot and cdpilot_generated


@dataclass(frozen=True)
class Installed:
    """The wheel, the clone it was built from, and the fresh environment holding it."""

    wheel: Path
    clone: Path
    venv: Path
    site_packages: Path
    outside: Path  # the working directory of every run: neither the checkout nor the clone
    no_browser_path: Path  # an empty directory, the only PATH the server gets

    @property
    def cdpilot(self) -> Path:
        return self.venv / "bin" / "cdpilot"

    def run(self, *command: str | Path) -> subprocess.CompletedProcess[str]:
        """A command of the fresh environment, run outside the checkout, without the test's PYTHONPATH."""
        env = {"PATH": str(self.no_browser_path), "HOME": str(self.outside)}
        return subprocess.run(
            [str(part) for part in command],
            cwd=self.outside,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
            check=False,
        )

    def python(self, code: str) -> str:
        done = self.run(self.venv / "bin" / "python", "-c", code)
        assert done.returncode == 0, done.stderr
        return done.stdout


def checked(*command: str | Path, cwd: Path | None = None) -> None:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{command}: {done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("packaging")
    clone, dist, env_dir, outside, no_browser = (work / name for name in ("clone", "dist", "venv", "outside", "bin"))
    outside.mkdir()
    no_browser.mkdir()
    checked("git", "clone", "--quiet", "--no-hardlinks", ROOT, clone)
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    checked(*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", dist, clone)
    (wheel,) = dist.glob("cdpilot-*.whl")
    venv.create(env_dir, with_pip=False)
    checked(*pip, "--python", env_dir / "bin" / "python", "install", "--quiet", "--no-deps", "--no-index", wheel)
    site_packages = Path(next((env_dir / "lib").glob("python3.*/site-packages")))
    (site_packages / "dev-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return Installed(wheel, clone, env_dir, site_packages, outside, no_browser)


def test_cdpilot_and_its_generated_package_are_imported_from_the_wheel(installed: Installed) -> None:
    printed = installed.python("import cdpilot, cdpilot_generated; print(cdpilot.__file__, cdpilot_generated.__file__)")
    assert printed.split() == [
        str(installed.site_packages / "cdpilot" / "__init__.py"),
        str(installed.site_packages / "cdpilot_generated" / "__init__.py"),
    ]


def test_the_wheel_holds_every_file_of_both_packages(installed: Installed) -> None:
    """Every tracked file under src/ and generated/ (page scripts, py.typed, modules), and no other."""
    tracked = subprocess.run(
        ["git", "ls-files", *PACKAGE_TREES], cwd=installed.clone, capture_output=True, text=True, check=True
    ).stdout.split()
    expected = {path.split("/", 1)[1] for path in tracked}
    with zipfile.ZipFile(installed.wheel) as wheel:
        packaged = {name for name in wheel.namelist() if ".dist-info/" not in name}
    assert packaged == expected
    assert any(name.endswith(".js") for name in packaged)


def test_cdpilot_help_runs_from_another_directory(installed: Installed) -> None:
    done = installed.run(installed.cdpilot, "--help")
    assert done.returncode == 0, done.stderr
    assert "--executable-path" in done.stdout


@pytest.mark.parametrize("mode", ["smart", "legacy"])
async def test_the_installed_server_lists_its_tools_and_says_how_to_get_a_browser(
    installed: Installed, mode: str
) -> None:
    """A real MCP session over stdio with the installed command. Its PATH has no browser, so the
    first page tool's answer is the one a new user gets before installing Chromium."""
    catalog = json.loads(
        installed.python(
            "import json; from cdpilot_generated.manifests import TOOL_JSON; "
            "print(json.dumps({mode: sorted(tools) for mode, tools in TOOL_JSON.items()}))"
        )
    )
    env = {"PATH": str(installed.no_browser_path), "HOME": str(installed.outside), "CDPILOT_MODE": mode}
    params = StdioServerParameters(command=str(installed.cdpilot), env=env, cwd=installed.outside)
    async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
        listed = await client.list_tools()
        assert sorted(tool.name for tool in listed.tools) == catalog[mode]
        result = await client.call_tool("navigate", {"url": "http://127.0.0.1:9/"})
    answer = text_of(result)
    assert result.is_error and result.meta is not None and result.meta["cdpilot/errorType"] == "CONNECTION", answer
    assert answer.startswith("No Chrome or Chromium found"), answer
    assert "`apt-get install chromium`" in answer and "`--executable-path PATH` flag" in answer, answer
