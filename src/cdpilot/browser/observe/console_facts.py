"""What the console log holds, as plain data: entries with their stacks, the buckets that
bound them, and one read of the log with what an answer needs to say about the entries it
leaves out.

`ConsoleLog` learns these from CDP events; these facts do not speak CDP, so the answer
renderers can import them without loading the protocol client. Lines and columns are
1-based, like an editor's (CDP's are 0-based and are converted where the events are read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a field type only
    from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace


@dataclass(frozen=True)
class StackFrame:
    """One frame of the stack where a message was logged or an error thrown."""

    function: str  # "" for an anonymous function
    url: str  # "" for code with no script URL (an eval, a console snippet)
    line: int  # 1-based
    column: int  # 1-based
    script_id: str = ""
    original: OriginalPlace | None = None  # where a source map says it came from
    original_name: str | None = None  # the function's name in the original source, when a map renames it


@dataclass(frozen=True)
class ConsoleEntry:
    level: str  # error | warning | info | log | debug
    text: str
    url: str | None
    line: int | None  # 1-based
    stack: tuple[StackFrame, ...]  # the top frames, errors only; () when there is none
    page_generation: int  # bumped on every main-frame navigation
    count: int = 1  # repeated identical messages are folded
    column: int | None = None  # 1-based
    script_id: str = ""
    original: OriginalPlace | None = None  # where a source map says it was logged


@dataclass(frozen=True)
class ConsoleBucket:
    """Levels kept together under a bound of their own, apart from the other levels, so that
    a burst of one kind (a loop of console.log) never pushes out another (the error before it)."""

    levels: tuple[str, ...]
    capacity: int  # how many entries of these levels the log keeps

    @property
    def label(self) -> str:
        """``error/warning``: how an answer names the bucket."""
        return "/".join(self.levels)


@dataclass(frozen=True)
class ConsoleView:
    """One read of the console log: the entries asked for, oldest first, and what an answer
    says about those it does not show."""

    entries: tuple[ConsoleEntry, ...]
    level: str | None  # the level asked for; None: every level
    include_previous_pages: bool  # False: the current page only
    generation: int  # the current page's
    page_urls: Mapping[int, str]  # generation -> URL, for the pages that navigated
    earlier_pages: int  # entries held from the pages before the current one, of any level
    dropped: Mapping[str, int]  # level -> entries of the scope pushed out by their bucket's bound
    buckets: tuple[ConsoleBucket, ...]  # every level is in exactly one
