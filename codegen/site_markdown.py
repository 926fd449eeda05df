"""Just enough Markdown to put CONTRIBUTING.md on the docs site, so the guide exists once.

Headings, paragraphs, bullet and numbered lists (an indented line continues an item), fenced
code blocks, inline code (single or double backticks, so docstrings read too) and bold.
Links are not part of the subset: the site has no outside links (it works offline), and a
repository path reads fine as code. Anything else is passed through as escaped text.
"""

from __future__ import annotations

import re
from html import escape

_HEADING = re.compile(r"^(#{1,4}) (.+)$")
_ITEM = re.compile(r"^(-|\d+\.) (.*)$")
_INLINE = re.compile(r"``([^`]+)``|`([^`]+)`|\*\*([^*]+)\*\*")


def to_html(markdown: str) -> str:
    out: list[str] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), len(lines))
            out.append(f"<pre><code>{escape(chr(10).join(lines[index + 1 : end]))}</code></pre>")
            index = end + 1
        elif heading := _HEADING.match(line):
            level, text = len(heading.group(1)), heading.group(2)
            out.append(f'<h{level} id="{slug(text)}">{inline(text)}</h{level}>')
            index += 1
        elif _ITEM.match(line):
            index = _list(lines, index, out)
        elif line.strip():
            end = index
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            out.append(f"<p>{inline(' '.join(part.strip() for part in lines[index:end]))}</p>")
            index = end
        else:
            index += 1
    return "\n".join(out) + "\n"


def _starts_block(line: str) -> bool:
    return line.startswith("```") or bool(_HEADING.match(line) or _ITEM.match(line))


def _list(lines: list[str], index: int, out: list[str]) -> int:
    """One list from ``lines[index]``; returns the index after it."""
    tag = "ul" if lines[index].startswith("-") else "ol"
    items: list[list[str]] = []
    while index < len(lines):
        line = lines[index]
        item = _ITEM.match(line)
        if item and (item.group(1) == "-") == (tag == "ul"):
            items.append([item.group(2)])
        elif line.startswith("  ") and line.strip() and items:
            items[-1].append(line.strip())
        else:
            break
        index += 1
    out.append(f"<{tag}>" + "".join(f"<li>{inline(' '.join(item))}</li>" for item in items) + f"</{tag}>")
    return index


def inline(text: str) -> str:
    """Escape, then mark up code spans and bold (a code span's content stays literal)."""
    parts, last = [], 0
    for match in _INLINE.finditer(text):
        parts.append(escape(text[last : match.start()]))
        double, single, bold = match.groups()
        code = double if double is not None else single
        parts.append(f"<code>{escape(code)}</code>" if code is not None else f"<strong>{escape(bold)}</strong>")
        last = match.end()
    parts.append(escape(text[last:]))
    return "".join(parts)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
