"""Matches across cross-origin iframes, merged in document order with their frames' scopes (no browser needed).

The page has matches 0-2 of its own, an iframe after its first match holding two, and an
iframe after its last holding one, itself with a nested iframe of one match at its start
and an iframe that could not be searched: in document order the page's match 0, the first
iframe's two, the page's 1 and 2, the nested match, then the second iframe's own match.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from cdpilot.browser.dom.element_facts import (
    ElementSummary,
    InspectCandidate,
    InspectFindings,
    QueryFindings,
    SelectorSuggestion,
    UnsearchedFrame,
)
from cdpilot.browser.frames.frame_facts import FrameQuery, FrameSlot, merge_inspect, merge_query
from cdpilot.browser.frames.frame_search import FrameCount, FrameHop, FramePlace

SPAN = ElementSummary(0, "span", "", (), True, "", "", False, False, "", "<span>", "", 0, 0, (), 0)
GONE = UnsearchedFrame("iframe#ad", "http://localhost:1/ad", "no frame target attached")


def slot(name: str, before: int) -> FrameSlot:
    return FrameSlot(key=name, before=before, where=f"iframe#{name}", shown=True, src="")


def own(count: int, ids: tuple[str, ...], hidden: int = 0) -> QueryFindings:
    elements = tuple(replace(SPAN, index=i, id=ids[i]) for i in range(count) if ids[i])
    return QueryFindings(count, hidden, 0, len(elements), elements, None)


def test_matches_are_numbered_in_document_order_across_frames() -> None:
    nested = FrameQuery("iframe#b (B) > iframe#c (C)", "#b >> #c >> ", own(1, ("c0",)), ())
    second = FrameQuery("iframe#b (B)", "#b >> ", own(1, ("b0",)), ((slot("c", 0), nested), (slot("ad", 1), GONE)))
    first = FrameQuery("iframe#a (A)", "#a >> ", own(2, ("a0", "")), ())  # a1 hidden: not described
    page = FrameQuery("", "", own(3, ("p0", "p1", "p2"), hidden=0), ((slot("a", 1), first), (slot("b", 3), second)))
    merged = merge_query(page, limit=10)
    assert [(e.index, e.id, e.where, e.scope) for e in merged.elements] == [
        (0, "p0", "", ""),
        (1, "a0", "iframe#a (A)", "#a >> "),
        (3, "p1", "", ""),
        (4, "p2", "", ""),
        (5, "c0", "iframe#b (B) > iframe#c (C)", "#b >> #c >> "),
        (6, "b0", "iframe#b (B)", "#b >> "),
    ]
    assert (merged.total, merged.kept) == (7, 6)
    assert merged.cross_origin == ("iframe#a (A)", "iframe#b (B)", "iframe#b (B) > iframe#c (C)")
    assert merged.unsearched == (GONE,)
    assert [e.id for e in merge_query(page, limit=2).elements] == ["p0", "a0"]


def test_an_index_is_found_in_the_frame_that_holds_it() -> None:
    session: Any = cast(Any, object())
    place = FramePlace(session, hops=(FrameHop(session, "B"),))
    nested = FrameCount(place, "c", 1, ())
    second = FrameCount(place, "b", 1, ((slot("c", 0), nested), (slot("ad", 1), GONE)))
    first = FrameCount(place, "a", 2, ())
    page = FrameCount(FramePlace(session), "", 3, ((slot("a", 1), first), (slot("b", 3), second)))
    assert page.total == 7
    found = [page.locate(i) for i in range(8)]
    assert [(spot[0].prefix, spot[1]) if spot else None for spot in found] == [
        ("", 0),
        ("a", 0),
        ("a", 1),
        ("", 1),
        ("", 2),
        ("c", 0),
        ("b", 0),
        None,
    ]
    assert page.unsearched() == [GONE]
    assert [f.prefix for f in page.searched()] == ["", "a", "b", "c"]


def test_inspect_candidates_of_every_frame_are_ranked_together() -> None:
    def candidate(name: str, score: int) -> InspectCandidate:
        return InspectCandidate(name, "", True, score, (), (SelectorSuggestion(f"#{name}", 95, "unique id"),))

    page = InspectFindings((candidate("p", 80), candidate("q", 40)), total=2, scored=30)
    frame = InspectFindings((candidate("f", 90), candidate("g", 80)), total=5, scored=10)
    merged = merge_inspect([("", "", page), ("iframe#a (A)", "iframe#a >> ", frame)], limit=3)
    assert [(c.description, c.where, c.selectors[0].selector) for c in merged.candidates] == [
        ("f", "iframe#a (A)", "iframe#a >> #f"),
        ("p", "", "#p"),
        ("g", "iframe#a (A)", "iframe#a >> #g"),
    ]
    assert (merged.total, merged.scored) == (7, 40)
