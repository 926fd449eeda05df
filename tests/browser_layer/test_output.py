"""The output directory: every path a client gives stays inside it, whatever it contains."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdpilot.errors import ArgumentError
from cdpilot.output_files import _process_temp_dir, output_root, resolve_output_path, write_output

ESCAPES = [
    "../x",
    "/etc/passwd",
    "a/../../b",
    "a/../b",  # stays inside, but `..` is refused outright: nothing to gain from allowing it
    "..",
    "./../x",
    "~/x",
    "x\0.png",
    "",
    "/",
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return output_root(tmp_path / "out")


def test_the_root_is_created_and_real(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert output_root(tmp_path / "link" / "new") == tmp_path / "real" / "new"
    assert (tmp_path / "real" / "new").is_dir()


def test_without_a_configured_dir_one_temp_dir_serves_the_process() -> None:
    first = output_root(None)
    try:
        assert first.name.startswith("cdpilot-out-") and first.is_dir()
        assert output_root(None) == first
    finally:
        first.rmdir()  # empty: the test's own litter, not a user's files


def test_a_plain_path_lands_inside_with_its_parents_created(root: Path) -> None:
    written = write_output(root, "shots/today/page.png", b"png", field="path")
    assert written == root / "shots" / "today" / "page.png"
    assert written.read_bytes() == b"png"
    assert write_output(root, "./shots//page.png", b"again", field="path") == root / "shots" / "page.png"


@pytest.mark.parametrize("given", ESCAPES)
def test_paths_that_could_leave_are_refused(root: Path, given: str) -> None:
    before = sorted(root.parent.rglob("*"))
    with pytest.raises(ArgumentError) as caught:
        write_output(root, given, b"evil", field="save_body_to")
    assert caught.value.problems[0].field == "save_body_to"
    assert caught.value.problems[0].expected == "a relative path inside the output directory"
    assert sorted(root.parent.rglob("*")) == before


def test_the_refusal_names_the_field_but_not_the_value(root: Path) -> None:
    with pytest.raises(ArgumentError) as caught:
        resolve_output_path(root, "../secret-name", field="path")
    assert caught.value.message.splitlines()[0] == (
        "The path is not allowed: files are only written inside the output directory."
    )
    assert "- path: expected a relative path inside the output directory, got a path with '..'" in str(caught.value)
    assert "secret-name" not in caught.value.message


def test_symlinks_that_lead_outside_are_refused(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "dir-link").symlink_to(outside)
    (root / "file-link").symlink_to(outside / "target.txt")
    for given in ["dir-link/x.png", "dir-link/new/x.png", "file-link"]:
        with pytest.raises(ArgumentError):
            write_output(root, given, b"evil", field="path")
    assert list(outside.iterdir()) == []


def test_a_symlink_that_stays_inside_is_followed(root: Path) -> None:
    (root / "real").mkdir()
    (root / "alias").symlink_to(root / "real")
    assert write_output(root, "alias/x.png", b"ok", field="path") == root / "real" / "x.png"


def test_a_final_symlink_is_never_written_through(root: Path) -> None:
    (root / "inside.txt").write_bytes(b"keep")
    (root / "link.txt").symlink_to(root / "inside.txt")
    with pytest.raises(ArgumentError):
        write_output(root, "link.txt", b"evil", field="path")
    assert (root / "inside.txt").read_bytes() == b"keep"


def test_directories_and_files_in_the_way_are_refused(root: Path) -> None:
    (root / "taken").mkdir()
    (root / "file").write_bytes(b"")
    for given in ["taken", "file/below.png"]:
        with pytest.raises(ArgumentError):
            write_output(root, given, b"x", field="path")


def test_an_existing_file_is_replaced(root: Path) -> None:
    write_output(root, "a.txt", b"first version", field="path")
    assert write_output(root, "a.txt", b"two", field="path").read_bytes() == b"two"


def test_a_refused_path_creates_not_even_the_default_directory() -> None:
    created_before = _process_temp_dir.cache_info().misses
    with pytest.raises(ArgumentError):
        write_output(None, "../escape.png", b"evil", field="path")
    assert _process_temp_dir.cache_info().misses == created_before
