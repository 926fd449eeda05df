"""The answer of page_outline: one line per landmark, heading and control, indented by structure.

A line reads ``role "name" = "value" [states] selector``, each part only when there is one.
The outline stops at whole lines within `max_chars`; what did not fit is counted, and the
parts (landmarks, frames) whose items were left out are named by their selectors, so the
next call can outline one of them alone.
"""

from __future__ import annotations

from cdpilot.browser.outline.outline_facts import OutlineEntry, PageOutline
from cdpilot.text import clip, one_line, plural

NAME_CHARS = 60
VALUE_CHARS = 40
URL_CHARS = 80
MOST_PARTS = 4  # parts named in the hint to narrow down


def entry_line(entry: OutlineEntry) -> str:
    """``  checkbox "Remember me" [checked] #remember``."""
    parts = ["  " * entry.depth + entry.role]
    if entry.name:
        parts.append(f'"{clip(entry.name, NAME_CHARS)}"')
    if entry.value:
        parts.append(f'= "{clip(entry.value, VALUE_CHARS)}"')
    if entry.states:
        parts.append(f"[{', '.join(entry.states)}]")
    if entry.selector:
        parts.append(entry.selector)
    if entry.frame_url:
        parts.append(f"(cross-origin: {clip(one_line(entry.frame_url), URL_CHARS)})")
    if entry.not_outlined:
        parts.append(f"(cross-origin, not outlined: {entry.not_outlined})")
    return " ".join(parts)


def _header(outline: PageOutline) -> str:
    what = f'"{outline.scope}"' if outline.scope else f'"{outline.title}"' if outline.title else "the page"
    if outline.scope_frame:
        what += f" in {clip(one_line(outline.scope_frame), URL_CHARS)}"
    first = f"first of {outline.match_count} matches; " if outline.match_count > 1 else ""
    if not outline.entries:
        return f"Outline of {what}{f' ({first[:-2]})' if first else ''}: no landmarks, headings or controls."
    line = f'Outline of {what} ({first}{plural(outline.controls, "control")}; role "name" = value [state] selector):'
    if outline.cross_origin_frames or outline.scope_frame:
        line += "\nSelectors inside cross-origin iframes work with the element tools, which search those frames too."
    if outline.not_outlined:
        line += f"\n{plural(outline.not_outlined, 'cross-origin iframe')} not outlined (reasons on their lines)."
    return line


def _hint(outline: PageOutline, shown: int) -> str:
    """What the lines after the first `shown` hold, and the parts to outline alone to see them."""
    rest = outline.entries[shown:]
    controls = sum(1 for entry in rest if entry.kind == "control")
    text = f"…{plural(len(rest), 'more item')} ({plural(controls, 'control')}) not shown."
    parts: list[str] = []
    index = 0
    while index < len(outline.entries) and len(parts) < MOST_PARTS:
        entry = outline.entries[index]
        holds_unseen = index + entry.inside >= shown and entry.inside > 0
        if entry.kind in ("landmark", "frame") and entry.selector and holds_unseen:
            parts.append(f'"{entry.selector}" ({plural(entry.inside, "item")})')
            index += entry.inside + 1  # its own parts are in it
        else:
            index += 1
    if parts:
        text += f" Outline one part with {{param:selector}}: {', '.join(parts)}."
    else:
        text += " Outline one part with {param:selector} (a container; {tool:query_elements} finds one)."
    return text


def outline_answer(outline: PageOutline, *, max_chars: int) -> str:
    """The outline in at most `max_chars` characters, cut at a whole line with what is left said."""
    header = _header(outline)
    lines = [entry_line(entry) for entry in outline.entries]
    whole = "\n".join([header, *lines])
    if len(whole) <= max_chars:
        return whole
    used, shown = len(header), 0
    for line in lines:
        if used + 1 + len(line) + 1 + len(_hint(outline, shown + 1)) > max_chars:
            break
        used += 1 + len(line)
        shown += 1
    return "\n".join([header, *lines[:shown], _hint(outline, shown)])
