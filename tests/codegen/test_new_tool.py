"""`make new-tool`: what it writes passes the lint and the house style, and it never overwrites."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.catalog import load_catalog
from codegen.lint import lint
from codegen.new_tool import ToolExists, new_tool
from tests.codegen.conftest import SchemaTree


@pytest.fixture
def root(tree: SchemaTree) -> Path:
    """A repository root whose schemas/ is the valid fixture tree (dom_probe mapped by smart/dom.json)."""
    tree.tool("dom_probe")
    tree.smart("dom")
    return tree.root.parent


def test_the_schema_passes_the_lint_and_joins_both_modes(root: Path) -> None:
    written = new_tool(root, "dom_demo", "dom")
    assert [p.relative_to(root).as_posix() for p in written] == [
        "schemas/tools/dom/dom_demo.json",
        "tests/e2e/test_dom_demo.py",
    ]
    catalog = load_catalog(root / "schemas")
    assert [str(finding) for finding in lint(catalog)] == []
    assert catalog.granular["dom_demo"].modes == ("legacy", "smart")


def test_a_new_group_gets_its_folder(root: Path) -> None:
    new_tool(root, "storage_clear", "storage")
    assert lint(load_catalog(root / "schemas")) == []
    assert (root / "schemas/tools/storage/storage_clear.json").is_file()


def test_the_test_stub_meets_the_house_style(root: Path) -> None:
    _, stub = new_tool(root, "dom_demo", "dom")
    ruff = Path(sys.prefix) / "bin" / "ruff"
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        done = subprocess.run([ruff, *args, stub], cwd=Path(__file__).parents[2], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("dom_probe", "schemas/tools/dom/dom_probe.json exists already; pick another NAME"),
        ("dom", "schemas/smart/dom.json exists already; pick another NAME"),
    ],
)
def test_a_taken_name_is_refused(root: Path, name: str, message: str) -> None:
    with pytest.raises(ToolExists, match=re.escape(message)):
        new_tool(root, name, "other")


def test_an_existing_test_file_is_never_overwritten(root: Path) -> None:
    (root / "tests/e2e").mkdir(parents=True)
    (root / "tests/e2e/test_dom_demo.py").write_text("# mine\n")
    with pytest.raises(ToolExists, match=re.escape("tests/e2e/test_dom_demo.py exists already")):
        new_tool(root, "dom_demo", "dom")
    assert not (root / "schemas/tools/dom/dom_demo.json").exists()


@pytest.mark.parametrize(("name", "group", "bad"), [("DomDemo", "dom", "NAME='DomDemo'"), ("dom_demo", "", "GROUP=''")])
def test_names_must_be_lower_snake(root: Path, name: str, group: str, bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"{bad} must be lower_snake")):
        new_tool(root, name, group)
