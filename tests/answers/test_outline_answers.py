"""The page outline's answer: its lines, its header, and the cut with its count and hint."""

from __future__ import annotations

from cdpilot.answers.outline_answers import entry_line, outline_answer
from cdpilot.browser.outline.outline_facts import OutlineEntry, PageOutline

SHOP = PageOutline(
    "Shop",
    "",
    0,
    (
        OutlineEntry("landmark", "navigation", "Main", 0, 'nav[aria-label="Main"]', inside=1),
        OutlineEntry("control", "link", "Tents", 1, 'a[href="/tents"]'),
        OutlineEntry("landmark", "main", "", 0, "#content", inside=8),
        OutlineEntry("heading", "h1", "Checkout", 1, ""),
        OutlineEntry("control", "textbox", "Email", 2, "#email", value="ada@example.test", states=("required",)),
        OutlineEntry("control", "checkbox", "Terms", 2, 'input[name="terms"]', states=("checked",)),
        OutlineEntry("control", "button", "Place order", 2, 'button[type="submit"]', states=("disabled",)),
        OutlineEntry("frame", "iframe", "Pay", 1, "#pay", inside=2, frame_url="http://localhost:8000/pay"),
        OutlineEntry("control", "textbox", "Card", 2, "#card"),
        OutlineEntry("control", "button", "Pay", 2, "#pay-btn"),
        OutlineEntry("frame", "iframe", "Ads", 1, "#ads", not_outlined="it did not answer"),
    ),
)


def test_a_control_line_has_its_role_name_value_states_and_selector() -> None:
    entry = OutlineEntry("control", "textbox", "Email", 2, "#email", value="ada@example.test", states=("required",))
    assert entry_line(entry) == '    textbox "Email" = "ada@example.test" [required] #email'
    assert entry_line(OutlineEntry("control", "textbox", "", 0, "textarea")) == "textbox textarea"
    long = OutlineEntry("control", "link", "n" * 100, 0, "a", value="v" * 50)
    assert entry_line(long) == 'link "' + "n" * 48 + '…[+52 chars]" = "' + "v" * 28 + '…[+22 chars]" a'


def test_the_whole_outline_is_indented_by_structure_and_names_cross_origin_frames() -> None:
    assert outline_answer(SHOP, max_chars=4000) == (
        'Outline of "Shop" (6 controls; role "name" = value [state] selector):\n'
        "Selectors inside cross-origin iframes work with the element tools, which search those frames too.\n"
        "1 cross-origin iframe not outlined (reasons on their lines).\n"
        'navigation "Main" nav[aria-label="Main"]\n'
        '  link "Tents" a[href="/tents"]\n'
        "main #content\n"
        '  h1 "Checkout"\n'
        '    textbox "Email" = "ada@example.test" [required] #email\n'
        '    checkbox "Terms" [checked] input[name="terms"]\n'
        '    button "Place order" [disabled] button[type="submit"]\n'
        '  iframe "Pay" #pay (cross-origin: http://localhost:8000/pay)\n'
        '    textbox "Card" #card\n'
        '    button "Pay" #pay-btn\n'
        '  iframe "Ads" #ads (cross-origin, not outlined: it did not answer)'
    )


def test_a_scoped_outline_says_which_match_it_outlines() -> None:
    scoped = PageOutline("Shop", "main", 2, SHOP.entries[2:7])
    assert outline_answer(scoped, max_chars=4000).splitlines()[0] == (
        'Outline of "main" (first of 2 matches; 3 controls; role "name" = value [state] selector):'
    )
    framed = PageOutline("Shop", "form", 1, SHOP.entries[8:10], "iframe#pay (http://localhost:8000/pay)")
    assert outline_answer(framed, max_chars=4000) == (
        'Outline of "form" in iframe#pay (http://localhost:8000/pay) (2 controls; role "name" = value [state] '
        "selector):\n"
        "Selectors inside cross-origin iframes work with the element tools, which search those frames too.\n"
        '    textbox "Card" #card\n'
        '    button "Pay" #pay-btn'
    )
    empty = PageOutline("Shop", "#spacer", 1, ())
    assert outline_answer(empty, max_chars=4000) == 'Outline of "#spacer": no landmarks, headings or controls.'


def test_a_cut_outline_counts_what_is_left_and_names_the_parts_to_outline_alone() -> None:
    links = tuple(OutlineEntry("control", "link", f"Item {i}", 1, f'a[href="/item/{i}"]') for i in range(500))
    page = PageOutline(
        "Sitemap",
        "",
        0,
        (
            OutlineEntry("landmark", "main", "", 0, "body > main", inside=500),
            *links,
            OutlineEntry("landmark", "contentinfo", "", 0, "body > footer", inside=1),
            OutlineEntry("control", "link", "About", 1, 'a[href="/about"]'),
        ),
    )
    text = outline_answer(page, max_chars=600)
    assert len(text) <= 600
    assert text == (
        'Outline of "Sitemap" (501 controls; role "name" = value [state] selector):\n'
        "main body > main\n"
        '  link "Item 0" a[href="/item/0"]\n'
        '  link "Item 1" a[href="/item/1"]\n'
        '  link "Item 2" a[href="/item/2"]\n'
        '  link "Item 3" a[href="/item/3"]\n'
        '  link "Item 4" a[href="/item/4"]\n'
        '  link "Item 5" a[href="/item/5"]\n'
        '  link "Item 6" a[href="/item/6"]\n'
        '  link "Item 7" a[href="/item/7"]\n'
        '  link "Item 8" a[href="/item/8"]\n'
        '  link "Item 9" a[href="/item/9"]\n'
        "…492 more items (491 controls) not shown. Outline one part with {param:selector}: "
        '"body > main" (500 items), "body > footer" (1 item).'
    )


def test_a_cut_outline_without_landmarks_points_at_a_container() -> None:
    links = tuple(OutlineEntry("control", "link", f"Item {i}", 0, f"#i{i}") for i in range(100))
    text = outline_answer(PageOutline("Plain", "", 0, links), max_chars=500)
    assert text.endswith(
        "…84 more items (84 controls) not shown. "
        "Outline one part with {param:selector} (a container; {tool:query_elements} finds one)."
    )
    assert len(text) <= 500


def test_one_budget_holds_the_whole_outline_with_the_cross_origin_frame_named_as_a_part() -> None:
    fields = tuple(OutlineEntry("control", "textbox", f"Field {i}", 1, f"#f{i}") for i in range(50))
    page = PageOutline(
        "Pay",
        "",
        0,
        (
            OutlineEntry("control", "button", "Here", 0, "#here"),
            OutlineEntry("frame", "iframe", "Card", 0, "#card", inside=50, frame_url="http://localhost:8000/card"),
            *fields,
        ),
    )
    text = outline_answer(page, max_chars=420)
    assert len(text) <= 420
    assert text == (
        'Outline of "Pay" (51 controls; role "name" = value [state] selector):\n'
        "Selectors inside cross-origin iframes work with the element tools, which search those frames too.\n"
        'button "Here" #here\n'
        'iframe "Card" #card (cross-origin: http://localhost:8000/card)\n'
        '  textbox "Field 0" #f0\n'
        '  textbox "Field 1" #f1\n'
        "…48 more items (48 controls) not shown. Outline one part with {param:selector}: "
        '"#card" (50 items).'
    )
