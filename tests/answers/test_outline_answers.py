"""The page outline's answer: its lines, its header, and the cut with its count and hint."""

from __future__ import annotations

import re

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
        OutlineEntry("control", "textbox", "Card", 2, "iframe#pay >> #card"),
        OutlineEntry("control", "button", "Pay", 2, "iframe#pay >> #pay-btn"),
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
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.\n"
        "1 cross-origin iframe not outlined (reasons on their lines).\n"
        'navigation "Main" nav[aria-label="Main"]\n'
        '  link "Tents" a[href="/tents"]\n'
        "main #content\n"
        '  h1 "Checkout"\n'
        '    textbox "Email" = "ada@example.test" [required] #email\n'
        '    checkbox "Terms" [checked] input[name="terms"]\n'
        '    button "Place order" [disabled] button[type="submit"]\n'
        '  iframe "Pay" #pay (cross-origin: http://localhost:8000/pay)\n'
        '    textbox "Card" iframe#pay >> #card\n'
        '    button "Pay" iframe#pay >> #pay-btn\n'
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
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.\n"
        '    textbox "Card" iframe#pay >> #card\n'
        '    button "Pay" iframe#pay >> #pay-btn'
    )
    empty = PageOutline("Shop", "#spacer", 1, ())
    assert outline_answer(empty, max_chars=4000) == 'Outline of "#spacer": no landmarks, headings or controls.'


def test_a_cut_outline_is_a_map_with_a_long_run_on_one_line_and_the_part_that_holds_it_named() -> None:
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
    assert outline_answer(page, max_chars=600) == (
        'Outline of "Sitemap" (501 controls; role "name" = value [state] selector):\n'
        "main body > main\n"
        '  500 links: "Item 0", "Item 1", "Item 2", "Item 3", "Item 4" … (+495)\n'
        "contentinfo body > footer\n"
        '  link "About" a[href="/about"]\n'
        '…495 items (495 controls) not shown. Outline one part with {param:selector}: "body > main" (500 items).'
    )
    alone = outline_answer(PageOutline("Sitemap", "body > main", 1, page.entries[:501]), max_chars=400)
    assert alone.splitlines()[1:4] == [
        "main body > main",
        '  link "Item 0" a[href="/item/0"]',
        '  link "Item 1" a[href="/item/1"]',
    ]
    assert alone.splitlines()[-1] == (
        '…495 items (495 controls) not shown: {tool:page_outline} with {param:selector}="body > main" and '
        "{param:offset}=6 continues."
    ), alone
    assert len(alone) <= 400


def test_a_table_in_a_map_shows_its_caption_headers_and_first_rows_and_alone_as_many_rows_as_fit() -> None:
    rows = []
    for i in range(50):
        rows += [OutlineEntry("row", "row", "", 2, "", cells=(f"A-{i}", f"Customer {i}"), inside=1)]
        rows += [OutlineEntry("control", "link", f"A-{i}", 3, f'a[href="/o/{i}"]')]
    table = OutlineEntry("table", "table", "Orders", 1, "#orders", inside=100, cells=("Order", "Customer"), rows=50)
    page = PageOutline(
        "Shop",
        "",
        0,
        (
            OutlineEntry("landmark", "main", "", 0, "main", inside=104),
            table,
            *rows,
            OutlineEntry("landmark", "region", "Help", 1, "#help", inside=2),
            OutlineEntry("heading", "h2", "Help", 2, ""),
            OutlineEntry("control", "link", "FAQ", 3, 'a[href="/faq"]'),
        ),
    )
    assert outline_answer(page, max_chars=1000) == (
        'Outline of "Shop" (51 controls; role "name" = value [state] selector):\n'
        "main main\n"
        '  table "Orders" #orders (50 rows)\n'
        '    columns: "Order" | "Customer"\n'
        '    row: "A-0" | "Customer 0"\n'
        '      link "A-0" a[href="/o/0"]\n'
        '    row: "A-1" | "Customer 1"\n'
        '      link "A-1" a[href="/o/1"]\n'
        '    row: "A-2" | "Customer 2"\n'
        '      link "A-2" a[href="/o/2"]\n'
        "    …47 more rows (47 controls) not shown\n"
        '  region "Help" #help\n'
        '    h2 "Help"\n'
        '      link "FAQ" a[href="/faq"]\n'
        '…94 items (47 rows, 47 controls) not shown. Outline one part with {param:selector}: "#orders" (50 rows).'
    )
    alone = outline_answer(PageOutline("Shop", "#orders", 1, page.entries[1:102]), max_chars=1000)
    shown = [line for line in alone.splitlines() if line.startswith("    row: ")]
    assert len(shown) > 3 and len(alone) <= 1000 and '"#orders" (' not in alone.splitlines()[-1], alone


