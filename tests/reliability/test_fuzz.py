"""Schema fuzzing: every tool of both modes, through the real registry, against a live page.

For each tool of the exact tools/list payloads (`manifests.SMART_TOOLS_JSON` and
`LEGACY_TOOLS_JSON`), hypothesis-jsonschema generates argument sets the schema accepts and
a small mutator derives sets it refuses (`fuzz_calls`: contracts per route, spellings,
mutations, and the sets that must not be sent). They go through the shipped `Registry` and
handlers to a real headless Chromium (one per mode, launched by cdpilot's own
`ConnectionManager` with the test flags) that shows the fuzz fixture page
(`fuzz_site`, served on 127.0.0.1). So a valid call does a handler's real work: it clicks,
fills, evaluates, sets breakpoints, pauses, steps, takes screenshots, navigates, opens and
closes tabs, launches and disconnects browsers.

Each valid call starts from a drawn precondition (`fuzz_stage`): the page as restored, the
debugger on with a breakpoint set, execution paused, a dialog open, or history entries both
behind and ahead; those states change what a handler does. After it, the stage is put back,
and what was undone is counted (``restored``). When the tools cannot undo what a valid call
did, that is a failure (a state an agent could not get out of), and the fixture browser is
replaced so that the following calls start clean.

Bounded, and why: every ``timeout_ms`` is given and short, so a call still waiting after
`CALL_DEADLINE_S` hangs and counts as a crash; the tools that start or end browsers get
fewer valid sets (`LAUNCHING_SETS`), since a launch costs a second or more. ``null`` for an
optional parameter is not a mutation: this server reads it as "not given", which is what MCP
clients mean by it.

Figures per tool and in total, in the reliability report: valid calls by outcome (``ok``
or the error type), by precondition and by spelling; crashes (UNKNOWN results, exceptions
or calls past their deadline; must be 0); invalid sets answered with a VALIDATION naming
the offending field (must be 100%); valid sets refused by schema validation ("Invalid
arguments for …"; must be 0) apart from values a handler refused on policy (a javascript:
URL, a path outside the output directory, an invalid CSS selector), counted as ``policy
VALIDATION``; unsafe sets skipped (``skipped_unsafe``). Every tool must also answer some
valid call with success, unless listed in `NEVER_OK` with the reason: a drawn one, or, when the
draws happened to bring none that could succeed (20 selectors the fuzz made up may all be
invalid CSS), a plain call: one of suggested values only, or an example its schema documents,
tried from each precondition in turn (``example_ok``).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cdpilot_generated.catalog import DISPATCH
from cdpilot_generated.manifests import MODES, Mode
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tests.reliability.conftest import Report, scaled
from tests.support.chromium import no_processes_with
from tests.support.fuzz_calls import (
    HUGE_INTEGER,
    WIRE,
    Contract,
    Mutation,
    contracts,
    mutations,
    names_field,
    quick,
    suggested_calls,
    unsafe,
    valid_sets,
    with_choices,
)
from tests.support.fuzz_site import FUZZ_PAGES
from tests.support.fuzz_stage import PRECONDITIONS, Stage, failure_text, open_stage
from tests.support.pages import serve_pages
from tests.support.registry import answer

# Generous: every hang a handler has costs a deadline, and pytest-timeout ends the whole session.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(scaled(300, 1800))]

SUITE = "schema_fuzzing"
VALID_SETS = scaled(20, 200)
LAUNCHING_SETS = scaled(4, 40)  # for the tools that start or end browsers: each launch costs a second or more
LAUNCHING = frozenset({"chrome", "chrome_launch", "chrome_connect", "chrome_disconnect"})
INVALID_SETS = scaled(20, 200)
CALL_DEADLINE_S = 15.0  # far above any answer once timeouts are bounded; reaching it counts as a crash
SETUP_DEADLINE_S = 15.0  # a precondition or a restore (a relaunch included)
SCHEMA_STEP = "Invalid arguments for "
CASES = [(mode, tool) for mode in MODES for tool in sorted(WIRE[mode])]
ALLOWED_VALID_OUTCOMES = {"ok", "CONNECTION", "DEBUGGER", "STATE", "EXECUTION", "policy VALIDATION"}
NEVER_OK = {
    "chrome_connect": "it may only ever meet closed ports",
    "node_run": "its programs are made-up names, and its examples' files are another project's",
}
FUZZ_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def documented_examples(tool: str) -> list[dict[str, Any]]:
    """The examples the schema of `tool` (as this mode names it) documents."""
    found = [*SCHEMAS.glob(f"tools/*/{tool}.json"), *SCHEMAS.glob(f"smart/{tool}.json")]
    return [example for path in found for example in json.loads(path.read_text()).get("examples", [])]


# --- outcomes -----------------------------------------------------------------------------


@dataclass
class Figures:
    valid: int = 0
    invalid: int = 0
    crashes: int = 0
    invalid_named: int = 0
    valid_schema_refused: int = 0
    valid_policy_refused: int = 0
    skipped_unsafe: int = 0
    seconds: float = 0.0
    example_ok: str | None = None  # the plain call that succeeded, when no drawn call did
    valid_outcomes: Counter[str] = field(default_factory=Counter)
    valid_by_spelling: Counter[str] = field(default_factory=Counter)
    valid_by_precondition: Counter[str] = field(default_factory=Counter)
    restored: Counter[str] = field(default_factory=Counter)
    invalid_by_kind: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def as_report(self) -> dict[str, Any]:
        figures = {k: v for k, v in vars(self).items() if k != "failures"}
        figures["seconds"] = round(self.seconds, 1)
        figures["invalid_named_pct"] = round(100 * self.invalid_named / self.invalid, 1) if self.invalid else None
        return figures


def outcome_of(result: Any) -> tuple[str, str]:
    """("ok" | error type | "policy VALIDATION" | "schema VALIDATION", text) of one result."""
    text = "".join(getattr(block, "text", "") for block in result.content)
    if not result.is_error:
        return "ok", text
    kind = str(result.meta["cdpilot/errorType"])
    if kind == "VALIDATION":
        kind = "schema VALIDATION" if text.startswith(SCHEMA_STEP) else "policy VALIDATION"
    return kind, text


@pytest.fixture(scope="module")
def stages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[Mode], Stage]]:
    """One stage per mode, opened on first use, closed with the module; cdpilot's temporary
    profiles go under the module's temporary directory, and no browser may outlive it."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "tmp").mkdir()
    loop = asyncio.new_event_loop()
    opened: dict[Mode, Stage] = {}

    def stage(mode: Mode) -> Stage:
        if mode not in opened:
            opened[mode] = loop.run_until_complete(open_stage(mode, origin, root / mode, loop))
        return opened[mode]

    with serve_pages(FUZZ_PAGES) as origin, pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(root / "tmp"))
        try:
            yield stage
        finally:
            for opened_stage in opened.values():
                loop.run_until_complete(opened_stage.registry.ctx.connections.aclose())
            loop.close()
    assert no_processes_with(str(root)), "a browser outlived the fuzz"


