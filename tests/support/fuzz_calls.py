"""Argument sets for schema fuzzing: what a call of a tool may be, broken one step at a time,
and which drawn sets must not be sent.

A smart tool's flat schema is the union of its actions' parameters, and which of them a
call may use depends on its ``action`` (or on its routing rules): ``chrome(action="list",
port=1)`` matches the flat schema but is a mistake. So each smart tool is fuzzed through
its *contracts*: one schema per route, cut from the wire schemas (the flat schema's
subschemas, restricted to the parameters the granular tool lists in legacy mode, with the
discriminator pinned or the rule's condition made to hold). Valid sets come from one
contract; invalid sets are mutated from one (`mutations`: a wrong type, a missing required
field, an unknown or another action's parameter, a value out of range, too short or
off-pattern, an enum miss) and must match none. Valid sets also go out as a JSON client may
spell them and hypothesis-jsonschema never does: integers as ``5.0``, and integers without a
maximum as large as JSON allows.

A drawn string almost never names anything that exists, so `valid_sets` replaces three
draws in four of some parameters by values that do, and a tool whose handler wants exactly
one of some parameters (`ONE_OF`) also gets contracts that give just one. Every timeout is
given and short (`quick`).

A valid set that could meet a live local listener (``chrome connect``), or would send the
browser anywhere but the fixture server, about:blank, a data: URL or a host name (which the
test flags' resolver answers with NOTFOUND), is `unsafe`: an IP literal in a URL reaches its
address whatever the resolver says.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
from cdpilot_generated import manifests
from cdpilot_generated.catalog import DISPATCH, ActionRoute, RuleRoute
from cdpilot_generated.manifests import Mode
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from cdpilot.browser.page.urls import normalize_url
from cdpilot.browser.session.endpoints import is_loopback
from cdpilot.errors import ArgumentError

FUZZ_TIMEOUT_MS = 500
SPELLINGS = ("as drawn", "integral floats", "unbounded integers")
HUGE_INTEGER = 10**400  # valid JSON, and Python parses it; past any float
NAVIGATING = frozenset({"navigate", "new_target", "chrome_launch"})  # granular tools that load their `url`

# Parameters of which a call must give one (inspect_element: at least one): a rule the handler
# enforces, not the schema, so few drawn sets keep it. Each gets a contract that gives just it;
# a tool with several such groups gets one for each choice of one parameter from every group.
ONE_OF: dict[str, tuple[tuple[str, ...], ...]] = {
    "debugger_set_breakpoint": (("url", "url_regex"),),
    "inspect_element": (("description", "text", "attributes"),),
    "route_requests": (("url_pattern", "url_regex"), ("body", "request_headers", "abort")),
    "select_option": (("value", "label"),),
    "switch_target": (("index", "title", "url"),),
    "wait_for": (("selector", "texts"),),
}

WIRE: dict[str, dict[str, dict[str, Any]]] = {
    mode: {tool["name"]: tool["inputSchema"] for tool in json.loads(payload)["tools"]}
    for mode, payload in (("smart", manifests.SMART_TOOLS_JSON), ("legacy", manifests.LEGACY_TOOLS_JSON))
}

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


# --- contracts: one schema per route of a tool --------------------------------------------


@dataclass(frozen=True)
class Contract:
    tool: str  # the granular tool the route leads to
    schema: dict[str, Any]


def contracts(mode: Mode, tool: str) -> list[Contract]:
    """The schemas a call of `tool` must match one of; a granular tool has just its wire schema."""
    route = DISPATCH[mode][tool]
    flat = WIRE[mode][tool]
    if isinstance(route, ActionRoute):
        key = route.discriminator
        return [
            Contract(
                target.name,
                _cut(
                    flat,
                    target.name,
                    pinned={key: {"const": action}},
                    required=[] if action == route.default_action else [key],
                ),
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
            schema = _cut(flat, rule.tool.name, pinned=pinned, required=required, absent=absent)
            cut.append(Contract(rule.tool.name, schema))
        return cut
    return [Contract(tool, flat)]


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


def quick(contract: Contract) -> Contract:
    """The contract with every timeout (and a recording's duration) given and at most
    `FUZZ_TIMEOUT_MS`: the valid sets drawn from it still match the wire schema, and no call
    waits seconds for what never comes."""
    properties = dict(contract.schema["properties"])
    timeouts = [name for name in properties if name.endswith("timeout_ms") or name == "duration_ms"]
    for name in timeouts:
        properties[name] = {**properties[name], "maximum": FUZZ_TIMEOUT_MS}
    required = sorted({*contract.schema.get("required", []), *timeouts})
    return Contract(contract.tool, {**contract.schema, "properties": properties, "required": required})


def with_choices(contract: Contract) -> list[Contract]:
    """The contract, and one more per choice of `ONE_OF` parameters (one of each group): those
    required, the others of their groups absent. The contract as it is still draws sets that
    give none or several (a policy VALIDATION)."""
    groups = [
        [name for name in group if name in contract.schema["properties"]] for group in ONE_OF.get(contract.tool, ())
    ]
    variants = [contract]
    for chosen in itertools.product(*(group for group in groups if group)) if any(groups) else ():
        left_out = {name for group in groups for name in group} - set(chosen)
        properties = {k: v for k, v in contract.schema["properties"].items() if k not in left_out}
        required = sorted({*contract.schema.get("required", []), *chosen})
        variants.append(Contract(contract.tool, {**contract.schema, "properties": properties, "required": required}))
    return variants


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


# --- drawing valid sets that reach something ------------------------------------------------


def fitting(contract: Contract, values: Mapping[str, Collection[object]]) -> dict[str, list[object]]:
    """Of `values` (by parameter name), those the contract's schema for that parameter accepts."""
    found: dict[str, list[object]] = {}
    for name in contract.schema["properties"].keys() & values.keys():
        validator = jsonschema.Draft202012Validator(contract.schema["properties"][name])
        accepted = [value for value in values[name] if validator.is_valid(value)]
        if accepted:
            found[name] = accepted
    return found


def suggested_calls(contract: Contract, suggested: Mapping[str, Collection[object]]) -> list[dict[str, Any]]:
    """Calls made of suggested values only, which name what the fixture page has: the required
    parameters alone, then with each optional one that has a suggestion. A required parameter
    without one takes its constant, its first choice or its largest number (a quick timeout);
    one with none of these leaves no such call."""
    hints = fitting(contract, suggested)
    properties = contract.schema["properties"]
    base: dict[str, Any] = {}
    for name in contract.schema.get("required", []):
        schema = properties.get(name, {})
        if name in hints:
            base[name] = hints[name][0]
        elif "const" in schema:
            base[name] = schema["const"]
        elif schema.get("enum"):
            base[name] = schema["enum"][0]
        elif "maximum" in schema:
            base[name] = schema["maximum"]
        else:
            return []
    return [base, *({**base, name: hints[name][0]} for name in properties if name not in base and name in hints)]


def valid_sets(
    contract: Contract, suggested: Mapping[str, Collection[object]], forced: Mapping[str, Collection[object]]
) -> st.SearchStrategy[tuple[dict[str, Any], str]]:
    """(set, spelling): sets drawn from the contract and spelled, where most of the time a
    parameter in `suggested` then takes one of its values instead, and a parameter in `forced`
    always does (after the spelling, which would turn a suggested frame 0 into 10**400)."""
    hints, musts = fitting(contract, suggested), fitting(contract, forced)

    @st.composite
    def draw_set(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
        drawn = draw(from_schema(contract.schema))
        assert isinstance(drawn, dict)  # the contract is an object schema
        spelling = draw(st.sampled_from(SPELLINGS))
        args = spelled(drawn, contract.schema, spelling)
        for name in sorted(args.keys() & hints.keys()):
            if draw(st.sampled_from((True, True, True, False))):
                args[name] = draw(st.sampled_from(hints[name]))
        for name in sorted(args.keys() & musts.keys()):
            args[name] = draw(st.sampled_from(musts[name]))
        return args, spelling

    return draw_set()


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


def names_field(text: str, name: str) -> bool:
    """Whether one of the listed problems ("- field: expected …", "- field.sub: …") is `name`."""
    return re.search(rf"^- {re.escape(name)}[:.]", text, re.MULTILINE) is not None


# --- what a valid set may not do -------------------------------------------------------------


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


def reaches_live_service(args: dict[str, Any]) -> bool:
    """Whether a connect would meet a real local listener; fuzzing must only ever meet closed
    ports (hypothesis likes 9222 and 80, and other tests' browsers listen on loopback)."""
    host, port = args.get("host", "127.0.0.1"), args.get("port", 9222)
    if isinstance(args.get("ws_url"), str):
        try:
            parts = urlsplit(args["ws_url"].strip())
            host, port = parts.hostname or "", parts.port or (443 if parts.scheme.lower() == "wss" else 80)
        except ValueError:  # not a URL anyone could reach
            return False
    return isinstance(host, str) and is_loopback(host) and port in listening_loopback_ports()


# A host name, never an address: every label starts with a letter, so no form of IPv4 (decimal,
# octal, hex, fewer dots) or IPv6 can hide in it, and it is plain ASCII, so no IDNA mapping can
# turn it into one. The test flags' resolver answers any such name (but localhost) with NOTFOUND.
_HOST_NAME_URL = re.compile(
    r"https?://(?P<host>[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*\.?)(?::\d{1,5})?(?:[/?#].*)?", re.IGNORECASE | re.DOTALL
)


def stays_home(url: str, origin: str) -> bool:
    """Whether a browser sent to `url` can load nothing but the fixture server at `origin`,
    about:blank or a data: URL, or fail to resolve a name: what a valid set may navigate to."""
    try:
        loaded = normalize_url(url, allow_file_urls=False)
    except ArgumentError:
        return True  # refused before the browser sees it
    if loaded.lower().startswith(("about:", "data:")):
        return True
    if re.fullmatch(re.escape(origin) + r"(?:[/?#].*)?", loaded, re.DOTALL):
        return True
    named = _HOST_NAME_URL.fullmatch(loaded)
    return named is not None and named["host"].rstrip(".").rsplit(".", 1)[-1].lower() != "localhost"


def unsafe(contract: Contract, args: dict[str, Any], origin: str) -> bool:
    if contract.tool == "chrome_connect":
        return reaches_live_service(args)
    url = args.get("url")
    return contract.tool in NAVIGATING and isinstance(url, str) and not stays_home(url, origin)
