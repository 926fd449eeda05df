"""Where cdpilot writes files (screenshots, response bodies), and the paths it accepts there.

A client names files relative to one output directory (``--output-dir``, else a temp
directory made on first use). The path comes from a model or a user, so it is untrusted:
absolute paths, ``..`` components, NUL bytes and symlinks that lead outside are refused,
and parent directories are created one by one, only after checking each is still inside,
so nothing is ever written elsewhere.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from cdpilot.errors import ArgumentError, FieldProblem

EXPECTED = "a relative path inside the output directory"
MAX_NAME_BYTES = 255  # NAME_MAX of Linux file systems
MAX_PATH_BYTES = 1024  # far below PATH_MAX (4096) once joined to the output directory


@functools.cache
def _process_temp_dir() -> Path:
    """One temp directory per server process; kept after exit, the files are the user's."""
    return Path(tempfile.mkdtemp(prefix="cdpilot-out-"))


def output_root(configured: Path | None) -> Path:
    """The output directory, as a real path (created if missing)."""
    root = configured if configured is not None else _process_temp_dir()
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def _refuse(field: str, given: str) -> ArgumentError:
    return ArgumentError(
        "The path is not allowed: files are only written inside the output directory.",
        problems=[FieldProblem(field, EXPECTED, given)],
        suggestion="Give a plain relative path such as 'shots/page.png'.",
    )


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def resolve_output_path(root: Path, user_path: str, *, field: str) -> Path:
    """The file `user_path` names under `root`, with its parent directories created.

    Raises `ArgumentError` naming `field` for anything that is or could lead outside `root`.
    """
    return _place(root, _checked_relative(user_path, field), field)


def check_output_path(user_path: str, *, field: str) -> None:
    """Refuse a path by its shape alone, before any work (a browser start, a capture) is done for it."""
    _checked_relative(user_path, field)


def _checked_relative(user_path: str, field: str) -> PurePosixPath:
    """The path's shape alone: refused before anything (even the output directory) is created."""
    if "\0" in user_path:
        raise _refuse(field, "a path with a NUL byte")
    relative = PurePosixPath(user_path)
    if relative.is_absolute() or user_path.startswith("~"):
        raise _refuse(field, "an absolute path")
    if ".." in relative.parts:
        raise _refuse(field, "a path with '..'")
    if not relative.parts:
        raise _refuse(field, "an empty path")
    if any(len(part.encode()) > MAX_NAME_BYTES for part in relative.parts):
        raise _refuse(field, f"a name longer than {MAX_NAME_BYTES} bytes")
    if len(user_path.encode()) > MAX_PATH_BYTES:
        raise _refuse(field, f"a path longer than {MAX_PATH_BYTES} bytes")
    return relative


def _place(root: Path, relative: PurePosixPath, field: str) -> Path:
    try:
        return _walk(root, relative, field)
    except OSError as exc:  # what the shape check cannot foresee (permissions, a full disk)
        raise _refuse(field, f"a path that cannot be created ({exc.strerror})") from exc


def _walk(root: Path, relative: PurePosixPath, field: str) -> Path:
    directory = root
    for part in relative.parts[:-1]:
        directory = directory / part
        if directory.is_symlink() and not _inside(directory.resolve(), root):
            raise _refuse(field, "a path through a symlink that leads outside")
        if not directory.exists():
            directory.mkdir()
        elif not directory.is_dir():
            raise _refuse(field, "a path through a file")
        directory = directory.resolve()
    target = directory / relative.parts[-1]
    if not _inside(target.resolve(), root):
        raise _refuse(field, "a symlink that leads outside")
    if target.is_dir():
        raise _refuse(field, "a directory")
    return target


def write_output(configured: Path | None, user_path: str, data: bytes, *, field: str) -> Path:
    """Write `data` to `user_path` under the output directory; returns where it went.

    A refused path creates nothing, not even the default output directory. The final
    component is opened with O_NOFOLLOW, so a symlink put there after the checks is not
    followed either."""
    target, file = open_output(configured, user_path, field=field)
    with file:
        file.write(data)
    return target


def open_output(configured: Path | None, user_path: str, *, field: str) -> tuple[Path, BinaryIO]:
    """`user_path` under the output directory, opened for writing by the rules of `write_output`,
    for a file written in parts as they arrive (a trace); the caller closes it."""
    relative = _checked_relative(user_path, field)
    target = _place(output_root(configured), relative, field)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
    try:
        fd = os.open(target, flags, 0o644)
    except OSError as exc:
        raise _refuse(field, f"a path that cannot be written ({exc.strerror})") from exc
    return target, os.fdopen(fd, "wb")


MAX_READ_BYTES = 64 * 1024 * 1024  # a file cdpilot reads back (a storage state) is small; this bounds a mistake


def read_output(configured: Path | None, user_path: str, *, field: str) -> bytes:
    """The bytes of a file under the output directory (one cdpilot wrote earlier, say), by the
    same rules as writing: nothing outside it is ever read."""
    relative = _checked_relative(user_path, field)
    root = output_root(configured)
    target = (root / relative).resolve()
    if not _inside(target, root):
        raise _refuse(field, "a symlink that leads outside")
    if not target.is_file():
        raise ArgumentError(
            "There is no such file in the output directory.",
            problems=[FieldProblem(field, f"a file under {root}", user_path)],
        )
    if target.stat().st_size > MAX_READ_BYTES:
        raise ArgumentError(
            "The file is too large to read.",
            problems=[FieldProblem(field, f"a file of at most {MAX_READ_BYTES // (1024 * 1024)} MiB", user_path)],
        )
    return target.read_bytes()
