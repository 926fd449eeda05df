"""Schema fuzzing: every tool of both modes, through the real registry.

For each tool of the exact tools/list payloads (`manifests.SMART_TOOLS_JSON` and
`LEGACY_TOOLS_JSON`), hypothesis-jsonschema generates argument sets the schema accepts
and a small mutator derives sets it refuses (a wrong type, a missing required field, an
unknown or another action's parameter, a value out of range, too short or off-pattern, an
enum miss). They go through the shipped `Registry` and handlers with a real
`ConnectionManager` that has no connection and cannot find a browser, so a valid call ends
in a CONNECTION error, a success (listing nothing) or a handler's policy refusal, and never
launches or reaches anything.

A smart tool's flat schema is the union of its actions' parameters, and which of them a
call may use depends on its ``action`` (or on its routing rules): ``chrome(action="list",
port=1)`` matches the flat schema but is a mistake. So each smart tool is fuzzed through
its *contracts*: one schema per route, cut from the wire schemas (the flat schema's
subschemas, restricted to the parameters the granular tool lists in legacy mode, with the
discriminator pinned or the rule's condition made to hold). Valid sets come from one
contract; invalid sets are mutated from one and must match none. Valid sets also go out as
a JSON client may spell them and hypothesis-jsonschema never does: integers as ``5.0``, and
integers without a maximum as large as JSON allows.

Nothing is reached: no browser can be found (see `fuzz_registry`), and a valid set that
could meet a live local listener, or whose ``executable_path`` names a real program, is
skipped and counted (``skipped_unsafe``), so only closed ports are ever met.

``null`` for an optional parameter is not a mutation: this server reads it as "not given"
(routing rules and default resolvers say so), which is what MCP clients mean by it.

Figures per tool and in total: crashes (UNKNOWN results, exceptions or calls past their
deadline; must be 0), invalid sets answered with a VALIDATION naming the offending field
(must be 100%), valid sets refused by schema validation ("Invalid arguments for …"; must
be 0) apart from valid sets a handler refused on policy (a javascript: URL, a remote host),
which are counted on their own.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import shutil
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
from cdpilot_generated import manifests
from cdpilot_generated.catalog import DISPATCH, ActionRoute, RuleRoute
from cdpilot_generated.manifests import MODES, Mode
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from cdpilot.browser.session.endpoints import is_loopback
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.context import Settings
from cdpilot.server.registry import Registry
from tests.reliability.conftest import Report, scaled
from tests.support.chromium import TEST_CHROME_ARGS
from tests.support.registry import in_process_registry

SUITE = "schema_fuzzing"
VALID_SETS = scaled(20, 200)
INVALID_SETS = scaled(20, 200)
CALL_DEADLINE_S = 15.0  # far above any answer without a browser; reaching it counts as a crash
SCHEMA_STEP = "Invalid arguments for "
SPELLINGS = ("as drawn", "integral floats", "unbounded integers")
HUGE_INTEGER = 10**400  # valid JSON, and Python parses it; past any float
ALLOWED_VALID_OUTCOMES = {"ok", "CONNECTION", "STATE", "policy VALIDATION"}

WIRE: dict[str, dict[str, dict[str, Any]]] = {
    mode: {tool["name"]: tool["inputSchema"] for tool in json.loads(payload)["tools"]}
    for mode, payload in (("smart", manifests.SMART_TOOLS_JSON), ("legacy", manifests.LEGACY_TOOLS_JSON))
}
CASES = [(mode, tool) for mode in MODES for tool in sorted(WIRE[mode])]

# One value of each JSON type, for wrong-type mutations.
SAMPLES: dict[str, object] = {
    "string": "text",
    "integer": 7,
    "number": 2.5,
    "boolean": True,
    "array": ["a"],
    "object": {"k": "v"},
    "null": None,
}
JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}
FUZZ_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


# --- contracts: one schema per route of a tool --------------------------------------------


def contracts(mode: Mode, tool: str) -> list[dict[str, Any]]:
    """The schemas a call of `tool` must match one of; a granular tool has just its wire schema."""
    route = DISPATCH[mode][tool]
    flat = WIRE[mode][tool]
    if isinstance(route, ActionRoute):
        key = route.discriminator
        return [
            _cut(
                flat,
                target.name,
                pinned={key: {"const": action}},
                required=[] if action == route.default_action else [key],
            )
            for action, target in route.actions.items()
        ]
    if isinstance(route, RuleRoute):
        own = list(route.own.model_fields) if route.own is not None else []
        cut = []
        for index, rule in enumerate(route.rules):
            pinned: dict[str, Any] = {name: flat["properties"][name] for name in own}
            required, absent = [], set()
            for earlier in route.rules[:index]:  # none of them may match
                if earlier.present is not None:
                    absent.add(earlier.present)
                elif earlier.equals is not None:
                    prop, value = earlier.equals
                    pinned[prop] = {"allOf": [flat["properties"][prop], {"not": {"const": value}}]}
                    if flat["properties"][prop].get("default") == value:
                        required.append(prop)
            if rule.present is not None:
                required.append(rule.present)
            elif rule.equals is not None:
                prop, value = rule.equals
                pinned[prop] = {"const": value}
                if flat["properties"][prop].get("default") != value:
                    required.append(prop)
            cut.append(_cut(flat, rule.tool.name, pinned=pinned, required=required, absent=absent))
        return cut
    return [flat]


def _cut(
    flat: dict[str, Any],
    target: str,
    *,
    pinned: dict[str, Any],
    required: list[str],
    absent: Collection[str] = (),
) -> dict[str, Any]:
    """The flat schema narrowed to one granular tool (as legacy mode lists it) plus `pinned`."""
    granular = WIRE["legacy"][target]
    properties = {
        name: schema
        for name, schema in flat["properties"].items()
        if name in granular["properties"] and name not in absent
    }
    properties.update(pinned)
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": sorted({*(n for n in granular.get("required", []) if n in properties), *required}),
    }


def spelled(args: dict[str, Any], contract: dict[str, Any], spelling: str) -> dict[str, Any]:
    """A valid set as a JSON client may also write it: hypothesis-jsonschema draws Python ints,
    but JSON Schema's integers include 5.0, and an integer without a maximum may be any size."""
    if spelling == "integral floats":
        return {k: float(v) if type(v) is int else v for k, v in args.items()}
    if spelling == "unbounded integers":
        unbounded = {k for k, schema in contract["properties"].items() if _is_unbounded_integer(schema)}
        return {k: HUGE_INTEGER if type(v) is int and k in unbounded else v for k, v in args.items()}
    return args


