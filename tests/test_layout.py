"""The layout keeps its promises: one module per name, pure answer renderers, JavaScript in
JavaScript files. These are the rules `docs/architecture.md` describes; here they are checked."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "cdpilot"
ANSWERS = sorted(path.stem for path in (SOURCE / "answers").glob("*.py") if path.stem != "__init__")
JS_MARKS = ("=>", "function", "document.", "const ", "querySelector")


def test_no_two_modules_share_a_base_name() -> None:
    seen: defaultdict[str, list[str]] = defaultdict(list)
    for tree in (SOURCE, ROOT / "codegen"):
        for path in tree.rglob("*.py"):
            if path.stem not in ("__init__", "__main__"):
                seen[path.stem].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


def test_there_are_answer_renderers() -> None:
    assert len(ANSWERS) >= 5, ANSWERS


@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_renderer_does_no_io(name: str) -> None:
    """No coroutine, and nothing of the protocol client loaded, even indirectly: a renderer
    turns facts into text and can be tested without a browser."""
    source = (SOURCE / "answers" / f"{name}.py").read_text()
    nodes = list(ast.walk(ast.parse(source)))
    assert not [n for n in nodes if isinstance(n, ast.AsyncFunctionDef | ast.Await)], f"{name} is async"
    probe = (
        f"import sys, cdpilot.answers.{name}; "
        "loaded = sorted(m for m in sys.modules if m.startswith('cdpilot.cdp')); print(loaded); sys.exit(bool(loaded))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, f"cdpilot.answers.{name} loads {run.stdout.strip()}{run.stderr[-500:]}"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def test_page_javascript_lives_in_js_files() -> None:
    """A string constant of more than one line that reads like JavaScript belongs in browser/js/."""
    offenders = []
    for path in SOURCE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value.strip()
                if "\n" in text and any(mark in text for mark in JS_MARKS):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