# --- the run --------------------------------------------------------------------------------

PER_TOOL: dict[str, dict[str, Any]] = {}


@pytest.mark.parametrize(("mode", "tool"), CASES, ids=[f"{m}-{t}" for m, t in CASES])
def test_every_call_is_answered_and_every_invalid_one_names_its_field(
    mode: Mode, tool: str, stages: Callable[[Mode], Stage], report: Report
) -> None:
    stage = stages(mode)
    started = time.monotonic()
    flat = WIRE[mode][tool]
    routes = contracts(mode, tool)
    flat_validator = jsonschema.Draft202012Validator(flat)
    route_validators = [jsonschema.Draft202012Validator(route.schema) for route in routes]
    figures = Figures()

    def call(args: dict[str, Any]) -> tuple[str, str]:
        try:
            result = stage.run(stage.registry.call(tool, args), CALL_DEADLINE_S)
        except Exception as exc:  # escaped the boundary, or ran past the deadline
            return "crash", failure_text(exc)
        kind, text = outcome_of(result)
        return ("crash", text) if kind == "UNKNOWN" else (kind, text)

    def note(failure: str, args: dict[str, Any], text: str) -> None:
        figures.failures.append(f"{failure}: {json.dumps(args, default=repr)[:300]} -> {text[:300]}")

    def restore(contract: Contract, args: dict[str, Any]) -> None:
        """Put the stage back; once more, reloading the page, if that fails (a navigation the call
        started may commit under the first try). If the tools cannot undo what a valid call did,
        that is a finding, and the fixture browser is replaced so that the next call starts clean."""
        failures = []
        for reload in (False, True):
            try:
                figures.restored.update(stage.run(stage.restore(contract.tool, reload=reload), SETUP_DEADLINE_S))
                return
            except Exception as exc:
                failures.append(failure_text(exc))
        note("restore failed", args, " / ".join(failures))
        figures.restored.update(stage.run(stage.replace_browser(), SETUP_DEADLINE_S))

    draws = [
        st.tuples(
            valid_sets(quick(variant), stage.suggested(variant.tool), stage.forced),
            st.just(variant),
            st.sampled_from(PRECONDITIONS),
        )
        for route in routes
        for variant in with_choices(route)
    ]

    @settings(FUZZ_SETTINGS, max_examples=LAUNCHING_SETS if tool in LAUNCHING else VALID_SETS)
    @given(st.one_of(draws))
    def valid(drawn: tuple[tuple[dict[str, Any], str], Contract, str]) -> None:
        (args, spelling), contract, precondition = drawn
        assert flat_validator.is_valid(args), "a contract strayed from the wire schema"
        if unsafe(contract, args, stage.origin):
            figures.skipped_unsafe += 1
            assume(False)
        figures.valid += 1
        figures.valid_by_spelling[spelling] += 1
        figures.valid_by_precondition[precondition] += 1
        try:
            stage.run(stage.establish(precondition), SETUP_DEADLINE_S)
        except Exception:  # the last call's navigation may have committed after its restore
            try:
                stage.run(stage.restore(contract.tool, reload=True), SETUP_DEADLINE_S)
                stage.run(stage.establish(precondition), SETUP_DEADLINE_S)
            except Exception as exc:
                note(f"precondition {precondition!r} failed", args, failure_text(exc))
        args = stage.bound(args)
        kind, text = call(args)
        figures.valid_outcomes[kind] += 1
        if kind == "crash":
            figures.crashes += 1
            note(f"crash ({precondition})", args, text)
        elif kind == "schema VALIDATION":
            figures.valid_schema_refused += 1
            note("valid set refused", args, text)
        elif kind == "policy VALIDATION":
            figures.valid_policy_refused += 1
        elif kind not in ALLOWED_VALID_OUTCOMES:
            note(f"unexpected {kind} ({precondition})", args, text)
        restore(contract, args)

    @settings(FUZZ_SETTINGS, max_examples=INVALID_SETS)
    @given(
        st.one_of(
            [
                st.tuples(
                    from_schema(c.schema), st.just(c), st.sampled_from(mutations(c.schema, flat, DISPATCH[mode][tool]))
                )
                for c in routes
            ]
        )
    )
    def invalid(drawn: tuple[dict[str, Any], Contract, Mutation]) -> None:
        base, contract, mutation = drawn
        args = mutation.apply(base)
        assume(not any(validator.is_valid(args) for validator in route_validators))
        figures.invalid += 1
        figures.invalid_by_kind[mutation.kind] += 1
        kind, text = call(args)
        if kind == "crash":
            figures.crashes += 1
            note("crash", args, text)
        elif kind.endswith("VALIDATION") and names_field(text, mutation.field):
            figures.invalid_named += 1
        else:  # it went past validation: whatever it did, put the stage back
            note(f"{mutation.kind} of {mutation.field} answered {kind}", args, text)
            restore(contract, args)

    def plain_call_succeeds() -> str | None:
        """The first call of suggested values, or of the tool's documented examples, that
        succeeds from some precondition."""
        plain = [
            (call_args, variant)
            for route in routes
            for variant in with_choices(quick(route))
            for call_args in suggested_calls(variant, {**stage.suggested(variant.tool), **stage.forced})
        ]
        for example in documented_examples(tool):
            route = next((c for c, ok in zip(routes, route_validators, strict=True) if ok.is_valid(example)), None)
            if route is not None:  # else an example of another mode's spelling
                plain.append((example, route))
        for args, route in plain:
            if not flat_validator.is_valid(args):
                continue
            for precondition in PRECONDITIONS:
                try:
                    stage.run(stage.establish(precondition), SETUP_DEADLINE_S)
                    kind, _ = call(stage.bound(args))
                finally:
                    restore(route, args)
                if kind == "ok":
                    return f"{json.dumps(args)} ({precondition})"
        return None

    valid()
    if not figures.valid_outcomes["ok"] and tool not in NEVER_OK:
        figures.example_ok = plain_call_succeeds()
    invalid()
    figures.seconds = time.monotonic() - started
    PER_TOOL[f"{mode}/{tool}"] = figures.as_report()
    report.record(SUITE, per_tool=PER_TOOL, totals=_totals(PER_TOOL.values()))
    assert figures.failures == [], "\n".join(figures.failures[:10])
    assert figures.crashes == 0 and figures.valid_schema_refused == 0
    assert figures.invalid and figures.invalid_named == figures.invalid
    succeeded = figures.valid_outcomes["ok"] or figures.example_ok is not None
    assert succeeded or tool in NEVER_OK, f"no valid call succeeded, nor an example: {dict(figures.valid_outcomes)}"