def test_a_cut_outline_without_landmarks_gives_the_offset_that_continues_it() -> None:
    links = tuple(OutlineEntry("control", "link", f"Item {i}", 0, f"#i{i}") for i in range(100))
    text = outline_answer(PageOutline("Plain", "", 0, links), max_chars=500)
    assert text.endswith("…83 items (83 controls) not shown: {tool:page_outline} with {param:offset}=17 continues.")
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
    text = outline_answer(page, max_chars=560)
    assert len(text) <= 560
    assert text == (
        'Outline of "Pay" (51 controls; role "name" = value [state] selector):\n'
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.\n"
        'button "Here" #here\n'
        'iframe "Card" #card (cross-origin: http://localhost:8000/card)\n'
        '  50 textboxes: "Field 0", "Field 1", "Field 2", "Field 3", "Field 4" … (+45)\n'
        "…45 items (45 controls) not shown. Outline one part with {param:selector}: "
        '"#card" (50 items).'
    )


def _walk(outline: PageOutline, max_chars: int) -> list[str]:
    """Every answer met by following the outline's own offsets from its start."""
    answers = [outline_answer(outline, max_chars=max_chars)]
    while (found := re.search(r"\{param:offset\}=(\d+) continues\.$", answers[-1])) is not None:
        answers.append(outline_answer(outline, max_chars=max_chars, offset=int(found[1])))
    return answers


def test_following_the_offsets_shows_every_entry_once_in_page_order_and_then_says_it_is_the_end() -> None:
    links = tuple(OutlineEntry("control", "link", f"Item {i}", 0, f"#i{i}") for i in range(300))
    answers = _walk(PageOutline("Plain", "", 0, links), 500)
    shown = [line for text in answers for line in text.splitlines()[1:-1]]
    assert shown == [f'link "Item {i}" #i{i}' for i in range(300)]
    assert all(len(text) <= 500 for text in answers) and len(answers) > 10
    assert answers[1].splitlines()[0] == (
        'Outline of "Plain" from item 18 of 300 (300 controls; role "name" = value [state] selector):'
    )
    assert answers[-1].endswith("\nEnd of the outline: item 300 was its last.")


def test_an_offset_continues_the_map_of_a_part_after_its_last_row_shown() -> None:
    rows = []
    for i in range(60):
        rows += [OutlineEntry("row", "row", "", 1, "", cells=(f"A-{i}", f"Customer {i}"), inside=1)]
        rows += [OutlineEntry("control", "link", f"A-{i}", 2, f'a[href="/o/{i}"]')]
    table = OutlineEntry("table", "table", "Orders", 0, "#orders", inside=120, cells=("Order", "Customer"), rows=60)
    outline = PageOutline("Shop", "#orders", 1, (table, *rows))
    answers = _walk(outline, 800)
    cells = [line.strip() for text in answers for line in text.splitlines() if line.strip().startswith("row: ")]
    assert cells == [f'row: "A-{i}" | "Customer {i}"' for i in range(60)]
    first_rows = sum(1 for line in answers[0].splitlines() if line.startswith("  row: "))
    resume = 1 + 2 * first_rows  # the table's line, then each row shown with its link
    assert answers[0].endswith(f'with {{param:selector}}="#orders" and {{param:offset}}={resume} continues.')


def test_an_offset_past_the_end_says_so() -> None:
    assert outline_answer(SHOP, max_chars=4000, offset=11) == (
        'Outline of "Shop": nothing at {param:offset}=11, past its end: it has 11 items, the last at {param:offset}=10.'
    )
    assert outline_answer(SHOP, max_chars=4000, offset=10) == (
        'Outline of "Shop" from item 11 of 11 (6 controls; role "name" = value [state] selector):\n'
        "Selectors in an iframe of another origin name the iframe first (iframe#pay >> #card): use them as printed.\n"
        "1 cross-origin iframe not outlined (reasons on their lines).\n"
        '  iframe "Ads" #ads (cross-origin, not outlined: it did not answer)\n'
        "End of the outline: item 11 was its last."
    )
