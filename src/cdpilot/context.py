"""What a handler receives besides its arguments, and what it gives back.

Collaborators are injected through `ToolContext` rather than read from module globals,
so a test can hand a handler its own connection manager, settings or clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot_generated.manifests import Mode

from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.call_rate import DEFAULT_RATE_LIMIT, RateLimit

if TYPE_CHECKING:
    import asyncio

    from cdpilot.browser.session.manager import ConnectionManager


@dataclass(frozen=True)
class AttachTarget:
    """A browser to attach to instead of launching one: exactly one of the three ways is set."""

    browser_url: str | None = None  # http://host:port of a browser started with remote debugging
    ws_endpoint: str | None = None  # its ws://… browser endpoint
    auto_connect: bool = False  # find a local one through DevToolsActivePort or the default port


@dataclass(frozen=True)
class Settings:
    """Start-up choices that change what a tool may do."""

    auto_launch: bool = True  # a page tool with no browser starts one (or attaches, given `attach`)
    launch: LaunchOptions = field(default_factory=LaunchOptions)  # `chrome launch` and auto-launch start from it
    attach: AttachTarget | None = None
    origins: OriginPolicy = field(default_factory=OriginPolicy)  # where navigation and page requests may go
    tools: frozenset[str] | None = None  # the tools served in the active mode; None: all of them
    allow_remote: bool = False
    allow_file_urls: bool = False
    output_dir: Path | None = None
    upload_dir: Path | None = None  # None: the output directory
    max_answer_chars: int = 5000
    max_inline_image_bytes: int = 5 * 1024 * 1024  # what MCP clients commonly accept per image
    rate_limit: RateLimit | None = DEFAULT_RATE_LIMIT  # per tool; None: unlimited


@dataclass(frozen=True)
class Image:
    data_base64: str
    mime_type: str


@dataclass(frozen=True)
class ToolResult:
    """A handler's answer: compact text, plus images for screenshots, plus the files it wrote
    (the registry offers each to the client as a resource link, for clients on other machines)."""

    text: str
    images: tuple[Image, ...] = field(default=())
    files: tuple[Path, ...] = field(default=())


def _new_lock() -> asyncio.Lock:
    """Imported here: the CLI reads `Settings` from this module before it loads asyncio (see
    `cdpilot.server.startup`)."""
    import asyncio

    return asyncio.Lock()


@dataclass
class ToolContext:
    connections: ConnectionManager
    mode: Mode
    settings: Settings
    first_contact: asyncio.Lock = field(default_factory=_new_lock)  # one auto-launch for concurrent calls


_call_notes: ContextVar[list[str] | None] = ContextVar("cdpilot_call_notes", default=None)


def add_call_note(line: str) -> None:
    """Say something about the call above its answer, whatever the answer turns out to be.

    Why not part of the answer: what a handler did on the way (launching the browser it
    needed) must be said even when the handler then fails, and the registry, which writes
    both success and error answers, is the one place that sees both."""
    notes = _call_notes.get()
    if notes is not None:
        notes.append(line)


@contextmanager
def collecting_call_notes() -> Iterator[list[str]]:
    """The notes `add_call_note` makes inside this block (one tool call)."""
    notes: list[str] = []
    token = _call_notes.set(notes)
    try:
        yield notes
    finally:
        _call_notes.reset(token)
