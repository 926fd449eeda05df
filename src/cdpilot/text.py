"""Small text helpers every layer shares, above all the one way cdpilot cuts text.

An agent believes what it reads, so a cut never hides: `clip` marks the cut with one style,
``…[+N chars]``, saying how much is missing, whether it keeps the start of a text (a message,
a value) or both ends (a URL, whose host and file name both matter). Like `errors`, this
module imports nothing of cdpilot, so the browser layer (which bounds what it keeps) and the
answer renderers (which bound what they show) cut the same way.
"""

from __future__ import annotations

from typing import Literal

MIN_KEPT = 1  # a cut always keeps at least this much of the text


def cut_marker(cut: int) -> str:
    """The mark that stands where ``cut`` characters were left out."""
    return f"…[+{cut} chars]"


def clip(text: str, limit: int, *, keep: Literal["start", "ends"] = "start") -> str:
    """`text` in at most `limit` characters (mark included), or as it is when it fits.

    ``keep="ends"`` keeps the head and the tail and cuts the middle. A limit too small to
    hold the mark still keeps `MIN_KEPT` characters, so the answer can run a little over."""
    if len(text) <= limit:
        return text
    kept = limit - len(cut_marker(len(text)))
    while kept + 1 + len(cut_marker(len(text) - kept - 1)) <= limit:  # a shorter count frees a digit
        kept += 1
    kept = max(MIN_KEPT, kept)
    marker = cut_marker(len(text) - kept)
    if keep == "start":
        return text[:kept] + marker
    head = (kept + 1) // 2
    tail = kept - head
    return text[:head] + marker + (text[len(text) - tail :] if tail else "")


def one_line(text: str) -> str:
    """`text` with every run of whitespace (newlines included) as one space."""
    return " ".join(text.split())


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 element``, ``2 elements``; ``words`` for a plural that is not ``word`` + s."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def human_size(size: int) -> str:
    """Bytes as people read them: ``512 B``, ``34 KB``, ``2.1 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def exact_size(size: int) -> str:
    """The size of a file an agent may compare with another's, to the byte: ``512 B``, ``50,000 bytes (49 KB)``
    (the rough size beside it, for reading)."""
    return human_size(size) if size < 1024 else f"{size:,} bytes ({human_size(size)})"
