"""Answers about leaving a page: a beforeunload dialog that holds a navigation, a close or an
action, its answer, and a load that ran out of time after its document committed."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.action_answers import dialog_answered_line, effects_lines
from cdpilot.answers.page_answers import close_answered_answer, closed_target_answer, navigation_answer, new_tab_answer
from cdpilot.answers.page_leaving_answers import closed_itself_line
from cdpilot.browser.dom.element_facts import Effects, Navigation
from cdpilot.browser.page.page_facts import DialogInfo, LoadProgress, NavigationResult
from cdpilot.browser.page.tab_facts import CloseAsked, TargetClosed, TargetEntry

ASKING = DialogInfo("beforeunload", "", "")
FORM = TargetEntry(1, "T1", "page", "Draft", "http://127.0.0.1:8000/draft", current=True)
HOME = TargetEntry(0, "T0", "page", "Home", "http://127.0.0.1:8000/", current=True)
HELD = NavigationResult(
    "goto", "http://127.0.0.1:8000/draft", "Draft", None, "load", 12, asked=ASKING, to="http://127.0.0.1:8000/"
)
CHOICE = "Answer with {tool:handle_dialog}: {param:handle_dialog.accept}=true leaves, false stays."
SLOW = NavigationResult(
    "goto",
    "http://127.0.0.1:8000/slow",
    "Slow",
    200,
    "load",
    1502,
    unfinished=LoadProgress(1500, True, ("http://127.0.0.1:8000/hang",), 1),
)


def test_a_navigation_held_by_beforeunload_says_the_page_has_not_moved_and_how_to_answer() -> None:
    assert navigation_answer(HELD) == (
        "The page asks to confirm leaving (its beforeunload dialog is open), so the navigation to "
        'http://127.0.0.1:8000/ waits: the page is still at http://127.0.0.1:8000/draft ("Draft").\n' + CHOICE
    )
    assert navigation_answer(replace(HELD, kind="reload", title="")) == (
        "The page asks to confirm leaving (its beforeunload dialog is open), so the reload waits: "
        "the page is still at http://127.0.0.1:8000/draft.\n" + CHOICE
    )
    assert "going back waits" in navigation_answer(replace(HELD, kind="back"))


def test_a_close_held_by_beforeunload_and_its_answer() -> None:
    assert closed_target_answer(CloseAsked(FORM)) == (
        "The page asks to confirm leaving (its beforeunload dialog is open), so [1] Draft is not closed yet; "
        "it stays the current page.\n"
        "Answer with {tool:handle_dialog}: {param:handle_dialog.accept}=true closes it, false keeps it open."
    )
    assert close_answered_answer(FORM, None) == (
        "Dismissed the beforeunload dialog: [1] Draft stays open, the current page."
    )
    assert close_answered_answer(FORM, TargetClosed(FORM, HOME)) == (
        "Accepted leaving the page (its beforeunload dialog).\n"
        "Closed [1] Draft.\n"
        "Current page: *[0] Home — http://127.0.0.1:8000/"
    )


def test_an_action_whose_navigation_waits_on_beforeunload() -> None:
    waiting = Navigation("http://127.0.0.1:8000/next", "", same_document=False, finished=False)
    assert effects_lines(Effects(dialog=ASKING, navigation=waiting, timeout_ms=5000)) == [
        "The page asks to confirm leaving (its beforeunload dialog is open), so the navigation to "
        "http://127.0.0.1:8000/next waits.",
        CHOICE,
    ]
    assert effects_lines(Effects(dialog=ASKING)) == [
        "The page asks to confirm leaving (its beforeunload dialog is open).",
        CHOICE,
    ]


def test_a_beforeunload_dialog_answered() -> None:
    assert dialog_answered_line(ASKING, accepted=True, prompt_text=None) == (
        "Accepted leaving the page (its beforeunload dialog)."
    )
    assert dialog_answered_line(ASKING, accepted=False, prompt_text="x") == (
        "Dismissed the beforeunload dialog: the page stays."
    )


def test_a_committed_load_that_ran_out_of_time_says_how_far_it_got() -> None:
    assert navigation_answer(SLOW) == (
        "Navigated to http://127.0.0.1:8000/slow (HTTP 200, after 1502 ms)\n"
        "Title: Slow\n"
        "'load' was not reached within 1500 ms.\n"
        "The document is parsed (DOMContentLoaded fired): the page can be used, queries and actions work.\n"
        "1 request still pending:\n"
        "  http://127.0.0.1:8000/hang"
    )


def test_an_unparsed_document_with_more_pending_requests_than_listed() -> None:
    progress = LoadProgress(800, False, ("http://a.test/1.js", "http://a.test/2.js"), 9)
    assert navigation_answer(replace(SLOW, kind="reload", elapsed_ms=801, unfinished=progress)) == (
        "Reloaded http://127.0.0.1:8000/slow (HTTP 200, after 801 ms)\n"
        "Title: Slow\n"
        "'load' was not reached within 800 ms.\n"
        "The document is not parsed yet (no DOMContentLoaded): queries see the part parsed so far.\n"
        "9 requests still pending:\n"
        "  http://a.test/1.js\n"
        "  http://a.test/2.js\n"
        "  … 7 more; {tool:list_network_requests} lists them all."
    )
    nothing = LoadProgress(500, True, (), 0)
    assert navigation_answer(replace(SLOW, wait_until="networkidle", unfinished=nothing)).endswith(
        "'networkidle' was not reached within 500 ms.\n"
        "The document is parsed (DOMContentLoaded fired): the page can be used, queries and actions work.\n"
        "No request is pending."
    )


def test_a_new_tab_whose_load_ran_out_of_time() -> None:
    assert new_tab_answer(HOME, replace(SLOW, unfinished=LoadProgress(30000, True, (), 0))) == (
        "Opened a new tab [0], now the current page.\n"
        "Went to http://127.0.0.1:8000/slow (HTTP 200). Title: Slow\n"
        "'load' was not reached within 30000 ms.\n"
        "The document is parsed (DOMContentLoaded fired): the page can be used, queries and actions work.\n"
        "No request is pending."
    )


def test_a_page_that_closed_itself_names_it_and_the_page_current_now() -> None:
    popup = TargetEntry(None, "T2", "page", "Sign in", "http://127.0.0.1:8000/sign-in", False)
    shop = TargetEntry(0, "T1", "page", "Shop", "http://127.0.0.1:8000/shop", True)
    assert closed_itself_line("Clicked #allow", TargetClosed(popup, shop)) == (
        'Clicked #allow; the tab closed itself ("Sign in" http://127.0.0.1:8000/sign-in); the current page is now '
        '[0] "Shop" http://127.0.0.1:8000/shop.'
    )
    untitled = replace(popup, title="")
    assert "(http://127.0.0.1:8000/sign-in)" in closed_itself_line("Clicked #allow", TargetClosed(untitled, shop))
