"""What the DOM tools learn about elements, as plain data: query cards, selector suggestions,
waits, and what an action did (its target, the value it left, its effects, the page after).

The page-side scripts answer JSON; `query`, `watch` and `actions` turn it into these facts
at once, so no raw page value travels upward. Nothing here speaks CDP, so the answer
renderers can import these facts without loading the protocol client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cdpilot.browser.debugger.debugger_facts import Pause
from cdpilot.browser.observe.console_facts import ConsoleEntry
from cdpilot.browser.page.page_facts import DialogInfo, Download

SCOPE_MARK = ">>"  # joins a frame-scoped selector's parts (`iframe#pay >> #card`): CSS itself never uses it


@dataclass(frozen=True)
class InteractiveControl:
    """A control inside an element: a short unique selector, its form type, its text."""

    selector: str
    kind: str  # a form control's type (email, checkbox, select-one, textarea), else ""
    text: str


@dataclass(frozen=True)
class ElementSummary:
    """One element of a query: who it is, its state, its markup and what it holds."""

    index: int  # among ALL matches of the selector, hidden ones included
    tag: str
    id: str
    classes: tuple[str, ...]
    visible: bool
    text: str
    value: str  # a password shows as dots; "" when empty or not a field
    disabled: bool
    checked: bool
    where: str  # "" in the main document, else e.g. "iframe#inner > shadow root of div#host"
    opening_tag: str
    structure: str  # e.g. "ul > li*5 > a"
    children: int
    descendants: int
    interactive: tuple[InteractiveControl, ...]
    interactive_total: int
    scope: str = ""  # in a cross-origin frame: its frame-scoped selector prefix, e.g. "iframe#pay >> "

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> ElementSummary:
        return cls(
            index=int(value["index"]),
            tag=str(value["tag"]),
            id=str(value["id"]),
            classes=tuple(str(c) for c in value["classes"]),
            visible=bool(value["visible"]),
            text=str(value["text"]),
            value=str(value["value"]),
            disabled=bool(value["disabled"]),
            checked=bool(value["checked"]),
            where=str(value["where"]),
            opening_tag=str(value["open"]),
            structure=str(value["structure"]),
            children=int(value["children"]),
            descendants=int(value["descendants"]),
            interactive=tuple(
                InteractiveControl(str(i["selector"]), str(i["kind"]), str(i["text"])) for i in value["interactive"]
            ),
            interactive_total=int(value["interactiveTotal"]),
        )


@dataclass(frozen=True)
class SimilarNames:
    """What exists when nothing matched: names close to the selector's, and a sample."""

    ids: tuple[str, ...]
    classes: tuple[str, ...]
    tags: tuple[str, ...]
    some_ids: tuple[str, ...]
    id_count: int
    elements: int
    shadow_roots: int
    frames: int

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> SimilarNames:
        return cls(
            ids=_strings(value["ids"]),
            classes=_strings(value["classes"]),
            tags=_strings(value["tags"]),
            some_ids=_strings(value["someIds"]),
            id_count=int(value["idCount"]),
            elements=int(value["elements"]),
            shadow_roots=int(value["shadowRoots"]),
            frames=int(value["frames"]),
        )


@dataclass(frozen=True)
class UnsearchedFrame:
    """A cross-origin iframe whose own target could not be searched, and why."""

    where: str  # its iframe element, e.g. "iframe#pay" or "div#host > iframe"
    url: str  # its src attribute
    reason: str  # e.g. "not attached", "its page crashed"


@dataclass(frozen=True)
class QueryFindings:
    """A query after its filters: selector → visibility → text → limit, with what each removed."""

    total: int
    hidden: int  # removed as hidden
    without_text: int  # removed by text_contains
    kept: int
    elements: tuple[ElementSummary, ...]  # the first `limit` of the kept
    similar: SimilarNames | None  # only when nothing matched at all
    cross_origin: tuple[str, ...] = ()  # the cross-origin iframes searched too, as `where` names them
    unsearched: tuple[UnsearchedFrame, ...] = ()

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> QueryFindings:
        similar = value.get("similar")
        return cls(
            total=int(value["total"]),
            hidden=int(value["hidden"]),
            without_text=int(value["withoutText"]),
            kept=int(value["kept"]),
            elements=tuple(ElementSummary.from_page(e) for e in value["elements"]),
            similar=SimilarNames.from_page(similar) if similar is not None else None,
        )


@dataclass(frozen=True)
class SelectorSuggestion:
    selector: str
    score: int  # 0-100: how well it survives changes to the page
    reason: str


@dataclass(frozen=True)
class InspectCandidate:
    description: str  # e.g. button#submit "Sign in"
    where: str
    visible: bool
    score: int  # 0-100: how well it matches what was asked for
    reasons: tuple[str, ...]
    selectors: tuple[SelectorSuggestion, ...]  # unique, most stable first
    scope: str = ""  # the frame-scoped prefix of the same-origin frames it is in ("iframe#same >> ")


