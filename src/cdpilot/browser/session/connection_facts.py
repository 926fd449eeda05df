"""What the connection tools learn about a browser connection, as plain data.

Kept apart from the manager, which speaks CDP, so the answer renderers can import these
facts without loading the protocol client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

ConnectionKind = Literal["launched", "connected", "context"]  # context: of the shared browser


@dataclass(frozen=True)
class ConnectionInfo:
    """One browser connection as the connection tools report it."""

    id: str
    kind: ConnectionKind
    browser: str  # the product name and version the browser reports, e.g. Chrome/126.0.6478.126
    protocol_version: str
    endpoint: str  # "pipe" for a launched browser, the DevTools websocket URL for a connected one
    pid: int | None  # launched browsers only
    user_data_dir: str | None  # launched browsers only
    active: bool
    target_url: str | None  # the current page, when there is one
    target_title: str | None
    alive: bool = True
    runtime: Literal["browser", "node"] = "browser"
    command: str | None = None  # a Node.js program we run: its command line
    threads: tuple[str, ...] = ()  # a Node.js connection's processes and workers, "[paused]" marked


@dataclass(frozen=True)
class NodeProgramOptions:
    """A program to run under the Node.js inspector, as the caller gave it."""

    command: tuple[str, ...]  # the program and its arguments: ("npx", "vitest", "run")
    connection_id: str | None = None
    cwd: str | None = None  # None: the server's working directory
    env: Mapping[str, str] = field(default_factory=dict)  # over the server's environment
    pause_at_start: bool = False
    timeout_ms: int = 10000  # for its first Node.js process to start (and its first pause)
