"""The answers after an action (click, fill, hover, press, select, dialogs), on hand-built facts."""

from __future__ import annotations

from cdpilot.answers.action_answers import (
    action_lines,
    clicked_line,
    context_lines,
    dialog_answered_line,
    effects_lines,
    filled_line,
    hovered_line,
    pressed_line,
    scrolled_line,
    selected_line,
    target_text,
)
from cdpilot.browser.dom.element_facts import (
    ActionReport,
    ChosenOption,
    Effects,
    ElementTarget,
    FileChooser,
    Navigation,
    OpenedPage,
    PageContext,
)
from cdpilot.browser.dom.scroll_facts import ScrollMove, ScrollReport
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.browser.page.page_facts import DialogInfo

GO = ElementTarget('button#go "Go"', "", 0, 1)
SECOND = ElementTarget('li.item "Two"', "iframe#list", 1, 3)
DONE = Effects()


def _log(text: str, count: int = 1) -> ConsoleEntry:
    return ConsoleEntry("log", text, None, None, (), 0, count)


def test_the_target_says_where_and_which_match() -> None:
    assert target_text(GO) == 'button#go "Go"'
    assert target_text(SECOND) == 'li.item "Two" (in iframe#list) (match 2 of 3)'
    assert target_text(None) == "the page"


def test_first_lines() -> None:
    assert clicked_line(ActionReport(GO, DONE), button="left", click_count=1) == 'Clicked button#go "Go".'
    assert clicked_line(ActionReport(GO, DONE), button="right", click_count=2) == (
        'Double-clicked button#go "Go" with the right button.'
    )
    through = ActionReport(GO, DONE, through_label='label.pill "Go"', checked=True)
    assert clicked_line(through, button="left", click_count=1) == (
        'Clicked button#go "Go" through its label label.pill "Go" (the input itself is hidden); it is now checked.'
    )
    assert hovered_line(ActionReport(SECOND, DONE)) == 'Hovered li.item "Two" (in iframe#list) (match 2 of 3).'
    assert pressed_line(ActionReport(None, DONE), "Control+A") == "Pressed Control+A."
    assert pressed_line(ActionReport(GO, DONE), "Enter") == 'Pressed Enter in button#go "Go".'
    chosen = ActionReport(GO, DONE, chosen=(ChosenOption("Large", "l"),))
    assert selected_line(chosen) == 'Selected "Large" (value "l") in button#go "Go".'


def test_a_fill_echoes_the_text_unless_it_is_a_password() -> None:
    field = ElementTarget("input#email", "", 0, 1)
    assert filled_line(ActionReport(field, DONE), "a@b.c", submitted=True) == (
        'Filled input#email with "a@b.c" and pressed Enter.'
    )
    assert filled_line(ActionReport(field, DONE, masked=True), "hunter2", submitted=False) == (
        "Filled input#email with 7 characters."
    )
    trimmed = ActionReport(field, DONE, value_after="12")
    assert filled_line(trimmed, "123", submitted=False) == 'Filled input#email with "123". Now the field holds "12".'


def test_a_dialog_answered() -> None:
    prompt = DialogInfo("prompt", "Your name?", "")
    assert dialog_answered_line(prompt, accepted=True, prompt_text="Ada") == (
        'Accepted the prompt dialog "Your name?" with "Ada".'
    )
    assert (
        dialog_answered_line(prompt, accepted=False, prompt_text="Ada") == 'Dismissed the prompt dialog "Your name?".'
    )


def test_effects_a_dialog_a_navigation_and_console_output() -> None:
    effects = Effects(
        dialog=DialogInfo("alert", "Saved", ""),
        navigation=Navigation("http://127.0.0.1:8000/next", "Next", same_document=False, finished=True),
        console=[_log("saved", 2)],
    )
    assert effects_lines(effects) == [
        'Opened an alert dialog: "Saved" — answer it with {tool:handle_dialog}.',
        'Navigated to http://127.0.0.1:8000/next (title "Next").',
        "Console: [log] saved (×2)",
    ]


