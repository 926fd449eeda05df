"""The answer after a drag, on hand-built facts: the drag, then what moved."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.drag_answers import dragged_text, moved_line
from cdpilot.browser.dom.drag_facts import DragReport, ElementPlace, moved_level
from cdpilot.browser.dom.element_facts import ActionReport, Effects, ElementTarget

APPLE = ElementTarget('li#a "Apple"', "", 0, 1)
CHERRY = ElementTarget('li.item "Cherry"', "iframe#lists", 2, 3)
FIRST = ElementPlace('li#a "Apple"', True, "ul#todo", "1/0", 0, 3, 8.0, 20.0)
REPORT = DragReport(ActionReport(APPLE, Effects()), CHERRY, (0.0, 0.0), True, FIRST, replace(FIRST, position=2))


def test_a_drop_onto_an_element_names_both_and_the_new_place() -> None:
    assert dragged_text(REPORT) == (
        'Dragged li#a "Apple" onto li.item "Cherry" (in iframe#lists) (match 3 of 3) as an HTML5 drag '
        "(dragstart, dragover, drop).\n"
        "It is now 3 of 3 in ul#todo (was 1 of 3)."
    )


def test_a_drag_by_an_offset_with_mouse_events_says_how_far_the_box_went() -> None:
    moved = replace(FIRST, x=128.0, y=-19.6)
    report = replace(REPORT, destination=None, offset=(120.0, -40.5), html5=False, after=moved)
    assert dragged_text(report) == (
        'Dragged li#a "Apple" by (+120, -40.5) px with mouse events (no HTML5 drag began).\n'
        "It moved by (+120, -40) px and stays 1 of 3 in ul#todo."
    )


def test_a_new_parent_is_said_with_both_places() -> None:
    after = ElementPlace('li#a "Apple"', True, "ul#done", "1/1", 0, 1, 8.0, 90.0)
    assert moved_line(FIRST, after) == "It is now in ul#done (1 of 1); it was in ul#todo (1 of 3)."


def test_look_alike_parents_are_told_apart_by_their_path() -> None:
    after = replace(FIRST, parent_path="1/2", count=1)
    assert moved_line(FIRST, after) == "It is now in ul#todo (1 of 1); it was in ul#todo (1 of 3)."


def test_nothing_moved() -> None:
    assert moved_line(FIRST, replace(FIRST, x=8.4)) == "It did not move: still 1 of 3 in ul#todo."


def test_an_element_gone_from_the_page_is_said() -> None:
    report = replace(REPORT, after=None, left_page=True)
    assert dragged_text(report).endswith("\nIt is no longer in the page (removed, or replaced by a copy).")


def test_a_page_that_moved_on_leaves_only_the_drag() -> None:
    """A navigation, dialog or pause followed: the effects say so, and nothing is said of a place."""
    report = replace(REPORT, after=None)
    assert "\n" not in dragged_text(report)


HANDLE = ElementPlace('span.handle "≡"', False, 'li#b "≡ Banana"', "1/0/3", 0, 1, 10.0, 40.0)
ITEM = ElementPlace('li#b "≡ Banana"', False, "ul#todo", "1/0", 1, 3, 8.0, 40.0)


def test_a_handle_drag_names_the_item_that_moved() -> None:
    """The handle kept its place in its item (only its parent's path changed, with the item); the item moved."""
    after = [replace(HANDLE, parent_path="1/0/5", y=80.0), replace(ITEM, position=2, y=80.0)]
    level = moved_level([HANDLE, ITEM], after)
    assert level == 1
    report = replace(REPORT, before=ITEM, after=after[1], item=ITEM.name, html5=False)
    assert dragged_text(report).endswith('\nIts item li#b "≡ Banana" is now 3 of 3 in ul#todo (was 2 of 3).')


def test_what_moved_is_the_element_itself_or_its_draggable_ancestor() -> None:
    draggable_item = replace(ITEM, draggable=True)
    assert moved_level([HANDLE, draggable_item], [HANDLE, draggable_item]) == 1  # nothing moved: the draggable
    assert moved_level([HANDLE, ITEM], [HANDLE, ITEM]) == 0
    assert moved_level([HANDLE, ITEM], [replace(HANDLE, position=1), ITEM]) == 0  # the handle moved inside it
    # A look-alike parent (the same name, another path) is a new parent when nothing above moved.
    assert moved_level([HANDLE, ITEM], [HANDLE, replace(ITEM, parent_path="1/2")]) == 1