@dataclass(frozen=True)
class InspectFindings:
    candidates: tuple[InspectCandidate, ...]
    total: int  # candidates that matched at all
    scored: int  # elements looked at

    @classmethod
    def from_page(cls, value: Mapping[str, Any]) -> InspectFindings:
        candidates = tuple(
            InspectCandidate(
                description=str(c["description"]),
                where=str(c["where"]),
                visible=bool(c["visible"]),
                score=int(c["score"]),
                reasons=_strings(c["reasons"]),
                selectors=tuple(
                    SelectorSuggestion(str(s["selector"]), int(s["score"]), str(s["reason"])) for s in c["selectors"]
                ),
                scope=str(c.get("scope", "")),
            )
            for c in value["candidates"]
        )
        return cls(candidates=candidates, total=int(value["total"]), scored=int(value["scored"]))


@dataclass(frozen=True)
class WaitResult:
    awaited: str  # e.g. '"#late" to be visible'
    found: str  # e.g. 'p#late.late "Arrived late"', or the text that appeared; "" for hidden
    where: str
    count: int | None  # matches of the selector when the wait ended (None for texts)
    elapsed_ms: int


@dataclass(frozen=True)
class ElementTarget:
    """The element an action went to, as the answer names it."""

    description: str  # e.g. button#submit "Sign in"
    where: str
    index: int
    match_count: int  # how many elements the selector matched in all


@dataclass(frozen=True)
class Navigation:
    url: str
    title: str
    same_document: bool
    finished: bool  # False: it started but had not loaded when the action's timeout ran out


@dataclass(frozen=True)
class OpenedPage:
    """A tab or popup the action opened (``target=_blank``, ``window.open``)."""

    index: int | None  # as list_targets numbers it; None when it closed again before it could be listed
    title: str
    url: str


@dataclass(frozen=True)
class FileChooser:
    """A file chooser the page opened; cdpilot cancels it, so none is left open."""

    element: str  # the file input, e.g. input#avatar; "" when it could not be described
    multiple: bool


@dataclass
class Effects:
    """What an action caused in the page, beyond its own events."""

    dialog: DialogInfo | None = None
    pause: Pause | None = None  # the page's own code paused in the debugger
    navigation: Navigation | None = None
    console: list[ConsoleEntry] = field(default_factory=list)
    timeout_ms: int = 0
    opened_pages: list[OpenedPage] = field(default_factory=list)
    file_chooser: FileChooser | None = None
    downloads: list[Download] = field(default_factory=list)


@dataclass(frozen=True)
class ChosenOption:
    label: str
    value: str


@dataclass(frozen=True)
class PageContext:
    """Where the page is after an action, and the acted-on element's state in a few words."""

    title: str
    url: str
    element_state: str = ""  # "" when the page could not say (navigating, dialog, paused)


@dataclass(frozen=True)
class ActionReport:
    """One action's outcome: its target, what it left in the element, and its effects."""

    element: ElementTarget | None
    effects: Effects
    value_after: str | None = None  # what a filled field holds, when it is not what was typed
    chosen: tuple[ChosenOption, ...] = ()  # the options a select_option chose
    uploaded: tuple[str, ...] = ()  # the file names an upload left in its input
    masked: bool = False  # a password field: its value is never echoed
    through_label: str = ""  # the label clicked for a hidden checkbox or radio (`toggle_labels`)
    checked: bool | None = None  # that input's state read back after the click, when the page is still there
    context: PageContext | None = None  # asked for, and the page did not pause


def _strings(values: Sequence[Any]) -> tuple[str, ...]:
    return tuple(str(v) for v in values)


@dataclass(frozen=True)
class FieldOutcome:
    """One field of a form fill: what it holds afterwards, or why it was not filled."""

    selector: str
    index: int | None  # as the call gave it
    kind: str = ""  # input type (email, checkbox, date…), textarea, select, select multiple, contenteditable
    value_after: str | None = None  # what a typed or set field holds (never a password's)
    checked: bool | None = None  # a checkbox or radio
    chosen: tuple[ChosenOption, ...] = ()  # the options a select holds; the radio a group's value or label chose
    length: int = 0  # the characters a password field holds, its value never kept
    through_label: str = ""  # the label clicked for a hidden checkbox or radio (`toggle_labels`)
    error: str = ""  # why it was not filled, and what to do


@dataclass(frozen=True)
class FormReport:
    """A form fill: each field's outcome, in the order given, and what the whole fill caused."""

    fields: tuple[FieldOutcome, ...]
    action: ActionReport  # no element: the effects and the page context are the form's
