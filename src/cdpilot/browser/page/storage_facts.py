"""What the storage tools read and write, as plain data: cookies, web storage, and the
storage-state files that carry both.

The modules that reach the stores speak CDP; these facts do not, so the answer renderers can
import them without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Cookie:
    name: str
    value: str
    domain: str
    path: str
    expires: float | None  # Unix seconds; None: a session cookie
    http_only: bool
    secure: bool
    same_site: str  # "" when the browser did not say
    size: int


@dataclass(frozen=True)
class WebStorage:
    """The entries of one origin's localStorage or sessionStorage that were asked for."""

    origin: str
    area: Literal["local", "session"]
    entries: tuple[tuple[str, str], ...]
    total: int  # keys in the store; more than `entries` when one key was asked for
    databases: tuple[str, ...] | None = ()  # the origin's IndexedDB databases; None: not listed (paused)


@dataclass(frozen=True)
class StorageState:
    """What a storage-state file held or was given: cookies, and localStorage and sessionStorage by origin."""

    cookies: int
    origins: tuple[tuple[str, int], ...]  # (origin, localStorage keys)
    sessions: tuple[tuple[str, int], ...] = ()  # (origin, sessionStorage keys)


@dataclass(frozen=True)
class StorageNotLoaded:
    """A saved origin's web storage that loading a storage state could not write, and why."""

    area: Literal["local", "session"]
    origin: str
    # "unreachable": no page of the origin could be opened (`detail` says why); "other tab": sessionStorage,
    # which is per tab, of an origin the current tab is not at (`detail`: where it is); "refused": the server's
    # origin lists refuse the origin (`detail`: the refusal's statement)
    reason: Literal["unreachable", "other tab", "refused"]
    detail: str
