"""The DOM tools' answers (query cards, selector suggestions, waits), on hand-built facts."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.element_answers import (
    blocks_answer,
    element_block_text,
    element_head_line,
    inspect_answer,
    no_match_answer,
    query_answer,
    wait_answer,
)
from cdpilot.browser.dom.element_facts import (
    ElementSummary,
    InspectCandidate,
    InspectFindings,
    InteractiveControl,
    QueryFindings,
    SelectorSuggestion,
    SimilarNames,
    UnsearchedFrame,
    WaitResult,
)

FORM = ElementSummary(
    index=0,
    tag="form",
    id="login",
    classes=("card", "wide"),
    visible=True,
    text="Email Password Sign in",
    value="",
    disabled=False,
    checked=False,
    where="",
    opening_tag='<form id="login" class="card wide">',
    structure="form > label*2+input*2+button",
    children=5,
    descendants=5,
    interactive=(
        InteractiveControl("#email", "email", ""),
        InteractiveControl("#password", "password", ""),
        InteractiveControl("button.primary", "", "Sign in"),
    ),
    interactive_total=4,
)
BUTTON = replace(
    FORM,
    index=3,
    tag="button",
    id="",
    classes=("btn", "primary", "large", "round", "shadow"),
    text="Go",
    disabled=True,
    where="iframe#pay",
    opening_tag='<button class="btn primary large round shadow" disabled>',
    structure="",
    children=0,
    descendants=0,
    interactive=(),
    interactive_total=0,
)
NO_MATCH = SimilarNames(
    ids=("email",), classes=(), tags=("button",), some_ids=(), id_count=3, elements=40, shadow_roots=1, frames=0
)


def test_an_element_head_says_who_and_how() -> None:
    assert element_head_line(FORM) == '[0] form#login.card.wide "Email Password Sign in" visible'
    assert element_head_line(BUTTON) == '[3] button.btn.primary.large.round… "Go" visible, disabled, in iframe#pay'
    field = replace(BUTTON, tag="input", classes=(), text="", disabled=False, checked=True, value="•••", where="")
    assert element_head_line(field) == '[3] input visible, checked, value="•••"'


def test_an_element_block_adds_markup_structure_and_controls() -> None:
    assert element_block_text(FORM) == (
        '[0] form#login.card.wide "Email Password Sign in" visible\n'
        '  <form id="login" class="card wide">\n'
        "  form > label*2+input*2+button (5 children, 5 descendants)\n"
        '  interactive (4): #email (email), #password (password), button.primary "Sign in", +1 more '
        "({tool:query_elements} with a selector inside it lists them)"
    )
    assert element_block_text(BUTTON) == element_head_line(BUTTON) + "\n" + "  " + BUTTON.opening_tag


def test_a_query_answer_sums_up_its_filters() -> None:
    found = QueryFindings(total=6, hidden=2, without_text=1, kept=3, elements=(FORM,), similar=None)
    assert query_answer(found, selector="form", text_contains="mail", max_chars=5000) == (
        '6 match "form" (2 hidden removed, 1 without text "mail" removed); showing 1 of 3. '
        "[index] counts all matches, as {tool:click_element} does.\n" + element_block_text(FORM)
    )


def test_a_query_of_only_hidden_matches_says_how_to_see_them() -> None:
    found = QueryFindings(total=2, hidden=2, without_text=0, kept=0, elements=(), similar=None)
    assert query_answer(found, selector=".tip", text_contains=None, max_chars=5000) == (
        '2 match ".tip", all hidden; {param:query_elements.include_hidden}=true shows them.'
    )


def test_a_query_whose_matches_all_lack_the_text_says_so() -> None:
    found = QueryFindings(total=3, hidden=0, without_text=3, kept=0, elements=(), similar=None)
    assert query_answer(found, selector="li", text_contains="Paris", max_chars=5000) == (
        '3 match "li", none with text "Paris".'
    )
    found = QueryFindings(total=3, hidden=1, without_text=2, kept=0, elements=(), similar=None)
    assert query_answer(found, selector="li", text_contains="Paris", max_chars=5000) == (
        '3 match "li", 1 hidden, the other 2 without text "Paris"; '
        "{param:query_elements.include_hidden}=true shows the hidden ones."
    )


def test_a_match_in_a_cross_origin_frame_gives_its_scoped_selector() -> None:
    card = replace(BUTTON, where="iframe#pay (http://localhost/pay)", scope="iframe#pay >> ")
    assert element_head_line(card, "button") == (
        '[3] button.btn.primary.large.round… "Go" visible, disabled, in iframe#pay (http://localhost/pay), '
        "select with: iframe#pay >> button"
    )


def test_no_match_names_what_is_similar() -> None:
    found = QueryFindings(total=0, hidden=0, without_text=0, kept=0, elements=(), similar=NO_MATCH)
    assert query_answer(found, selector="#emial", text_contains=None, max_chars=5000) == (
        'No element matches "#emial" (searched 40 elements, 1 shadow root).\n'
        "Similar ids: #email\n"
        "Similar tags: button\n"
        'Try a broader selector, or {tool:inspect_element} with {param:inspect_element.description}="…" '
        "to find one from words."
    )


def test_no_match_without_anything_similar_samples_the_ids() -> None:
    nothing = replace(NO_MATCH, ids=(), tags=(), some_ids=("app", "nav"), shadow_roots=0, frames=2)
    assert no_match_answer(".x", nothing).splitlines()[:2] == [
        'No element matches ".x" (searched 40 elements, 2 iframes).',
        "Ids on the page: #app, #nav (3 in all).",
    ]
    assert "The page has no ids." in no_match_answer(".x", replace(nothing, some_ids=()))


FRAME = "iframe#pay (http://localhost:8000/pay.html)"
LATE = UnsearchedFrame("div#ads > iframe", "http://localhost:8000/ad.html", "no frame target attached")


def test_no_match_names_the_cross_origin_iframes_searched_and_those_not_searched() -> None:
    found = QueryFindings(0, 0, 0, 0, (), NO_MATCH, cross_origin=(FRAME,), unsearched=(LATE,))
    assert query_answer(found, selector="#emial", text_contains=None, max_chars=5000) == (
        'No element matches "#emial" (searched 40 elements, 1 shadow root, 1 cross-origin iframe: '
        "iframe#pay (http://localhost:8000/pay.html)).\n"
        "1 cross-origin iframe was not searched: div#ads > iframe (http://localhost:8000/ad.html): "
        "no frame target attached.\n"
        "Similar ids: #email\n"
        "Similar tags: button\n"
        'Try a broader selector, or {tool:inspect_element} with {param:inspect_element.description}="…" '
        "to find one from words."
    )
    nothing = replace(NO_MATCH, ids=(), tags=(), some_ids=())
    assert no_match_answer(".x", nothing, unsearched=(LATE, replace(LATE, url=""))).splitlines()[1:3] == [
        "2 cross-origin iframes were not searched: div#ads > iframe (http://localhost:8000/ad.html): "
        "no frame target attached; div#ads > iframe: no frame target attached.",
        "The page has no ids.",
    ]


def test_a_query_with_matches_says_which_cross_origin_iframes_were_not_searched() -> None:
    found = QueryFindings(1, 0, 0, 1, (replace(BUTTON, index=0, where=FRAME),), None, (FRAME,), (LATE,))
    assert query_answer(found, selector="button", text_contains=None, max_chars=5000).splitlines()[:3] == [
        '1 match "button"; showing 1 of 1.',
        "1 cross-origin iframe was not searched: div#ads > iframe (http://localhost:8000/ad.html): "
        "no frame target attached.",
        f'[0] button.btn.primary.large.round… "Go" visible, disabled, in {FRAME}',
    ]


def test_blocks_past_the_budget_are_shortened_and_the_answer_says_so() -> None:
    blocks = [("F" * 300, "short one"), ("G" * 300, "short two")]
    assert blocks_answer("Summary.", blocks, 750, "narrow it") == "\n".join(
        ["Summary.", "F" * 300, "short two", "(Shortened 1 of 2 to stay under the answer limit; narrow it.)"]
    )
    assert blocks_answer("Summary.", blocks, 5000, "narrow it") == "\n".join(["Summary.", "F" * 300, "G" * 300])


def test_an_inspect_answer_ranks_candidates_and_their_selectors() -> None:
    candidate = InspectCandidate(
        description='button#submit "Sign in"',
        where="",
        visible=True,
        score=92,
        reasons=("text", "role"),
        selectors=(SelectorSuggestion("#submit", 95, "unique id"), SelectorSuggestion("form > button", 30, "path")),
    )
    found = InspectFindings(candidates=(candidate,), total=3, scored=120)
    assert inspect_answer(found, wanted=['"sign in button"'], max_chars=5000) == (
        '3 candidates for "sign in button"; showing 1, best first. Selectors are unique, ranked by stability '
        "(0-100).\n"
        '1. button#submit "Sign in" (visible) match 92%: text, role\n'
        "  95 #submit  (unique id)\n"
        "  30 form > button  (path)"
    )


def test_an_inspect_answer_with_no_candidate_says_how_to_look() -> None:
    found = InspectFindings(candidates=(), total=0, scored=57)
    assert inspect_answer(found, wanted=['text "Nope"'], max_chars=5000).startswith(
        'No element resembles text "Nope" (scored 57 elements).\nList elements by CSS'
    )


def test_wait_answers() -> None:
    visible = WaitResult('"#late" to be visible', 'p#late "Arrived"', "iframe#f", 1, 120)
    assert wait_answer(visible, selector="#late", state="visible") == (
        '"#late" is visible after 120 ms: p#late "Arrived" (in iframe#f).'
    )
    gone = WaitResult('"#spinner" to be hidden', "", "", 0, 40)
    assert wait_answer(gone, selector="#spinner", state="hidden") == (
        '"#spinner" is hidden after 40 ms (no element matches any more).'
    )
    assert wait_answer(replace(gone, count=2), selector="#spinner", state="hidden").endswith("(2 match, none visible).")
    text = WaitResult('any of "Done"', "Done", "", None, 8)
    assert wait_answer(text, selector=None, state="visible") == 'Text "Done" appeared after 8 ms.'
