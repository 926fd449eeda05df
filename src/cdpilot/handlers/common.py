"""Small decisions every handler group shares."""

from __future__ import annotations

from cdpilot.context import ToolContext


def wants_context(include_context: bool | None, ctx: ToolContext) -> bool:
    """`include_context` as the caller meant it: explicit wins, else smart mode bundles and legacy does not."""
    return ctx.mode == "smart" if include_context is None else include_context