def _totals(per_tool: Collection[dict[str, Any]]) -> dict[str, Any]:
    """The per-tool figures summed: counts add up, and so do the counters of outcomes and kinds."""
    total: dict[str, Any] = {"tools": len(per_tool)}
    for figures in per_tool:
        for key, value in figures.items():
            if isinstance(value, dict):
                total.setdefault(key, Counter()).update(value)
            elif isinstance(value, int | float) and key != "invalid_named_pct":
                total[key] = total.get(key, 0) + value
    invalid = total.get("invalid", 0)
    total["seconds"] = round(total.get("seconds", 0), 1)
    total["invalid_named_pct"] = round(100 * total.get("invalid_named", 0) / invalid, 1) if invalid else None
    return total


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        # JSON Schema's integers include 5.0; the registry used to refuse it as "a float".
        pytest.param("get_console_logs", {"limit": 5.0}, None, id="integral-float"),
        # urlsplit raised ValueError outside any check (UNKNOWN).
        pytest.param("chrome_connect", {"ws_url": "ws://["}, "VALIDATION", id="ws-url-unclosed-bracket"),
        # timeout_ms / 1000 overflowed a float (UNKNOWN); timeouts now have a schema maximum.
        pytest.param("chrome_connect", {"timeout_ms": HUGE_INTEGER}, "VALIDATION", id="timeout-past-float"),
    ],
)
def test_what_the_fuzz_found(
    tool: str, args: dict[str, Any], expected: str | None, stages: Callable[[Mode], Stage]
) -> None:
    """Each defect the fuzz found, pinned as one call: a regression test per fix."""
    stage = stages("legacy")
    error, text = stage.run(answer(stage.registry, tool, **args), CALL_DEADLINE_S)
    assert error == expected, text
