"""Small decisions every handler group shares."""

from __future__ import annotations

from cdpilot_generated.catalog import SPELLINGS

from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import render_tool_references


def wants_context(include_context: bool | None, ctx: ToolContext) -> bool:
    """`include_context` as the caller meant it: explicit wins, else smart mode bundles and legacy does not."""
    return ctx.mode == "smart" if include_context is None else include_context


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 element``, ``2 elements``; ``words`` for a plural that is not ``word`` + s."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def spelled(ctx: ToolContext, lines: list[str]) -> ToolResult:
    """An answer whose ``{tool:…}`` references are spelled as the active mode calls those tools."""
    spellings = SPELLINGS[ctx.mode]
    return ToolResult(render_tool_references("\n".join(lines), lambda tool: spellings.get(tool, f"{tool}()")))
