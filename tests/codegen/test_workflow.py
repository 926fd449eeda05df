"""The tool author's loop on a throwaway copy of the repo: regenerate, check, and every failure mode.

Make targets run with this test run's virtualenv (``-o`` keeps make from reinstalling it
from the copy), and ``PYTHONPATH`` puts the copy's packages before the installed ones.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    """demo_probe, a tool of its own in both modes, as `make new-tool` starts one."""
    (repo / "schemas/tools/probe").mkdir()
    (repo / "schemas/tools/probe/demo_probe.json").write_text(json.dumps(PROBE_SCHEMA))


def test_missing_extra_and_mistyped_handlers_fail_check_mypy_and_start_up(repo: Path) -> None:
    add_probe(repo)
    assert run(repo, "-m", "codegen").returncode == 0
    handlers = repo / "src/cdpilot/handlers/table.py"
    source = handlers.read_text()
    source = source.replace('"navigate": navigation.navigate,', '"navigate": connection.chrome_launch,')
    source = source.replace("}\n", '    "bogus_tool": navigation.navigate,\n}\n')
    handlers.write_text(source)
    module = repo / "src/cdpilot/handlers/navigation.py"  # where the stdio server finds it
    module.write_text(
        module.read_text().replace("async def navigate(args: NavigateArgs,", "async def navigate(args: ReloadArgs,")
    )

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
    replies, status, stderr = session_with_a_broken_table(repo, "navigate")
    assert [reply["id"] for reply in replies if "result" in reply] == [1, 2]  # the handshake, from the manifest
    assert status == 1  # then it stopped by itself, with stdin still open and the call not served
    assert "navigate: handler takes ReloadArgs, expected NavigateArgs" in stderr
    replies, status, stderr = session_with_a_broken_table(repo, "chrome")  # a call to groups that are sound
    assert [reply["id"] for reply in replies if "result" in reply] == [1, 2, 3]
    assert status == 1  # served; then the other groups loaded, and it stopped
    assert "demo_probe: no handler" in stderr

    mypy = run(repo, "-m", "mypy", "--cache-dir", str(repo / ".mypy_cache"), timeout=300)
    assert mypy.returncode == 1
    assert 'Missing key "demo_probe"' in mypy.stdout
    assert 'Extra key "bogus_tool"' in mypy.stdout
    assert "navigate" in mypy.stdout and "ChromeLaunchArgs" in mypy.stdout


def session_with_a_broken_table(repo: Path, tool: str) -> tuple[list[dict[str, object]], int, str]:
    """Handshake, tools/list and one call of `tool`, with stdin kept open: every reply, the exit
    status, stderr."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": tool, "arguments": {}}},
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

GUIDE = REPO / "CONTRIBUTING.md"
HANDLER_TABLE = "src/cdpilot/handlers/table.py"
_IMPORT = re.compile(r"^(from \S+ )?import ")
_TYPING_BLOCK = "if TYPE_CHECKING:"


def worked_example() -> list[tuple[str, str]]:
    """The fenced blocks of CONTRIBUTING.md's worked example, in order: (language, text)."""
    guide = GUIDE.read_text(encoding="utf-8")
    section = guide.split("### Worked example: count_elements\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```(\w+)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)


def shell_steps(block: str) -> list[tuple[list[str], list[str]]]:
    """Each ``$ make ...`` of a shell block with the output lines the guide shows for it."""
    steps: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].split(), []))
        else:
            steps[-1][1].append(line)
    return steps


def shown(expected: str, output: str) -> bool:
    """Whether a line the guide shows is in the output; the guide writes … for what varies."""
    pattern = ".*".join(re.escape(part) for part in expected.split("…"))
    return re.search(f"^{pattern}$", output, re.MULTILINE) is not None


def run_shell_block(repo: Path, block: str) -> None:
    for argv, lines in shell_steps(block):
        assert argv[0] == "make", argv
        done = make(repo, *argv[1:])
        output = done.stdout + done.stderr
        fails = any(line.startswith("make: ***") for line in lines)
        assert (done.returncode != 0) == fails, output
        for line in lines:
            if not line.startswith("make: ***"):  # make names its own Makefile line
                assert shown(line, output), f"{' '.join(argv)} did not print {line!r}:\n{output}"