def _is_unbounded_integer(schema: dict[str, Any]) -> bool:
    declared = schema.get("type")
    return "maximum" not in schema and (declared == "integer" or (isinstance(declared, list) and "integer" in declared))


# --- the mutator --------------------------------------------------------------------------

MISSING = object()


@dataclass(frozen=True)
class Mutation:
    kind: str
    field: str
    value: object = MISSING

    def apply(self, args: dict[str, Any]) -> dict[str, Any]:
        mutated = dict(args)
        if self.value is MISSING:
            mutated.pop(self.field, None)
        else:
            mutated[self.field] = self.value
        return mutated


def _types(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    if declared is None:  # a pinned discriminator or rule value
        return {JSON_TYPES[type(choice)] for choice in _choices(schema)}
    names = {declared} if isinstance(declared, str) else set(declared)
    return names | {"integer"} if "number" in names else names


def _choices(schema: dict[str, Any]) -> list[Any]:
    return list(schema["enum"]) if "enum" in schema else [schema["const"]] if "const" in schema else []


def mutations(contract: dict[str, Any], flat: dict[str, Any], route: object) -> list[Mutation]:
    """Every one-step way to break `contract`; each names the field a correct refusal must name.

    Where an action pins the route, another action's parameter is a mutation (under routing
    rules it may just choose another route), and so is leaving the action out, unless a
    default action then takes the call."""
    found = [Mutation("extra property", "zz_not_a_parameter", "x")]
    required = contract.get("required", [])
    if isinstance(route, ActionRoute):
        found += [
            Mutation("another action's property", n, "x") for n in flat["properties"] if n not in contract["properties"]
        ]
        if route.default_action is not None:
            required = [name for name in required if name != route.discriminator]
    found += [Mutation("missing required", name) for name in required]
    for name, schema in contract["properties"].items():
        schema = schema.get("allOf", [schema])[0]
        allowed = _types(schema)
        for kind, sample in SAMPLES.items():
            if kind not in allowed and (kind != "null" or name in contract.get("required", [])):
                found.append(Mutation("wrong type", name, sample))
        found += [Mutation(kind, name, value) for kind, value in _out_of_range(schema)]
    return found


def _out_of_range(schema: dict[str, Any]) -> Iterator[tuple[str, object]]:
    if "minimum" in schema:
        yield "below minimum", schema["minimum"] - (1 if schema.get("type") == "integer" else 0.5)
    if "maximum" in schema:
        yield "above maximum", schema["maximum"] + (1 if schema.get("type") == "integer" else 0.5)
    if schema.get("minLength", 0) > 0:
        yield "too short", "a" * (schema["minLength"] - 1)
    if "pattern" in schema:
        yield "off pattern", "does-not-match"
    if schema.get("minItems", 0) > 0:
        yield "too few items", []
    if all(isinstance(choice, str) for choice in _choices(schema)) and _choices(schema):
        yield "enum miss", "not-a-choice"
    items = schema.get("items", {})
    if items.get("type") == "string":
        yield "item of wrong type", [7]
        if items.get("minLength", 0) > 0:
            yield "item too short", [""]
    values = schema.get("additionalProperties")
    if isinstance(values, dict) and values.get("type") == "string":
        yield "value of wrong type", {"k": 7}


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
    valid_outcomes: Counter[str] = field(default_factory=Counter)
    valid_by_spelling: Counter[str] = field(default_factory=Counter)
    invalid_by_kind: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def as_report(self) -> dict[str, Any]:
        figures = {k: v for k, v in vars(self).items() if k != "failures"}
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


def names_field(text: str, name: str) -> bool:
    """Whether one of the listed problems ("- field: expected …", "- field.sub: …") is `name`."""
    return re.search(rf"^- {re.escape(name)}[:.]", text, re.MULTILINE) is not None


def listening_loopback_ports() -> set[int]:
    """Ports something listens on that 127.0.0.1 reaches (loopback or wildcard binds), per /proc."""
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, port = local.split(":")
            if state == "0A" and (set(address) == {"0"} or address.endswith(("0100007F", "01000000"))):
                ports.add(int(port, 16))
    return ports


def reaches_live_service(tool: str, args: dict[str, Any]) -> bool:
    """Whether this call would connect to a real local listener; fuzzing must only ever meet
    closed ports (hypothesis likes 9222 and 80, and other tests' browsers listen on loopback)."""
    if tool != "chrome_connect" and not (tool == "chrome" and args.get("action") == "connect"):
        return False
    host, port = args.get("host", "127.0.0.1"), args.get("port", 9222)
    if isinstance(args.get("ws_url"), str):
        try:
            parts = urlsplit(args["ws_url"].strip())
            host, port = parts.hostname or "", parts.port or (443 if parts.scheme.lower() == "wss" else 80)
        except ValueError:  # not a URL anyone could reach
            return False
    return isinstance(host, str) and is_loopback(host) and port in listening_loopback_ports()


# --- the run --------------------------------------------------------------------------------

PER_TOOL: dict[str, dict[str, Any]] = {}


@pytest.fixture
def fuzz_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Mode], Registry]]:
    """A real registry whose browser search can only fail: the path named by the env does
    not exist, PATH and the working directory are empty, so no fuzzed ``executable_path``
    or ``"["`` can ever name a program to start."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    env = {
        "CDPILOT_CHROME_PATH": "/nonexistent/chromium",
        "PATH": str(empty),
        "CDPILOT_CHROME_ARGS": shlex.join(TEST_CHROME_ARGS),
    }
    made: list[ConnectionManager] = []

    def make(mode: Mode) -> Registry:
        connections = ConnectionManager(env=env)
        made.append(connections)
        settings_ = Settings(output_dir=tmp_path / "out", rate_limit=None)  # thousands of calls a second, on purpose
        return in_process_registry(connections, mode, settings_)

    yield make
    for connections in made:
        assert connections.list() == []


@pytest.mark.parametrize(("mode", "tool"), CASES, ids=[f"{m}-{t}" for m, t in CASES])
def test_every_call_is_answered_and_every_invalid_one_names_its_field(
    mode: Mode, tool: str, fuzz_registry: Callable[[Mode], Registry], report: Report
) -> None:
    registry = fuzz_registry(mode)
    flat = WIRE[mode][tool]
    routes = contracts(mode, tool)
    flat_validator = jsonschema.Draft202012Validator(flat)
    route_validators = [jsonschema.Draft202012Validator(schema) for schema in routes]
    figures = Figures()
    loop = asyncio.new_event_loop()

    def call(args: dict[str, Any]) -> tuple[str, str]:
        try:
            result = loop.run_until_complete(asyncio.wait_for(registry.call(tool, args), CALL_DEADLINE_S))
        except Exception as exc:  # escaped the boundary, or ran past the deadline
            return "crash", f"{type(exc).__name__}: {exc}"
        kind, text = outcome_of(result)
        return ("crash", text) if kind == "UNKNOWN" else (kind, text)

    def note(failure: str, args: dict[str, Any], text: str) -> None:
        figures.failures.append(f"{failure}: {json.dumps(args, default=repr)[:300]} -> {text[:300]}")

    @settings(FUZZ_SETTINGS, max_examples=VALID_SETS)
    @given(st.one_of([st.tuples(from_schema(c), st.just(c), st.sampled_from(SPELLINGS)) for c in routes]))
    def valid(drawn: tuple[dict[str, Any], dict[str, Any], str]) -> None:
        args = spelled(*drawn)
        assert flat_validator.is_valid(args), "a contract strayed from the wire schema"
        if reaches_live_service(tool, args) or (args.get("executable_path") and shutil.which(args["executable_path"])):
            figures.skipped_unsafe += 1
            assume(False)
        figures.valid += 1
        figures.valid_by_spelling[drawn[2]] += 1
        kind, text = call(args)
        figures.valid_outcomes[kind] += 1
        if kind == "crash":
            figures.crashes += 1
            note("crash", args, text)
        elif kind == "schema VALIDATION":
            figures.valid_schema_refused += 1
            note("valid set refused", args, text)
        elif kind == "policy VALIDATION":
            figures.valid_policy_refused += 1
        elif kind not in ALLOWED_VALID_OUTCOMES:
            note(f"unexpected {kind}", args, text)

    @settings(FUZZ_SETTINGS, max_examples=INVALID_SETS)
    @given(
        st.one_of(
            [st.tuples(from_schema(c), st.sampled_from(mutations(c, flat, DISPATCH[mode][tool]))) for c in routes]
        )
    )
    def invalid(drawn: tuple[dict[str, Any], Mutation]) -> None:
        base, mutation = drawn
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
        else:
            note(f"{mutation.kind} of {mutation.field} answered {kind}", args, text)

    try:
        valid()
        invalid()
    finally:
        loop.run_until_complete(registry.ctx.connections.aclose())
        loop.close()
    PER_TOOL[f"{mode}/{tool}"] = figures.as_report()
    report.record(SUITE, per_tool=PER_TOOL, totals=_totals(PER_TOOL.values()))
    assert figures.failures == [], "\n".join(figures.failures[:10])
    assert figures.crashes == 0 and figures.valid_schema_refused == 0
    assert figures.invalid and figures.invalid_named == figures.invalid


def _totals(per_tool: Collection[dict[str, Any]]) -> dict[str, Any]:
    """The per-tool figures summed: counts add up, and so do the counters of outcomes and kinds."""
    total: dict[str, Any] = {"tools": len(per_tool)}
    for figures in per_tool:
        for key, value in figures.items():
            if isinstance(value, dict):
                total.setdefault(key, Counter()).update(value)
            elif isinstance(value, int):
                total[key] = total.get(key, 0) + value
    invalid = total.get("invalid", 0)
    total["invalid_named_pct"] = round(100 * total.get("invalid_named", 0) / invalid, 1) if invalid else None
    return total


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        # JSON Schema's integers include 5.0; the registry used to refuse it as "a float".
        pytest.param("get_console_logs", {"limit": 5.0}, "CONNECTION", id="integral-float"),
        # urlsplit raised ValueError outside any check (UNKNOWN).
        pytest.param("chrome_connect", {"ws_url": "ws://["}, "VALIDATION", id="ws-url-unclosed-bracket"),
        # timeout_ms / 1000 overflowed a float (UNKNOWN); timeouts now have a schema maximum.
        pytest.param("chrome_connect", {"timeout_ms": HUGE_INTEGER}, "VALIDATION", id="timeout-past-float"),
    ],
)
def test_what_the_fuzz_found(
    tool: str, args: dict[str, Any], expected: str, fuzz_registry: Callable[[Mode], Registry]
) -> None:
    """Each defect the fuzz found, pinned as one call: a regression test per fix."""
    result = asyncio.run(fuzz_registry("legacy").call(tool, args))
    assert (result.meta or {}).get("cdpilot/errorType") == expected, outcome_of(result)[1]
