"""The text of a failed call: message, blank line, suggestion (and no dangling label without one)."""

from __future__ import annotations

from cdpilot.answers.error_answers import error_answer
from cdpilot.errors import ArgumentError, FieldProblem, classify


def test_a_message_and_its_suggestion() -> None:
    assert (
        error_answer("No browser is connected.", "Launch one.") == "No browser is connected.\n\nSuggestion: Launch one."
    )


def test_no_suggestion_no_label() -> None:
    assert error_answer("Something broke.", "") == "Something broke."


def test_a_validation_error_names_each_field() -> None:
    info = classify(
        ArgumentError(
            "Invalid arguments for click_element:",
            problems=[FieldProblem("index", "an integer >= 0", "-1"), FieldProblem("selector", "a string", "none")],
            suggestion="Fix them.",
        )
    )
    assert error_answer(info.message, info.suggestion) == (
        "Invalid arguments for click_element:\n"
        "- index: expected an integer >= 0, got -1\n"
        "- selector: expected a string, got none\n\n"
        "Suggestion: Fix them."
    )