def add_python_block(repo: Path, block: str) -> Path:
    """A block goes in the file its first line names: imports with the module's imports (those
    under ``if TYPE_CHECKING:`` with the module's own), the rest at the end. A block that names
    no file is the handler's entry in HANDLERS."""
    first, _, rest = block.partition("\n")
    if not first.startswith("# "):
        table = repo / HANDLER_TABLE
        source = table.read_text()
        assert source.count("\n}\n") == 1, "HANDLERS is the one dict literal of its module"
        table.write_text(source.replace("\n}\n", "\n" + block + "}\n"))
        return table
    path = repo / first[2:].split(":")[0]
    lines = [line for line in rest.splitlines() if not line.startswith(_TYPING_BLOCK)]
    imports = [line for line in lines if _IMPORT.match(line)]
    typing_imports = [line for line in lines if _IMPORT.match(line.removeprefix("    ")) and line not in imports]
    body = "\n".join(line for line in lines if not _IMPORT.match(line.removeprefix("    "))).strip("\n")
    source = path.read_text()
    head = "from __future__ import annotations\n"
    assert head in source, path
    source = source.replace(head, head + "".join(f"{line}\n" for line in imports), 1)
    if typing_imports:  # with the module's own imports for annotations only
        assert f"\n{_TYPING_BLOCK}\n" in source, path
        added = "".join(f"{line}\n" for line in typing_imports)
        source = source.replace(f"\n{_TYPING_BLOCK}\n", f"\n{_TYPING_BLOCK}\n{added}", 1)
        imports += typing_imports
    path.write_text(source.rstrip("\n") + "\n\n\n" + body + "\n")
    if imports:  # as the guide says: ruff merges them into the module's own import lines
        ruff = command(repo, [str(VENV / "bin" / "ruff"), "check", "--fix", "--no-cache", str(path)], 60)
        assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    return path


def follow_the_worked_example(repo: Path) -> list[Path]:
    """CONTRIBUTING.md's worked example, block by block as written; returns the files it edited."""
    blocks = worked_example()
    assert [language for language, _ in blocks] == ["sh", "json", "sh", *["python"] * 4, "sh", "python"]
    (_, created), (_, schema), (_, unserved), *code, (_, served), (_, test) = blocks
    run_shell_block(repo, created)
    (repo / "schemas/tools/dom/count_elements.json").write_text(schema)
    run_shell_block(repo, unserved)
    edited = [add_python_block(repo, text) for _, text in code]
    run_shell_block(repo, served)
    edited.append(add_python_block(repo, test))
    return edited


def test_the_worked_example_of_contributing_works_as_written(repo: Path) -> None:
    before = tree(repo)
    edited = follow_the_worked_example(repo)

    smart = (repo / "generated/cdpilot_generated/manifests.py").read_text()
    assert '    \'count_elements\': \'{"name":"count_elements"' in smart  # a smart tool of its own, within budget
    style = [str(path) for path in edited]
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        done = command(repo, [str(VENV / "bin" / "ruff"), *args, *style], 60)
        assert done.returncode == 0, done.stdout + done.stderr
    mypy = run(repo, "-m", "mypy", "--cache-dir", str(repo / ".mypy_cache"), timeout=300)
    assert mypy.returncode == 0, mypy.stdout

    after = tree(repo)
    changed = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
    assert [p for p in changed if not p.startswith(("generated/", ".mypy_cache/"))] == [
        "schemas/tools/dom/count_elements.json",
        "src/cdpilot/answers/element_answers.py",
        "src/cdpilot/browser/dom/query.py",
        "src/cdpilot/handlers/dom.py",
        "src/cdpilot/handlers/table.py",
        "tests/e2e/test_count_elements.py",
    ]


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_the_worked_example_passes_its_tests_in_both_modes(repo: Path) -> None:
    follow_the_worked_example(repo)
    done = run(repo, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/e2e/test_count_elements.py", timeout=300)
    assert done.returncode == 0, done.stdout
    assert "4 passed" in done.stdout  # the stub's example and the guide's test, each in both modes


def tree(repo: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }
