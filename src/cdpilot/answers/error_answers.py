"""The text of a failed tool call, as the client reads it: the message, then what to do.

The registry classifies the failure and spells its tool references first; this only lays
out the words, so every error of every tool reads the same way.
"""

from __future__ import annotations


def error_answer(message: str, suggestion: str) -> str:
    """``<message>``, and ``Suggestion: <suggestion>`` after a blank line when there is one."""
    return f"{message}\n\nSuggestion: {suggestion}" if suggestion else message
