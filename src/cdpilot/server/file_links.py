"""Files a tool wrote, offered to the client as MCP resources, and read back only by their session.

Why: a client on another machine (the HTTP transport) cannot open the local path an answer
names. So each file a tool writes is also in its result as a ``resource_link``
(``cdpilot://files/<path under the output directory>``), which ``resources/read`` serves.

A session reads only under its own output directory: a uri for anything else (another
session's file, a ``..``, a symlink leading out, a file that is gone) gets one and the same
error, so it never tells whether a file exists elsewhere.

Plain data, no SDK: the registry makes links before the SDK is loaded (`call_results`); the
SDK's side (`sdk_server`) turns listings and contents into its own result models.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from cdpilot.errors import ArgumentError, InvalidParamsError
from cdpilot.output_files import check_output_path, output_root
from cdpilot.server.call_results import LinkBlock

SCHEME = "cdpilot://files/"
MAX_READ_BYTES = 20 * 1024 * 1024  # base64 makes it 27 MiB on the wire: more is for the local path
MAX_LISTED = 500
TEXT_TYPES = frozenset({"application/json", "application/xml", "application/javascript", "image/svg+xml"})


def _mime_type(path: Path) -> str:
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def _is_text(mime_type: str) -> bool:
    return mime_type.startswith("text/") or mime_type in TEXT_TYPES


@dataclass(frozen=True)
class FileContents:
    """What resources/read sends of one file: its text, or else its bytes in base64."""

    uri: str
    mime_type: str
    text: str | None = None
    blob: str | None = None


class SessionFiles:
    """The files under one session's output directory, as links and as resources."""

    def __init__(self, output_dir: Path | None) -> None:
        self._output_dir = output_dir

    @property
    def root(self) -> Path:
        return output_root(self._output_dir)

    def links(self, paths: tuple[Path, ...]) -> list[LinkBlock]:
        """A link for each written file (one outside the directory, or gone, has none)."""
        root = self.root
        real = [path.resolve() for path in paths]
        return [self._link(root, path) for path in real if path.is_relative_to(root) and path.is_file()]

    def listed(self) -> list[LinkBlock]:
        """The session's files, sorted by path, at most `MAX_LISTED`."""
        root = self.root
        files = sorted(path for path in root.rglob("*") if path.is_file() and not path.is_symlink())
        return [self._link(root, path) for path in files[:MAX_LISTED]]

    def read(self, uri: str) -> FileContents:
        """The file `uri` names, as text or base64; an `InvalidParamsError` for any uri that is not a file here."""
        root = self.root
        target = self._target(root, uri)
        size = target.stat().st_size
        if size > MAX_READ_BYTES:
            raise InvalidParamsError(
                f"The file is {size} bytes, more than the {MAX_READ_BYTES // (1024 * 1024)} MiB resources/read "
                f"sends. It is on the server's disk at {target}.",
            )
        data = target.read_bytes()
        mime_type = _mime_type(target)
        if _is_text(mime_type):
            try:
                return FileContents(uri, mime_type, text=data.decode())
            except UnicodeDecodeError:
                pass  # labelled text, but not UTF-8: sent as bytes
        return FileContents(uri, mime_type, blob=base64.b64encode(data).decode("ascii"))

    def _target(self, root: Path, uri: str) -> Path:
        refused = InvalidParamsError(
            f"No file of this session at {uri!r}. resources/read serves the {SCHEME}… links of this "
            "session's tool results (resources/list lists them).",
        )
        if not uri.startswith(SCHEME):
            raise refused
        relative = unquote(uri.removeprefix(SCHEME))
        try:
            check_output_path(relative, field="uri")
        except ArgumentError:
            raise refused from None
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            raise refused
        return target

    @staticmethod
    def _link(root: Path, path: Path) -> LinkBlock:
        relative = PurePosixPath(path.relative_to(root).as_posix())
        return LinkBlock(
            uri=SCHEME + quote(str(relative)), name=str(relative), mime_type=_mime_type(path), size=path.stat().st_size
        )
