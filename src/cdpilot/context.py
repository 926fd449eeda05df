"""What a handler receives besides its arguments, and what it gives back.

Collaborators are injected through `ToolContext` rather than read from module globals,
so a test can hand a handler its own connection manager, settings or clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot_generated.manifests import Mode

from cdpilot.server.rate_limit import DEFAULT_RATE_LIMIT, RateLimit

if TYPE_CHECKING:
    from cdpilot.browser.session.manager import ConnectionManager


@dataclass(frozen=True)
class Settings:
    """Start-up choices that change what a tool may do."""

    allow_remote: bool = False
    allow_file_urls: bool = False
    output_dir: Path | None = None
    max_answer_chars: int = 5000
    max_inline_image_bytes: int = 5 * 1024 * 1024  # what MCP clients commonly accept per image
    rate_limit: RateLimit | None = DEFAULT_RATE_LIMIT  # per tool; None: unlimited


@dataclass(frozen=True)
class Image:
    data_base64: str
    mime_type: str


@dataclass(frozen=True)
class ToolResult:
    """A handler's answer: compact text, plus images for screenshots."""

    text: str
    images: tuple[Image, ...] = field(default=())


@dataclass
class ToolContext:
    connections: ConnectionManager
    mode: Mode
    settings: Settings
