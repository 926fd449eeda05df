"""Which local files a page may be given (an upload, a route's response body): only those inside
the upload directory.

A path comes from a model or a user, so it is untrusted: it names a file relative to the
upload directory (``--upload-dir``, else the output directory, where screenshots, saved
values and downloads already are), or an absolute path inside it. It is resolved with its
symlinks, so neither ``..`` nor a link can lead outside; it must be a regular file. Each
refusal names the offending item, so the agent knows which path to fix.
"""

from __future__ import annotations

import os
from pathlib import Path

from cdpilot.errors import ArgumentError, FieldProblem
from cdpilot.output_files import output_root

FIELD = "files"


def upload_root(upload_dir: Path | None, output_dir: Path | None) -> Path:
    """The upload directory, as a real path: the configured one, else the output directory."""
    if upload_dir is None:
        return output_root(output_dir)
    return upload_dir.resolve()


def resolve_upload_files(paths: list[str], root: Path) -> list[Path]:
    """Each path as a real file inside `root`; ArgumentError naming the first one that is not."""
    return [resolve_upload_file(path, root, f"{FIELD}[{number}]") for number, path in enumerate(paths)]


def resolve_upload_file(path: str, root: Path, field: str) -> Path:
    """`path` as a real, readable file inside `root`; ArgumentError naming `field` when it is not."""
    if "\0" in path or not path.strip():
        raise _refuse(field, "a file name", "an empty name or one with a NUL byte", root)
    given = Path(path).expanduser()
    real = Path(os.path.realpath(given if given.is_absolute() else root / given))
    if not real.is_relative_to(root):
        raise _refuse(field, f"a file inside the upload directory {root}", f"{path} (outside it)", root)
    if real.is_dir():
        raise _refuse(field, "a file", f"{path} (a directory)", root)
    if not real.is_file():
        raise _refuse(field, "an existing file", f"{path} (no such file)", root)
    if not os.access(real, os.R_OK):
        raise _refuse(field, "a file cdpilot can read", f"{path} (not readable)", root)
    return real


def _refuse(field: str, expected: str, given: str, root: Path) -> ArgumentError:
    return ArgumentError(
        "A file to give the page is not allowed.",
        problems=[FieldProblem(field, expected, given)],
        suggestion=f"Give files inside {root} (relative paths are taken from there); cdpilot --upload-dir "
        "sets that directory.",
    )
