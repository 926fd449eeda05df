"""The input stamp: a run with nothing changed skips, anything changed renders, --check stays exact."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codegen import stamp
from codegen.__main__ import main

SNAPSHOT_SCHEMAS = Path(__file__).parent / "fixtures" / "snapshot" / "schemas"
MODELS = "cdpilot_generated/models/shapes.py"


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    schemas = tmp_path / "schemas"
    shutil.copytree(SNAPSHOT_SCHEMAS, schemas)
    return schemas, tmp_path / "generated"


def generate(paths: tuple[Path, Path], capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    schemas, out = paths
    code = main(["--schemas", str(schemas), "--out", str(out), *flags])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_a_second_run_with_nothing_changed_skips(paths: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert generate(paths, capsys).startswith("generated 9 files (9 changed)")
    assert generate(paths, capsys).startswith("generated/ is up to date: inputs unchanged since the last run")
    assert generate(paths, capsys, "--force").startswith("generated 9 files (0 changed)")


def test_an_edited_schema_renders_again(paths: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    generate(paths, capsys)
    erase = paths[0] / "tools/shapes/shape_erase.json"
    erase.write_text(erase.read_text().replace("Erase every shape", "Erase the shapes"))
    assert generate(paths, capsys).startswith("generated 9 files (2 changed)")  # models/shapes.py and manifests.py


@pytest.mark.parametrize("damage", ["edit", "delete", "extra", "stamp"])
def test_touched_outputs_render_again(
    paths: tuple[Path, Path], capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    generate(paths, capsys)
    out = paths[1]
    if damage == "edit":
        (out / MODELS).write_text("# edited by hand\n")
    elif damage == "delete":
        (out / MODELS).unlink()
    elif damage == "extra":
        (out / "cdpilot_generated/leftover.py").write_text("")
    else:
        (out / stamp.STAMP_NAME).write_text("[1]")
    assert generate(paths, capsys).startswith("generated 9 files")
    assert not (out / "cdpilot_generated/leftover.py").exists()
    assert generate(paths, capsys).startswith("generated/ is up to date: inputs unchanged")


def test_check_renders_whatever_the_stamp_says(paths: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    generate(paths, capsys)
    models = paths[1] / MODELS
    models.write_text(models.read_text() + "# drift\n")
    stamp_file = paths[1] / stamp.STAMP_NAME
    stamp_file.write_text(stamp_file.read_text().replace(stamp.input_hash(paths[0]), "forged"))
    schemas, out = paths
    assert main(["--schemas", str(schemas), "--out", str(out), "--check"]) == 1
    assert f"stale: {MODELS}" in capsys.readouterr().err


def test_the_input_hash_covers_the_generator_sources(
    paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = stamp.input_hash(paths[0])
    sources = tmp_path / "codegen"
    shutil.copytree(stamp.CODEGEN_DIR, sources, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(stamp, "CODEGEN_DIR", sources)
    assert stamp.input_hash(paths[0]) == before
    (sources / "render.py").write_text((sources / "render.py").read_text() + "\n# changed\n")
    assert stamp.input_hash(paths[0]) != before