def test_navigations_in_the_page_and_unfinished() -> None:
    inside = Effects(navigation=Navigation("http://127.0.0.1:8000/#two", "", same_document=True, finished=True))
    assert effects_lines(inside) == ["Navigated within the page to http://127.0.0.1:8000/#two."]
    slow = Effects(navigation=Navigation("http://127.0.0.1:8000/slow", "", False, False), timeout_ms=5000)
    assert effects_lines(slow) == ["A navigation to http://127.0.0.1:8000/slow started; not loaded within 5000 ms."]


def test_a_new_page_is_named_with_its_index_and_the_switch_to_it() -> None:
    loaded = OpenedPage(2, "Summary", "http://127.0.0.1:8000/summary")
    loading = OpenedPage(1, "127.0.0.1:8000/next", "http://127.0.0.1:8000/next")
    gone = OpenedPage(None, "", "")
    assert effects_lines(Effects(opened_pages=[loaded, loading, gone], console=[_log("opened")])) == [
        'Opened a new page [2] "Summary" at http://127.0.0.1:8000/summary; this page stays current: '
        "{tool:switch_target} with {param:switch_target.index}=2 switches to it.",
        "Opened a new page [1] at http://127.0.0.1:8000/next; this page stays current: "
        "{tool:switch_target} with {param:switch_target.index}=1 switches to it.",
        "Opened a new page at about:blank; it closed again at once.",
        "Console: [log] opened",
    ]


def test_a_file_chooser_is_named_and_said_to_be_closed() -> None:
    assert effects_lines(Effects(file_chooser=FileChooser("input#avatar", multiple=False))) == [
        "Opened a file chooser for input#avatar (to pick a file); cdpilot closed it unanswered: "
        "upload with {tool:upload_file} into input#avatar."
    ]
    assert effects_lines(Effects(file_chooser=FileChooser("", multiple=True))) == [
        "Opened a file chooser (to pick several files); cdpilot closed it unanswered: "
        "upload with {tool:upload_file} into its input."
    ]


def test_much_console_output_is_cut_with_a_count_of_the_rest() -> None:
    effects = Effects(console=[_log(f"line {n}") for n in range(7)])
    assert effects_lines(effects) == [
        "Console (7):",
        *(f"  [log] line {n}" for n in range(5)),
        "  …2 more: {tool:get_console_logs}",
    ]


def test_context_lines_and_the_whole_answer() -> None:
    context = PageContext("Checkout", "http://127.0.0.1:8000/cart", 'value "3", focused')
    assert context_lines(context) == ['Element: value "3", focused', 'Page: "Checkout" http://127.0.0.1:8000/cart']
    assert context_lines(PageContext("T" * 100, "http://x/")) == [f'Page: "{"T" * 68}…[+32 chars]" http://x/']
    report = ActionReport(GO, Effects(console=[_log("clicked")]), context=context)
    assert action_lines("Clicked.", report) == [
        "Clicked.",
        "Console: [log] clicked",
        'Element: value "3", focused',
        'Page: "Checkout" http://127.0.0.1:8000/cart',
    ]


def test_scroll_answers_say_what_moved_and_where_it_is_now() -> None:
    page = ScrollMove("the page", 0, 630, 8000, 720)
    assert scrolled_line(ScrollReport(None, "down", (page,))) == (
        "Scrolled the page down 630 px (now at 630–1,350 of 8,000 px)."
    )
    bottom = ScrollMove("div#box", 1700, 1700, 2000, 300)
    assert scrolled_line(ScrollReport(None, "down", (bottom,))) == (
        "Nothing moved: div#box is at the bottom, 1,700–2,000 of 2,000 px."
    )
    searched = ScrollMove("div#vlist", 0, 1315, 30000, 300)
    assert scrolled_line(ScrollReport(None, "down", (searched,), until="Row 5000", steps=5, stop="steps")) == (
        '"Row 5000" is not in the page: stopped after 5 steps down, the most this search takes without finding it; '
        "div#vlist down 1,315 px (now at 1,315–1,615 of 30,000 px)."
    )
    found = ScrollReport(
        None, "down", (searched,), until="Row 44", found='div.row "Row 44"', found_by="text", steps=5, in_view=True
    )
    assert scrolled_line(found) == (
        'Found "Row 44" in div.row "Row 44" after 5 steps down; scrolled it into view: '
        "div#vlist down 1,315 px (now at 1,315–1,615 of 30,000 px)."
    )
