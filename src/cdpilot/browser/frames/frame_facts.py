"""Queries across cross-origin iframes, as plain data: the iframes a page-side scan could not
enter, one frame's findings with its iframes', and the merge that makes them one answer.

A cross-origin iframe's document is not the page's scripts' to enter, so the page's scan
stops at its iframe element and says how many matches came before it (a `FrameSlot`); the
frame's own scan runs in its own target (another site) or in our isolated world in it (another
origin of the same site: `frame_search`). Merged, the matches stand in document order as if
the iframe's document were entered where its element is, as same-origin frames are: the
index of each is its place among ALL matches of every frame, which is the index that
`resolve_element` counts. Nothing here speaks CDP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from cdpilot.browser.dom.element_facts import (
    ElementSummary,
    InspectFindings,
    QueryFindings,
    SimilarNames,
    UnsearchedFrame,
)
from cdpilot.text import clip, one_line

URL_CHARS = 100
NEAR_NAMES = 5  # near-miss names listed, as the page-side `similar` keeps
SOME_IDS = 8


@dataclass(frozen=True)
class FrameSlot:
    """A cross-origin iframe met by a page-side scan: where its element is, and its matches' place."""

    key: str  # the iframe element's tree path (dom_basics.js `treePath`), to find its frame target
    before: int  # matches of the scan's document that come before it
    where: str  # the iframe element within its document, e.g. "iframe#pay"
    shown: bool  # the iframe (and every frame around it) is visible
    src: str

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> FrameSlot:
        where, src = str(value["where"]), str(value["src"])
        return cls(str(value["key"]), int(value["before"]), where, bool(value["shown"]), src)


def frame_name(prefix: str, slot: FrameSlot, url: str) -> str:
    """`iframe#pay (http://localhost:8000/pay.html)`, after the frames around it."""
    return join_where(prefix, f"{slot.where} ({clip(one_line(url), URL_CHARS)})")


def join_where(*parts: str) -> str:
    return " > ".join(part for part in parts if part)


@dataclass(frozen=True)
class FrameQuery:
    """One frame's own query, with what each cross-origin iframe in it held (or why not)."""

    prefix: str  # where the frame is: "" for the page, else as `frame_name` names it
    scope: str  # its frame-scoped selector prefix, e.g. "iframe#pay >> "; "" for the page
    own: QueryFindings  # indexes and places within the frame's own documents
    slots: tuple[tuple[FrameSlot, FrameQuery | UnsearchedFrame], ...]


def merge_query(tree: FrameQuery, limit: int) -> QueryFindings:
    """The page's and every cross-origin frame's findings as one, in document order."""
    kept, total = _ordered(tree, 0)
    findings = _frames(tree)
    searched = [f for f in findings if isinstance(f, FrameQuery)]
    return QueryFindings(
        total=total,
        hidden=sum(f.own.hidden for f in searched),
        without_text=sum(f.own.without_text for f in searched),
        kept=sum(f.own.kept for f in searched),
        elements=tuple(kept[:limit]),
        similar=_similar([f.own.similar for f in searched]) if total == 0 else None,
        cross_origin=tuple(f.prefix for f in searched if f.prefix),
        unsearched=tuple(f for f in findings if isinstance(f, UnsearchedFrame)),
    )


def merge_inspect(found: list[tuple[str, str, InspectFindings]], limit: int) -> InspectFindings:
    """Candidates of every frame (each named by its prefix, its selectors scoped to its frame:
    `iframe#pay >> #card`), best first; the page's first among equals."""
    candidates = [
        replace(
            c,
            where=join_where(prefix, c.where),
            selectors=tuple(replace(s, selector=scope + s.selector) for s in c.selectors),
        )
        for prefix, scope, part in found
        for c in part.candidates
    ]
    candidates.sort(key=lambda c: -c.score)
    return InspectFindings(
        candidates=tuple(candidates[:limit]),
        total=sum(part.total for _, _, part in found),
        scored=sum(part.scored for _, _, part in found),
    )


def _ordered(tree: FrameQuery, base: int) -> tuple[list[ElementSummary], int]:
    """The frame's described elements in document order, renumbered from `base`; and how many
    elements match in it and its iframes."""
    out: list[ElementSummary] = []
    own = sorted(tree.own.elements, key=lambda e: e.index)
    inside = 0  # matches of the iframes met so far
    for slot, child in sorted(tree.slots, key=lambda s: s[0].before):
        out += [_placed(tree, e, base + inside) for e in own if e.index < slot.before]
        own = [e for e in own if e.index >= slot.before]
        if isinstance(child, FrameQuery):
            found, count = _ordered(child, base + slot.before + inside)
            out += found
            inside += count
    out += [_placed(tree, e, base + inside) for e in own]
    return out, tree.own.total + inside


def _placed(tree: FrameQuery, element: ElementSummary, shift: int) -> ElementSummary:
    where = join_where(tree.prefix, element.where)
    return replace(element, index=element.index + shift, where=where, scope=tree.scope)


def _frames(tree: FrameQuery) -> list[FrameQuery | UnsearchedFrame]:
    found: list[FrameQuery | UnsearchedFrame] = [tree]
    for _, child in tree.slots:
        found += _frames(child) if isinstance(child, FrameQuery) else [child]
    return found


def _similar(parts: list[SimilarNames | None]) -> SimilarNames | None:
    """Near-miss names of every frame searched, the page's first."""
    names = [p for p in parts if p is not None]
    if not names:
        return None

    def first(field: str, count: int) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for p in names for n in getattr(p, field)))[:count]

    return SimilarNames(
        ids=first("ids", NEAR_NAMES),
        classes=first("classes", NEAR_NAMES),
        tags=first("tags", NEAR_NAMES),
        some_ids=first("some_ids", SOME_IDS),
        id_count=sum(p.id_count for p in names),
        elements=sum(p.elements for p in names),
        shadow_roots=sum(p.shadow_roots for p in names),
        frames=sum(p.frames for p in names),
    )
