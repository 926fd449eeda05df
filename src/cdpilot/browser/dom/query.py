"""Finding elements: by selector (query, resolve), by description (inspect), and waiting for them.

Every search covers the document, open shadow roots and same-origin iframes, recursively,
in document order (dom_scripts.py explains the order). One ``Runtime.evaluate`` does the
page-side work; an open JavaScript dialog fails the call instead of hanging it.

Indexes: the index of an element is its position among ALL matches of the selector,
visible or not, in that order. `resolve_element` (used by click/fill/hover/select) takes
that index, and query_elements shows that same index next to each element even when its
filters hide some matches, so ``query_elements`` → ``[3] …`` → ``click_element(index=3)``
always means the same element, whatever filters the query used.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Literal

from cdpilot import progress
from cdpilot.browser.dom.dom_scripts import script
from cdpilot.browser.dom.element_facts import ElementTarget, InspectFindings, QueryFindings, WaitResult
from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.page.evaluation import exception_text
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.cdp import CdpEvent, CdpSession
from cdpilot.errors import ArgumentError, CdpCommandError, CdpTimeoutError, ExecutionError, FieldProblem, StateError

SCRIPT_TIMEOUT_S = 15.0  # a page-side scan of a huge DOM is slow, never this slow


@dataclass(frozen=True)
class ElementHandle:
    """One element, resolved for acting on it.

    `object_id` is the element's Runtime RemoteObjectId (valid in the execution context of
    the element's own frame): use it with DOM.scrollIntoViewIfNeeded, DOM.getContentQuads,
    Runtime.callFunctionOn, all sent on `session`.
    """

    object_id: str
    session: CdpSession
    description: str  # e.g. button#submit "Sign in"
    match_count: int  # how many elements the selector matched in all
    index: int
    where: str  # "" in the main document, else e.g. "iframe#inner-frame > shadow root of div#host"

    @property
    def target(self) -> ElementTarget:
        """The element as an answer names it."""
        return ElementTarget(self.description, self.where, self.index, self.match_count)


WaitState = Literal["attached", "visible", "hidden"]
# After a navigation killed a pending wait, either event says the new document is there.
NEW_DOCUMENT_EVENTS = ("Page.frameNavigated", "Runtime.executionContextCreated")
# What Runtime.evaluate answers when the page navigates away under a pending wait.
CONTEXT_GONE = (
    "Execution context was destroyed",
    "Inspected target navigated",
    "Cannot find default execution context",
)

WAIT_HINT = (
    "Look at what the page has with {tool:query_elements} or {tool:browser_screenshot}. "
    "A higher {param:timeout_ms} waits longer."
)


async def run_page_script(conn: BrowserConnection, expression: str, *, by_value: bool = True) -> dict[str, Any]:
    """Evaluate one of our scripts in the page; its value (by value), or its RemoteObject."""
    params = {
        "expression": own_expression(expression),
        "returnByValue": by_value,
        "awaitPromise": False,
        "silent": True,
    }
    reply = await conn.features.unless_blocked(conn.page.send("Runtime.evaluate", params, timeout_s=SCRIPT_TIMEOUT_S))
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side DOM search failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="The page may be navigating; try again, or check it with {tool:evaluate_js}.",
        )
    result: dict[str, Any] = reply["result"]
    return result.get("value", {}) if by_value else result


def invalid_selector(message: str) -> ArgumentError:
    """VALIDATION for a selector the browser refuses; `message` is the browser's own words."""
    return ArgumentError(
        "The selector is not valid CSS.",
        problems=[FieldProblem("selector", "a valid CSS selector", message)],
        suggestion='Fix the selector (quote attribute values: a[href="/x"]), or let {tool:inspect_element} '
        "suggest one.",
    )


async def resolve_element(conn: BrowserConnection, selector: str, index: int, *, role: str = "") -> ElementHandle:
    """The element at `index` (0-based) among ALL matches of `selector`, visible or not.

    Matches are counted in document order across the document, open shadow roots and
    same-origin iframes; hidden matches count too, so an index stays stable while things
    appear and disappear. Raises `ArgumentError` for an invalid selector and `StateError`
    when nothing matches or `index` is out of range; `role` (e.g. "destination") says which
    of a call's selectors that was, when it has more than one.
    """
    page = conn.page
    wrapper = await run_page_script(conn, script("query", "resolve", selector, index), by_value=False)
    try:
        reply = await page.send("Runtime.getProperties", {"objectId": wrapper["objectId"], "ownProperties": True})
    finally:
        await page.send("Runtime.releaseObject", {"objectId": wrapper["objectId"]})
    props = {p["name"]: p["value"] for p in reply["result"] if "value" in p}
    if "error" in props:
        raise invalid_selector(str(props["error"].get("value")))
    count = int(props["count"]["value"])
    which = f"{role} " if role else ""
    if count == 0:
        raise StateError(
            f"No element matches the {which}selector.",
            suggestion="Call {tool:query_elements} to see what exists, or {tool:wait_for} if it appears later.",
        )
    if index >= count:
        raise StateError(
            f"{which}index {index} is out of range: {count} element{'s' if count != 1 else ''} match.",
            suggestion=f"Use an index from 0 to {count - 1}; {{tool:query_elements}} lists them.",
        )
    return ElementHandle(
        object_id=str(props["element"]["objectId"]),
        session=page,
        description=str(props["description"]["value"]),
        match_count=count,
        index=index,
        where=str(props["where"]["value"]),
    )


