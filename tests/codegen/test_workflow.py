"""The tool author's loop on a throwaway copy of the repo: regenerate, check, and every failure mode.

Make targets run with this test run's virtualenv (``-o`` keeps make from reinstalling it
from the copy), and ``PYTHONPATH`` puts the copy's packages before the installed ones.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.lint import SMART_PAYLOAD_BUDGET
from codegen.stamp import STAMP_NAME

REPO = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)

PROBE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "A throwaway tool that no handler serves.",
    "type": "object",
    "additionalProperties": False,
    "properties": {"connection_id": {"$ref": "../../common/defs.json#/$defs/connection_id"}},
    "examples": [{}],
    "x-cdpilot": {
        "group": "probe",
        "modes": ["legacy"],
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
    for part in ("schemas", "codegen", "src", "generated", "tests", "bench"):
        shutil.copytree(REPO / part, copy / part, ignore=ignore)
    for name in ("pyproject.toml", "Makefile"):
        shutil.copy(REPO / name, copy / name)
    return copy


def run(repo: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return command(repo, [sys.executable, *args], timeout)


def make(repo: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return command(repo, ["make", "--no-print-directory", "-o", f"{VENV}/.installed", f"VENV={VENV}", *args], timeout)


def command(repo: Path, argv: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(repo / p) for p in ("", "src", "generated")))
    return subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def snapshot(repo: Path) -> dict[str, bytes]:
    """The generated files; not codegen's stamp, a git-ignored cache a fresh clone does not have."""
    root = repo / "generated"
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != STAMP_NAME
    }


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
    assert "stale: cdpilot_generated/models/navigation.py" in check.stderr
    assert "stale: cdpilot_generated/manifests.py" in check.stderr


def test_an_extra_generated_file_fails_the_check(repo: Path) -> None:
    (repo / "generated/cdpilot_generated/leftover.py").write_text("")
    check = run(repo, "-m", "codegen", "--check")
    assert check.returncode == 1
    assert "extra: cdpilot_generated/leftover.py" in check.stderr


def add_probe(repo: Path) -> None:
    """demo_probe as a new action of the smart target tool: a tool of its own would not fit the
    smart tools/list budget."""
    (repo / "schemas/tools/probe").mkdir()
    (repo / "schemas/tools/probe/demo_probe.json").write_text(json.dumps(PROBE_SCHEMA))
    target = repo / "schemas/smart/target.json"
    schema = json.loads(target.read_text())
    schema["x-cdpilot"]["actions"]["probe"] = "demo_probe"
    target.write_text(json.dumps(schema))


def test_missing_extra_and_mistyped_handlers_fail_check_mypy_and_start_up(repo: Path) -> None:
    add_probe(repo)
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
    replies, status, stderr = session_with_a_broken_table(repo)
    assert [reply["id"] for reply in replies if "result" in reply] == [1, 2]  # the handshake, from the manifest
    assert status == 1  # then it stopped by itself, with stdin still open and the call not served
    assert "navigate: handler takes ChromeLaunchArgs, expected NavigateArgs" in stderr

    mypy = run(repo, "-m", "mypy", "--cache-dir", str(repo / ".mypy_cache"), timeout=300)
    assert mypy.returncode == 1
    assert 'Missing key "demo_probe"' in mypy.stdout
    assert 'Extra key "bogus_tool"' in mypy.stdout
    assert "navigate" in mypy.stdout and "ChromeLaunchArgs" in mypy.stdout


def session_with_a_broken_table(repo: Path) -> tuple[list[dict[str, object]], int, str]:
    """Handshake, tools/list and one call, with stdin kept open: every reply, the exit status, stderr."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "chrome", "arguments": {}}},
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "cdpilot.cli", "--mode", "smart"],
        cwd=repo,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(str(repo / p) for p in ("", "src", "generated"))),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as server:
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        try:
            server.stdin.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
            server.stdin.flush()
            replies = [json.loads(line) for line in server.stdout]  # until the server closes stdout
            return replies, server.wait(timeout=60), server.stderr.read().decode()
        finally:
            server.kill()


HANDSHAKE = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "workflow", "version": "0"}}

DEMO_HANDLER = """

async def demo_probe(args: DemoProbeArgs, ctx: ToolContext) -> ToolResult:
    conn = ctx.connections.get(args.connection_id)
    return ToolResult(f"demo_probe sees {conn.target_url or 'a blank page'}.")
"""


def join_interact(repo: Path, name: str) -> None:
    """Make tool `name` legacy-only and an action of smart mode's `interact`, as CONTRIBUTING says."""
    schema_path = repo / "schemas/tools/dom" / f"{name}.json"
    schema = json.loads(schema_path.read_text())
    schema["x-cdpilot"]["modes"] = ["legacy"]
    schema_path.write_text(json.dumps(schema, indent=2) + "\n")
    smart_path = repo / "schemas/smart/interact.json"
    smart = json.loads(smart_path.read_text())
    smart["x-cdpilot"]["actions"][name] = name
    smart_path.write_text(json.dumps(smart, indent=2, ensure_ascii=False) + "\n")


def tree(repo: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_new_tool_generate_check_then_a_handler_is_the_whole_loop(repo: Path) -> None:
    before = tree(repo)
    created = make(repo, "new-tool", "NAME=demo_probe", "GROUP=dom")
    assert created.returncode == 0, created.stderr
    assert "wrote schemas/tools/dom/demo_probe.json\nwrote tests/e2e/test_demo_probe.py\n" in created.stdout
    full = make(repo, "generate")  # smart mode's tools/list is full: a new tool joins a smart tool's actions
    assert full.returncode != 0 and f"characters; the budget is {SMART_PAYLOAD_BUDGET}" in full.stderr, full.stderr
    join_interact(repo, "demo_probe")
    generated = make(repo, "generate")
    assert generated.returncode == 0, generated.stderr
    assert "'demo_probe': TOOLS['demo_probe']" in (repo / "generated/cdpilot_generated/catalog.py").read_text()

    unserved = make(repo, "check-generated")
    assert unserved.returncode != 0
    assert "handler check: demo_probe: no handler" in unserved.stderr
    stub = run(repo, "-m", "pytest", "-q", "tests/e2e/test_demo_probe.py", timeout=240)
    assert stub.returncode == 1, stub.stdout
    assert "demo_probe: no handler" in stub.stdout

    handlers = repo / "src/cdpilot/handlers/dom.py"
    source = handlers.read_text().replace(
        "from cdpilot_generated.models import ", "from cdpilot_generated.models import DemoProbeArgs, "
    )
    handlers.write_text(source + DEMO_HANDLER)
    table = repo / "src/cdpilot/handlers/__init__.py"
    table.write_text(table.read_text().replace("}\n", '    "demo_probe": dom.demo_probe,\n}\n'))

    served = make(repo, "check-generated")
    assert served.returncode == 0, served.stderr
    stub = run(repo, "-m", "pytest", "-q", "tests/e2e/test_demo_probe.py", timeout=240)
    assert stub.returncode == 0, stub.stdout
    assert "2 passed" in stub.stdout
    after = tree(repo)
    changed = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
    assert [p for p in changed if not p.startswith("generated/")] == [
        "schemas/smart/interact.json",
        "schemas/tools/dom/demo_probe.json",
        "src/cdpilot/handlers/__init__.py",
        "src/cdpilot/handlers/dom.py",
        "tests/e2e/test_demo_probe.py",
    ]
