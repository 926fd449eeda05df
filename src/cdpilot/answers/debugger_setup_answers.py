"""What the debugger's setup tools answer: turning it on and off, its pause settings, and
breakpoints set, listed and removed.

A breakpoint says where it was asked for and where the browser bound it, in which script: two
scripts of one name (a/util.js, b/util.js) are told apart. One that matches no loaded script
yet says so and lists the scripts the page has, so a wrong URL is seen at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from cdpilot.answers.pause_answers import script_names
from cdpilot.browser.debugger.debugger_facts import (
    Breakpoint,
    BreakpointSpec,
    DisableOutcome,
    ExceptionState,
    Location,
    Trigger,
    TriggerSpec,
    compiled_label,
)
from cdpilot.browser.debugger.source_facts import FunctionPlace
from cdpilot.text import clip, one_line

MAX_SCRIPTS_LISTED = 8
MAX_RESOLVED_LISTED = 3
URL_CHARS = 100
PAGE_URL_CHARS = 160
CONDITION_CHARS = 80
EXCEPTION_STATES: dict[ExceptionState, str] = {
    "none": "No longer pausing on exceptions.",
    "uncaught": "Pausing on uncaught exceptions (caught ones run on).",
    "all": "Pausing on every exception, caught or not.",
}


def enabled_lines(enabled_now: bool, page_url: str | None, script_urls: Sequence[str]) -> list[str]:
    first = "Debugger enabled" if enabled_now else "The debugger was already enabled"
    page = clip(one_line(page_url or "the page"), PAGE_URL_CHARS, keep="ends")
    return [f"{first} on {page}.", scripts_line(script_urls)]


def disabled_line(outcome: DisableOutcome) -> str:
    resumed = " Execution resumed." if outcome.resumed else ""
    return f"Debugger disabled; {outcome.breakpoints_removed} breakpoint(s) removed.{resumed}"


def skip_pauses_line(skip: bool, *, enabled_now: bool) -> str:
    first = "Debugger enabled. " if enabled_now else ""
    if skip:
        return first + "Skipping every pause: breakpoints and debugger; statements are ignored."
    return first + "Pauses are honoured again."


def exception_state_line(state: ExceptionState) -> str:
    return EXCEPTION_STATES[state]


def breakpoint_set_lines(
    breakpoint_: Breakpoint, script_urls: Sequence[str], same_name: Sequence[str] = ()
) -> list[str]:
    """The breakpoint, where it bound, and what a user should know about how: the next line
    used, several files or scripts matched; when nothing matched, the files and scripts of
    the same name (`same_name`) and the scripts the page has."""
    lines = [f"Breakpoint {breakpoint_text(breakpoint_)}."]
    lines += [f"Note: {note}." for note in breakpoint_.notes]
    matched = breakpoint_.sources
    if len(matched) > 1:
        what = "files" if breakpoint_.kind == "original" else "scripts"
        lines.append(f"It matches {len(matched)} {what}, and is bound in each: {_names(matched)}.")
    if not breakpoint_.resolved:
        lines.append("No loaded script matches yet; it binds when a matching script loads (also after a reload).")
        if same_name:
            lines.append(f"Files and scripts with that name: {_names(same_name)}.")
        lines.append(scripts_line(script_urls))
    return lines


def breakpoint_removed_line(spec: BreakpointSpec | TriggerSpec) -> str:
    where = f"on {spec.where}" if isinstance(spec, TriggerSpec) else f"at {spec.where}"
    return f"Removed breakpoint {spec.id} {where}."


def breakpoint_list_lines(breakpoints: Sequence[Breakpoint | Trigger]) -> list[str]:
    if not breakpoints:
        return ["No breakpoints. Set one with {tool:debugger_set_breakpoint}."]
    lines = [
        (
            f"- {trigger_text(b)}"
            if isinstance(b, Trigger)
            else f"- {breakpoint_text(b, every_place=True)}{listed_extras_text(b)}"
        )
        for b in breakpoints
    ]
    return [f"{len(breakpoints)} breakpoint(s):", *lines]


def listed_extras_text(breakpoint_: Breakpoint) -> str:
    """What the list adds to a breakpoint: its notes (the line it moved to, a module a hot
    update replaced), and ``; its condition failed: ReferenceError: …`` (it then counts as
    false, so it never pauses or logs, and the page's console never sees the error)."""
    text = "".join(f"; {note}" for note in breakpoint_.notes)
    if breakpoint_.failure is not None:
        text += (
            f"; its condition failed (so it counts as false): {clip(one_line(breakpoint_.failure), CONDITION_CHARS)}"
        )
    return text


def trigger_text(trigger: Trigger) -> str:
    """``bp5 on requests whose URL contains "/api"``."""
    return f"{trigger.spec.id} on {trigger.spec.where}"


def trigger_set_lines(trigger: Trigger) -> list[str]:
    lines = [f"Breakpoint {trigger_text(trigger)}."]
    if trigger.spec.kind == "dom":
        lines.append("It holds that element; after a reload the selector is looked up again.")
    return lines


def function_breakpoint_lines(place: FunctionPlace, breakpoint_: Breakpoint, script_urls: Sequence[str]) -> list[str]:
    """Where the function was found, then the breakpoint in its body."""
    first = f"Found {place.file}:{place.declared_line}"
    if place.others:
        first += f" (also declared at {_names(place.others)}; set one by line for those)"
    return [first + ".", *breakpoint_set_lines(breakpoint_, script_urls)]


def breakpoint_text(breakpoint_: Breakpoint, *, every_place: bool = False) -> str:
    """``bp1 at app.js:12 when x > 1, resolved in app.js:12:5``: asked for, then bound (past a
    few places, the rest counted, unless `every_place`: the list shows them all)."""
    spec = breakpoint_.spec
    text = f"{spec.id} at {spec.where}"
    if spec.condition is not None:
        text += f" when {clip(one_line(spec.condition), CONDITION_CHARS)}"
    if spec.hit_count is not None:
        text += f" on hit {spec.hit_count}"
    if spec.log_message is not None:
        text += " logs " + json.dumps(clip(one_line(spec.log_message), CONDITION_CHARS)) + " (no pause)"
    resolved = breakpoint_.resolved
    if not resolved:
        return text + ", not resolved yet"
    return text + ", resolved in " + resolved_places_text(resolved, every_place=every_place)


def resolved_places_text(resolved: Sequence[Location], *, every_place: bool = False) -> str:
    """``a/util.js:2:11 and b/util.js:2:11``: each place in its script, named by the end of
    its path that tells it from the others (`script_names`); a mapped place by its original
    file, the script's place beside it. Past a few, the rest are counted, unless `every_place`."""
    names = script_names(where.url for where in resolved)
    shown = resolved if every_place else resolved[:MAX_RESOLVED_LISTED]
    places = [_place(where, names) for where in shown]
    if len(resolved) > len(shown):
        more = len(resolved) - len(shown)
        return ", ".join(places) + f" and {more} more ({{tool:debugger_list_breakpoints}} lists every place)"
    return places[0] if len(places) == 1 else ", ".join(places[:-1]) + " and " + places[-1]


def _place(where: Location, names: Mapping[str, str]) -> str:
    generated = f"{clip(one_line(names[where.url]), URL_CHARS, keep='ends')}:{where.line}:{where.column}"
    if where.original is None:
        return generated
    return f"{where.original.label} ({compiled_label(where.url, generated)})"


def _names(names: Sequence[str]) -> str:
    listed = [clip(one_line(name), URL_CHARS, keep="ends") for name in names[:MAX_SCRIPTS_LISTED]]
    return ", ".join(listed) + _more_scripts(len(names))


def scripts_line(urls: Sequence[str]) -> str:
    """The scripts the page has loaded, so a breakpoint's URL can be checked against them."""
    if not urls:
        return "No scripts with a URL are loaded yet."
    listed = [clip(one_line(url), URL_CHARS, keep="ends") for url in urls[:MAX_SCRIPTS_LISTED]]
    return f"Scripts{_more_scripts(len(urls))}: " + ", ".join(listed)


def _more_scripts(count: int) -> str:
    """How many scripts a line left out, and where all of them are listed."""
    if count <= MAX_SCRIPTS_LISTED:
        return ""
    return f" (+{count - MAX_SCRIPTS_LISTED} more: {{tool:debugger_list_scripts}} lists them all)"