async def query_elements(
    conn: BrowserConnection, selector: str, *, limit: int, text_contains: str | None, include_hidden: bool
) -> QueryFindings:
    """Matches of `selector`, filtered by visibility (unless `include_hidden`) then by text,
    the first `limit` described; with names that resemble the selector when nothing matched."""
    value = await run_page_script(conn, script("query", "query", selector, limit, text_contains, include_hidden))
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    return QueryFindings.from_page(value)


def check_inspect_request(description: str | None, text: str | None, attributes: dict[str, str] | None) -> None:
    if not (description or text or attributes):
        raise ArgumentError(
            "Say what to look for.",
            problems=[FieldProblem("description | text | attributes", "at least one of them", "none")],
            suggestion="Call {tool:inspect_element} with e.g. "
            '{param:inspect_element.description}="login submit button" or {param:inspect_element.text}="Sign in".',
        )


def check_wait_request(selector: str | None, texts: list[str] | None) -> None:
    if (selector is None) == (texts is None):
        raise ArgumentError(
            "Wait for a selector or for texts, not both and not neither.",
            problems=[FieldProblem("selector | texts", "exactly one of them", "both" if selector else "neither")],
            suggestion='Call {tool:wait_for} with {param:wait_for.selector}="#results" (and a state), '
            'or with {param:wait_for.texts}=["Welcome"].',
        )


async def inspect_element(
    conn: BrowserConnection, *, description: str | None, text: str | None, attributes: dict[str, str] | None, limit: int
) -> InspectFindings:
    """The best-matching elements (sought as `check_inspect_request` allows), each with unique
    selectors ranked by how stable they are."""
    value = await run_page_script(conn, script("inspect", "inspect", description, text, attributes, limit))
    return InspectFindings.from_page(value)


async def wait_for(
    conn: BrowserConnection, *, selector: str | None, state: WaitState, texts: list[str] | None, timeout_ms: int
) -> WaitResult:
    """Wait until `selector` reaches `state`, or any of `texts` is visible in the page.

    The page resolves a promise from a MutationObserver/animation-frame watcher (no polling
    from here). A navigation destroys the watcher with its document: it is started again
    in the new document, within what is left of `timeout_ms`. The request is one that
    `check_wait_request` allows.
    """
    awaited = f'"{selector}" to be {state}' if selector else "any of " + ", ".join(f'"{t}"' for t in texts or ())
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + timeout_ms / 1000
    try:
        async with asyncio.timeout(timeout_ms / 1000 + 1):  # the page's own deadline comes first
            while True:
                left_ms = max(1, round((deadline - loop.time()) * 1000))
                await progress.report(f"Waiting up to {left_ms / 1000:g} s for {awaited}")
                expression = script("wait", "waitFor", selector, state, texts, left_ms)
                with conn.page.listen(*NEW_DOCUMENT_EVENTS) as new_documents:
                    try:
                        value = await _await_page(conn, expression, left_ms)
                        break
                    except CdpCommandError as exc:
                        if not any(text in exc.cdp_message for text in CONTEXT_GONE):
                            raise
                    await new_documents.first(lambda event: _is_new_main_document(event, conn.page.target_id))
    except TimeoutError as exc:
        raise CdpTimeoutError(
            f"Timed out after {timeout_ms} ms; the page did not answer.\nWaited for {awaited}.", suggestion=WAIT_HINT
        ) from exc
    if "error" in value:
        raise invalid_selector(str(value["error"]))
    elapsed_ms = round((loop.time() - started) * 1000)
    if value.get("timedOut"):
        what = "a selector to be " + state if selector else "a text"
        raise CdpTimeoutError(
            f"Timed out after {timeout_ms} ms waiting for {what}.\nWaited for {awaited}; {_last_seen(value, state)}.",
            suggestion=WAIT_HINT,
        )
    found = str(value.get("element") or value.get("text") or "")
    count = int(value["count"]) if "count" in value else None
    return WaitResult(awaited, found, str(value.get("where", "")), count, elapsed_ms)


def _is_new_main_document(event: CdpEvent, main_frame_id: str | None) -> bool:
    """The main frame committed a navigation, or its new document's context is ready
    (the latter only arrives while Runtime is enabled, which the console log does)."""
    if event.method == "Page.frameNavigated":
        return "parentId" not in event.params["frame"]
    aux = event.params["context"].get("auxData", {})
    return bool(aux.get("isDefault")) and aux.get("frameId") == main_frame_id


async def _await_page(conn: BrowserConnection, expression: str, timeout_ms: int) -> dict[str, Any]:
    conn.features.raise_if_blocked()  # a paused page never settles what the wait watches
    params = {"expression": own_expression(expression), "returnByValue": True, "awaitPromise": True, "silent": True}
    send = conn.page.send("Runtime.evaluate", params, timeout_s=timeout_ms / 1000 + 2)
    reply = await conn.features.unless_blocked(send)
    if "exceptionDetails" in reply:
        raise ExecutionError(
            f"The page-side wait failed: {exception_text(reply['exceptionDetails'])}",
            suggestion="Try again; if it keeps failing, check the page with {tool:evaluate_js}.",
        )
    value: dict[str, Any] = reply["result"].get("value", {})
    return value


def _last_seen(value: dict[str, Any], state: str) -> str:
    """What the page looked like when the wait gave up."""
    if "count" not in value:
        return "none of the texts is visible"
    count = int(value["count"])
    if state == "hidden":
        return f"still visible: {value['element']}"
    if count == 0:
        return "nothing matches it"
    return f"{count} element{'s' if count != 1 else ''} match{'' if count != 1 else 'es'}, none visible"
