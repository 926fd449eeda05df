"""Console entries as an agent reads them: one renderer for every answer that shows one.

The console tool lists entries with where they came from; the bundles after an action or a
pause show the newest few in short. Both are `console_entry_line`, so an entry reads the same
wherever it appears.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from cdpilot.browser.observe.console import ConsoleEntry
from cdpilot.text import clip, one_line

BUNDLE_TEXT_CHARS = 120  # an entry in a bundle after an action or a pause
BUNDLE_ENTRIES = 5
LOCATION_CHARS = 60


def origin_of(url: str | None) -> str:
    """``scheme://host:port`` of `url`, or "" when it has none (about:blank, data:)."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def compact_url(url: str, origin: str, limit: int) -> str:
    """A same-origin URL as its path (the answer names the origin once), cut to `limit`."""
    if origin and url.startswith(origin + "/"):
        url = url[len(origin) :]
    return clip(url, limit, keep="ends")


def console_entry_line(
    entry: ConsoleEntry, *, text_chars: int | None = BUNDLE_TEXT_CHARS, origin: str | None = None, expand: bool = False
) -> str:
    """``[level] text (×N)``; with an `origin`, also where it was logged (``@ /app.js:12``);
    `expand` adds its stack, one frame a line. ``text_chars=None`` keeps the whole text."""
    text = one_line(entry.text) if text_chars is not None else entry.text.replace("\n", " ⏎ ")
    if text_chars is not None:
        text = clip(text, text_chars)
    line = f"[{entry.level}] {text}" + (f" (×{entry.count})" if entry.count > 1 else "")
    if origin is not None and entry.url:
        line += f"  @ {compact_url(entry.url, origin, LOCATION_CHARS)}" + (f":{entry.line}" if entry.line else "")
    if expand and entry.stack:
        line += "".join(f"\n    {frame}" for frame in entry.stack.splitlines())
    return line


def console_bundle_lines(entries: list[ConsoleEntry], title: str) -> list[str]:
    """The newest console output after an action or in a pause: a few entries, then how many more."""
    if not entries:
        return []
    shown = [console_entry_line(entry) for entry in entries[:BUNDLE_ENTRIES]]
    if len(entries) == 1:
        return [f"{title}: {shown[0]}"]
    lines = [f"{title} ({len(entries)}):", *(f"  {line}" for line in shown)]
    if len(entries) > BUNDLE_ENTRIES:
        lines.append(f"  …{len(entries) - BUNDLE_ENTRIES} more: {{tool:get_console_logs}}")
    return lines
