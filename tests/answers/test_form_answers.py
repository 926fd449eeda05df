"""The answer of a form fill, on hand-built facts."""

from __future__ import annotations

from cdpilot.answers.action_answers import action_lines
from cdpilot.answers.form_answers import filled_form_text
from cdpilot.browser.dom.element_facts import ActionReport, ChosenOption, Effects, FieldOutcome, Navigation
from cdpilot.browser.observe.console_facts import ConsoleEntry


def test_each_field_says_what_it_holds_or_why_it_was_not_filled() -> None:
    fields = (
        FieldOutcome("#email", None, "email", value_after="ada@example.test"),
        FieldOutcome("#password", None, "password", length=7),
        FieldOutcome("#terms", None, "checkbox", checked=True),
        FieldOutcome("#news", None, "checkbox", checked=False),
        FieldOutcome("#country", None, "select", chosen=(ChosenOption("France", "fr"),)),
        FieldOutcome("#colors", None, "select multiple", chosen=(ChosenOption("Red", "r"), ChosenOption("Blue", "b"))),
        FieldOutcome("#none", None, "select multiple"),
        FieldOutcome("#when", None, "date", value_after="2026-11-25"),
        FieldOutcome("#notes", None, "contenteditable", value_after="line one\nline two"),
        FieldOutcome("#nope", None, error="No element matches the selector. Call {tool:query_elements}."),
        FieldOutcome(".plan", 2, "radio", error="input.plan is disabled.\nDo what enables it first."),
    )
    assert filled_form_text(fields) == "\n".join(
        [
            "Filled 9 of 11 fields:",
            '  #email (email): "ada@example.test"',
            "  #password (password): 7 characters",
            "  #terms (checkbox): checked",
            "  #news (checkbox): not checked",
            '  #country (select): "France" (value "fr")',
            '  #colors (select multiple): "Red" (value "r"), "Blue" (value "b")',
            "  #none (select multiple): nothing selected",
            '  #when (date): "2026-11-25"',
            '  #notes (contenteditable): "line one line two"',
            "  #nope: No element matches the selector. Call {tool:query_elements}.",
            "  .plan [2] (radio): input.plan is disabled. Do what enables it first.",
        ]
    )


def test_a_radio_chosen_by_its_group_value_is_named_and_the_count_leaves_out_failures() -> None:
    fields = (
        FieldOutcome("[name=size]", None, "radio", checked=True, chosen=(ChosenOption("Large", "L"),)),
        FieldOutcome(
            "#qty", None, "number", error='It holds "" after "abc" was typed: a number field takes only a number.'
        ),
    )
    assert filled_form_text(fields) == (
        "Filled 1 of 2 fields:\n"
        '  [name=size] (radio): checked "Large" (value "L")\n'
        '  #qty (number): It holds "" after "abc" was typed: a number field takes only a number.'
    )


def test_a_hidden_input_set_through_its_label_says_so() -> None:
    fields = (
        FieldOutcome(
            "[name=size]",
            None,
            "radio",
            checked=True,
            chosen=(ChosenOption("Large", "L"),),
            through_label='label.pill "Large"',
        ),
        FieldOutcome("#gift", None, "checkbox", checked=True, through_label='label.pill "Gift wrap"'),
    )
    assert filled_form_text(fields) == (
        "Filled 2 of 2 fields:\n"
        '  [name=size] (radio): checked "Large" (value "L"), set through its label label.pill "Large"\n'
        '  #gift (checkbox): checked, set through its label label.pill "Gift wrap"'
    )


def test_long_values_and_selectors_are_cut_with_the_mark() -> None:
    text = filled_form_text((FieldOutcome("#" + "s" * 100, None, "textarea", value_after="v" * 100),))
    assert text.startswith("Filled 1 of 1 field:\n  #" + "s" * 67 + '…[+33 chars] (textarea): "' + "v" * 68)
    assert text.endswith('…[+32 chars]"')


def test_what_the_form_caused_follows_the_fields() -> None:
    effects = Effects(
        navigation=Navigation("http://127.0.0.1/done", "Done", same_document=False, finished=True),
        console=[ConsoleEntry("log", "saved", None, None, (), 0, 1)],
    )
    first = filled_form_text((FieldOutcome("#q", None, "search", value_after="cdp"),))
    assert action_lines(first, ActionReport(None, effects)) == [
        'Filled 1 of 1 field:\n  #q (search): "cdp"',
        'Navigated to http://127.0.0.1/done (title "Done").',
        "Console: [log] saved",
    ]
