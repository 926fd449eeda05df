"""Codegen output over a small fixture tree, compared byte for byte with committed expected files.

The fixture (``fixtures/snapshot/schemas``) holds what the generator must carry through:
``$ref`` (a shared string, an object inside an array), enums, defaults, bounds (inclusive and
exclusive), arrays of scalars and of objects, a nested object, a union type, a default
resolver, a tool in both modes, two groups (a module of models each), an actions-form
smart tool with a default action and a described discriminator, and short forms of
descriptions for smart mode (``x-cdpilot.short``, on a shared ``$ref`` and on a property).

The expected files are ``fixtures/snapshot/expected/<generated path>.snap`` (the suffix keeps
linters and the duplicate finder off generated code). After a deliberate change to what
codegen writes, refresh them and review the diff:

    CDPILOT_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest -q tests/codegen/test_snapshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codegen.build import build

FIXTURE = Path(__file__).parent / "fixtures" / "snapshot"
EXPECTED = FIXTURE / "expected"
SUFFIX = ".snap"


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    result = build(FIXTURE / "schemas")
    assert [str(finding) for finding in result.findings] == []
    files = result.files
    if os.environ.get("CDPILOT_UPDATE_SNAPSHOTS"):
        _refresh(files)
    return files


def _refresh(files: dict[str, str]) -> None:
    for stale in EXPECTED.rglob(f"*{SUFFIX}"):
        stale.unlink()
    for rel, text in files.items():
        path = EXPECTED / (rel + SUFFIX)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def expected_files() -> list[str]:
    return sorted(str(p.relative_to(EXPECTED)).removesuffix(SUFFIX) for p in EXPECTED.rglob(f"*{SUFFIX}"))


def test_the_same_files_are_generated(rendered: dict[str, str]) -> None:
    assert sorted(rendered) == expected_files()


@pytest.mark.parametrize("rel", expected_files())
def test_each_file_matches_its_snapshot(rendered: dict[str, str], rel: str) -> None:
    assert rendered[rel] == (EXPECTED / (rel + SUFFIX)).read_text(encoding="utf-8")
