"""Answers about the page's code: its scripts and original sources, a source's lines, and
search results. Each is bounded and says what it left out and how to see the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.browser.debugger.source_facts import ScriptEntry, SearchFindings, SourceText
from cdpilot.text import clip, one_line, plural

LIST_ROWS = 40  # rows of the script list per answer (a script or one of its sources is a row)
LINE_CHARS = 160  # a source line in a read or a search hit
URL_CHARS = 120
NOTE_CHARS = 200
BUDGET_MARGIN = 300  # room for the heading and the closing line


def scripts_answer(entries: Sequence[ScriptEntry], *, filter_text: str | None, offset: int) -> str:
    rows = _rows(entries, filter_text)
    scope = f' matching "{filter_text}"' if filter_text else ""
    if not rows:
        if entries:
            return f"No script or original source{scope} ({plural(len(entries), 'script')} loaded)."
        return "No scripts with a URL are loaded yet. Navigate or reload, then list again."
    shown = rows[offset : offset + LIST_ROWS]
    mapped = sum(1 for e in entries if e.map_state == "loaded")
    head = (
        f"{plural(len(entries), 'script')} loaded, {mapped} with a source map; rows{scope} "
        f"{offset + 1 if shown else offset}–{offset + len(shown)} of {len(rows)}:"
    )
    lines = [head, *shown]
    if offset + len(shown) < len(rows):
        lines.append(f"More: {{param:debugger_list_scripts.offset}}={offset + len(shown)}.")
    return "\n".join(lines)


def _rows(entries: Sequence[ScriptEntry], filter_text: str | None) -> list[str]:
    wanted = (filter_text or "").lower()
    rows: list[str] = []
    for entry in entries:
        script_matches = wanted in entry.url.lower()
        sources = [s for s in entry.sources if script_matches or wanted in s.name.lower()]
        if not script_matches and not sources:
            continue
        rows.append(f"{clip(one_line(entry.url), URL_CHARS, keep='ends')}  [{_map_state(entry)}]")
        rows += [f"  {s.name}" + (" (library)" if s.library else "") for s in sources]
    return rows


def _map_state(entry: ScriptEntry) -> str:
    if entry.map_state == "loaded":
        note = f"; note: {clip(one_line(entry.map_note), NOTE_CHARS)}" if entry.map_note else ""
        return f"map: {plural(len(entry.sources), 'source')}{note}"
    if entry.map_state == "failed":
        return f"map failed: {clip(one_line(entry.map_note), NOTE_CHARS)}"
    return "no map"


def source_lines_answer(source: SourceText, *, start_line: int, line_count: int, max_chars: int) -> str:
    """Numbered lines from `start_line`: `line_count` of them, or fewer when `max_chars` is reached."""
    total = len(source.lines)
    kind = "original source" if source.original else "script"
    if start_line > total:
        return f"{source.name} ({kind}) has {plural(total, 'line')}; line {start_line} is past its end."
    end = min(total, start_line + line_count - 1)
    width = len(str(end))
    body: list[str] = []
    size = BUDGET_MARGIN
    for number in range(start_line, end + 1):
        line = f"{number:>{width}} | {clip(source.lines[number - 1].rstrip(), LINE_CHARS)}"
        if size + len(line) + 1 > max_chars:
            end = number - 1
            break
        body.append(line)
        size += len(line) + 1
    head = f"{source.name} ({kind}), lines {start_line}–{end} of {total}"
    if source.versions > 1:
        head += f"; the current text: the page loaded {source.versions} versions of it (a hot update replaced it)"
    lines = [head + ":", *body]
    if end < total:
        lines.append(f"More: {{param:debugger_read_source.start_line}}={end + 1}.")
    return "\n".join(lines)


def search_answer(found: SearchFindings, *, query: str) -> str:
    counted = f"{found.total}" if found.counted_all else f"{found.total}+"
    head = f'{counted} lines match "{clip(one_line(query), 80)}" in {plural(found.files_searched, "file")}'
    if not found.hits:
        lines = [head + "."]
    else:
        lines = [head + f"; showing {len(found.hits)}, original sources first:"]
        lines += [f"{hit.file}:{hit.line}: {clip(hit.text.strip(), LINE_CHARS)}" for hit in found.hits]
        if found.total > len(found.hits):
            lines.append("More: raise limit, or search for something narrower.")
    if found.files_without_text:
        names = ", ".join(found.files_without_text[:5])
        left_out = len(found.files_without_text) - 5
        more = f" (+{left_out} more: {{tool:debugger_list_scripts}} names them)" if left_out > 0 else ""
        lines.append(f"Not searched (their maps carry no text): {names}{more}.")
    return "\n".join(lines)
