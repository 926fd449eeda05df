"""Console entries as an agent reads them: one renderer for every answer that shows one.

The console tool lists entries with where they came from; the bundles after an action or a
pause show the newest few in short. Both are `console_entry_line`, so an entry reads the same
wherever it appears. The console tool's answer must fit the answer budget, so it keeps the
newest entries that fit and its header says what it left out and how to see it.

An agent takes "no errors" at its word, so the answer also says what the log's bounds
pushed out: at the level asked for (and, when that is none, that other levels lost some), or
per bucket when every level is shown. "No console messages" is said only when the scope
never recorded any at that level.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from cdpilot.browser.observe.console_facts import ConsoleEntry, ConsoleView, StackFrame
from cdpilot.text import clip, one_line

BUNDLE_TEXT_CHARS = 120  # an entry in a bundle after an action or a pause
BUNDLE_ENTRIES = 5
LOCATION_CHARS = 60
PAGE_URL_CHARS = 100  # a page's URL in the separators between pages
MAX_LIMIT = 100  # the tool's `limit` goes no higher


def origin_of(url: str | None) -> str:
    """``scheme://host:port`` of `url`, or "" when it has none (about:blank, data:)."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def compact_url(url: str, origin: str, limit: int) -> str:
    """A same-origin URL as its path (the answer names the origin once), cut to `limit`."""
    if origin and url.startswith(origin + "/"):
        url = url[len(origin) :]
    return clip(url, limit, keep="ends")


def stack_frame_line(frame: StackFrame) -> str:
    """``at fn (url:line:column)``, as a browser's console prints a stack; the function by its
    original name where a map renames it (``handleCheckout`` for a minified ``a``)."""
    where = frame.original.label if frame.original else f"{frame.url or '<anonymous>'}:{frame.line}:{frame.column}"
    return f"at {frame.original_name or frame.function or '(anonymous)'} ({where})"


def console_entry_line(
    entry: ConsoleEntry, *, text_chars: int | None = BUNDLE_TEXT_CHARS, origin: str | None = None, expand: bool = False
) -> str:
    """``[level] text (×N)``; with an `origin`, also where it was logged (``@ /app.js:12``);
    `expand` adds its stack, one frame a line. ``text_chars=None`` keeps the whole text."""
    text = one_line(entry.text) if text_chars is not None else entry.text.replace("\n", " ⏎ ")
    if text_chars is not None:
        text = clip(text, text_chars)
    line = f"[{entry.level}] {text}" + (f" (×{entry.count})" if entry.count > 1 else "")
    if origin is not None and entry.original is not None:
        line += f"  @ {clip(entry.original.source, LOCATION_CHARS, keep='ends')}:{entry.original.line}"
    elif origin is not None and entry.url:
        line += f"  @ {compact_url(entry.url, origin, LOCATION_CHARS)}" + (f":{entry.line}" if entry.line else "")
    if expand:
        line += "".join(f"\n    {stack_frame_line(frame)}" for frame in entry.stack)
    return line


def console_bundle_lines(entries: Sequence[ConsoleEntry], title: str) -> list[str]:
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


def console_answer(
    view: ConsoleView, *, page_url: str, limit: int, expand_errors: bool, max_chars: int, node: bool = False
) -> str:
    """The console tool's answer: the newest `limit` entries of `view`, fewer when they would
    not fit in `max_chars`, with the location of each; `expand_errors` adds their stacks.
    `node`: the console of a Node.js program (`page_url` is its main script), which has no pages."""
    if node:
        scope = f"of the Node.js program ({page_url})"
    elif view.include_previous_pages:
        scope = "on all recorded pages"
    else:
        scope = f"on the current page ({page_url})"
    level = "" if view.level is None else f" at level {view.level}"
    drops = _drop_notes(view)
    if not view.entries:
        asked = view.dropped.values() if view.level is None else [view.dropped.get(view.level, 0)]
        if any(asked):
            text = f"Console{level} {scope}: none held; {'; '.join(drops)}."
        else:
            text = f"No console messages{level} {scope}."
        if view.earlier_pages and not view.include_previous_pages:
            more = "{param:get_console_logs.include_previous_pages}=true"
            text += f" Earlier pages logged {view.earlier_pages:,} ({more})."
        return text
    origin = origin_of(page_url)
    lines = [console_entry_line(e, text_chars=None, origin=origin, expand=expand_errors) for e in view.entries]
    kept = min(limit, len(view.entries))
    header = f"Console{level} {scope}"
    while True:  # the newest `kept` entries, fewer when they would not fit the answer budget
        text = _console_text(view, lines, kept, limit=limit, page_url=page_url, header=header, drops=drops)
        if len(text) <= max_chars or kept == 1:
            return text
        kept -= 1


def _drop_notes(view: ConsoleView) -> list[str]:
    """What the bounds pushed out of the scope: at the level asked for, else per bucket;
    nothing when nothing was."""
    if not any(view.dropped.values()):
        return []
    if view.level is None:
        counts = [(bucket, sum(view.dropped.get(level, 0) for level in bucket.levels)) for bucket in view.buckets]
        return [
            f"{_entries(count, f'older {bucket.label} ')} {_were(count)} dropped "
            f"(the log keeps the newest {bucket.capacity:,})"
            for bucket, count in counts
            if count
        ]
    own = view.dropped.get(view.level, 0)
    if own:
        [bucket] = [bucket for bucket in view.buckets if view.level in bucket.levels]
        return [
            f"{_entries(own, f'older {view.level} ')} {_were(own)} dropped "
            f"(the log keeps the newest {bucket.capacity:,} {bucket.label} entries)"
        ]
    others = sum(view.dropped.values())
    return [f"no {view.level} entry was dropped ({_entries(others, 'older ')} at other levels {_were(others)})"]


def _entries(count: int, kind: str = "") -> str:
    """``1 older debug entry``, ``1,512 entries``."""
    return f"{count:,} {kind}{'entry' if count == 1 else 'entries'}"


def _were(count: int) -> str:
    return "was" if count == 1 else "were"


def _console_text(
    view: ConsoleView, lines: list[str], kept: int, *, limit: int, page_url: str, header: str, drops: list[str]
) -> str:
    """The header saying what is left out, then the newest `kept` of the rendered `lines`,
    with a separator before each page's first one when several pages are shown."""
    total = len(view.entries)
    parts = [_entries(total)]
    if kept < total:
        why = (
            f"raise {{param:get_console_logs.limit}}, max {MAX_LIMIT}"
            if kept == limit
            else "more would not fit: filter by {param:get_console_logs.filter_level}"
        )
        parts = [f"{parts[0]}, last {kept} shown", f"{total - kept:,} older omitted ({why})"]
    shown = [f"{header}: {'; '.join(parts + drops)}"]
    generation: int | None = None
    for entry, line in zip(view.entries[-kept:], lines[-kept:], strict=True):
        if view.include_previous_pages and entry.page_generation != generation:
            generation = entry.page_generation
            shown.append(_page_separator(view, generation, page_url))
        shown.append(line)
    return "\n".join(shown)


def _page_separator(view: ConsoleView, generation: int, page_url: str) -> str:
    current = generation == view.generation
    url = page_url if current else view.page_urls.get(generation, "(an earlier page)")
    return f"--- {'current page' if current else 'page'} {clip(url, PAGE_URL_CHARS, keep='ends')} ---"
