"""The tool author's loop on a throwaway copy of the repo: regenerate, check, and every failure mode."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROBE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "A throwaway tool that no handler serves.",
    "type": "object",
    "additionalProperties": False,
    "properties": {"connection_id": {"$ref": "../../common/defs.json#/$defs/connection_id"}},
    "examples": [{}],
    "x-cdpilot": {
        "group": "probe",
        "modes": ["legacy", "smart"],
        "defaults": {"connection_id": "active_connection"},
        "annotations": {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in ("schemas", "codegen", "src", "generated"):
        shutil.copytree(REPO / part, copy / part, ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    return copy


def run(repo: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(repo / p) for p in ("", "src", "generated")))
    return subprocess.run(
        [sys.executable, *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def snapshot(repo: Path) -> dict[str, bytes]:
    root = repo / "generated"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_generation_is_byte_identical_and_matches_the_committed_files(repo: Path) -> None:
    committed = snapshot(repo)
    assert run(repo, "-m", "codegen").returncode == 0
    first = snapshot(repo)
    assert run(repo, "-m", "codegen").returncode == 0
    assert snapshot(repo) == first == committed
    check = run(repo, "-m", "codegen", "--check")
    assert check.returncode == 0, check.stderr


def test_editing_a_schema_without_regenerating_fails_the_check(repo: Path) -> None:
    path = repo / "schemas/tools/navigation/navigate.json"
    schema = json.loads(path.read_text())
    schema["description"] += " Edited."
    path.write_text(json.dumps(schema))
    check = run(repo, "-m", "codegen", "--check")
    assert check.returncode == 1
    assert "generated/ is out of date with schemas/ (run `make generate`):" in check.stderr
    assert "stale: cdpilot_generated/models.py" in check.stderr
    assert "stale: cdpilot_generated/manifests.py" in check.stderr


def test_an_extra_generated_file_fails_the_check(repo: Path) -> None:
    (repo / "generated/cdpilot_generated/leftover.py").write_text("")
    check = run(repo, "-m", "codegen", "--check")
    assert check.returncode == 1
    assert "extra: cdpilot_generated/leftover.py" in check.stderr


def test_missing_extra_and_mistyped_handlers_fail_check_mypy_and_start_up(repo: Path) -> None:
    (repo / "schemas/tools/probe").mkdir()
    (repo / "schemas/tools/probe/demo_probe.json").write_text(json.dumps(PROBE_SCHEMA))
    assert run(repo, "-m", "codegen").returncode == 0
    handlers = repo / "src/cdpilot/handlers/__init__.py"
    source = handlers.read_text()
    source = source.replace('"navigate": navigation.navigate,', '"navigate": connection.chrome_launch,')
    source = source.replace("}\n", '    "bogus_tool": navigation.navigate,\n}\n')
    handlers.write_text(source)

    check = run(repo, "-m", "cdpilot.cli", "--check-handlers")
    assert check.returncode == 1
    assert check.stderr.splitlines() == [
        "handler check: demo_probe: no handler",
        "handler check: bogus_tool: handler for a tool that does not exist",
        "handler check: navigate: handler takes ChromeLaunchArgs, expected NavigateArgs",
    ]

    start = run(repo, "-m", "cdpilot.cli", "--mode", "smart")
    assert start.returncode == 1
    assert "demo_probe: no handler" in start.stderr

    mypy = run(repo, "-m", "mypy", "--cache-dir", str(repo / ".mypy_cache"), timeout=300)
    assert mypy.returncode == 1
    assert 'Missing key "demo_probe"' in mypy.stdout
    assert 'Extra key "bogus_tool"' in mypy.stdout
    assert "navigate" in mypy.stdout and "ChromeLaunchArgs" in mypy.stdout
