"""Schema lint: every rule a schema and the tool catalog must keep, each finding naming its file and rule.

All findings are collected before failing, so one run shows every problem at once.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from codegen.catalog import (
    HINTS,
    MODES,
    NAME_PATTERN,
    RESOLVERS,
    SHORT_KEY,
    VENDOR_KEY,
    Catalog,
    GranularTool,
    SmartTool,
    smart_description,
    smart_names,
)
from codegen.keywords import unenforced_keywords
from codegen.lint_routes import route_rules, route_shape
from codegen.manifest import payload
from codegen.schema_check import schema_error
from codegen.smart import choose_route, input_schema, merged_properties, omitted_needers, omitted_owners, spellings

SMART_TOOL_BUDGET = 20
# Characters of the smart tools/list result as compact JSON: what the product promises. A new
# ability fits by folding into an existing tool as an action, with parameters shared by name.
SMART_PAYLOAD_BUDGET = 16_000
# Characters of one parameter's description in smart mode: a few words, or one clause. A longer
# description stays for legacy mode and the docs, with a short form beside it (x-cdpilot.short).
SMART_DESCRIPTION_MAX = 60

_GRANULAR_KEYS = {
    "$schema",
    "description",
    "type",
    "additionalProperties",
    "properties",
    "required",
    "examples",
}
_SMART_KEYS = {"$schema", "description", "examples", "properties"}
_GRANULAR_META = {"group", "modes", "annotations", "defaults"}
_ACTIONS_FORM = ("actions", "discriminator", "default_action", "discriminator_description")
_SMART_META = {"group", *_ACTIONS_FORM, "routes", "annotations", "omit"}


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: [{self.rule}] {self.message}"


def lint(catalog: Catalog) -> list[Finding]:
    findings = [Finding(catalog.rel(e.path), e.rule, e.message) for e in catalog.load_errors]
    for tool in catalog.granular.values():
        findings += [Finding(catalog.rel(tool.path), r, m) for r, m in _granular(tool)]
    for smart in catalog.smart.values():
        findings += [Finding(catalog.rel(smart.path), r, m) for r, m in _smart(catalog, smart)]
    findings += _catalog_rules(catalog)
    if not findings:  # the payload is only measured (and only renders) once every schema is sound
        findings += _payload_budget(catalog)
    return sorted(set(findings))


def _common(raw: dict[str, Any], name: str, allowed: set[str]) -> Iterator[tuple[str, str]]:
    if not NAME_PATTERN.match(name):
        yield "name", f"tool name {name!r} must match ^[a-z][a-z0-9_]*$ (the file name is the tool name)"
    for key in sorted(set(raw) - allowed - {VENDOR_KEY}):
        yield "unknown-key", f"unexpected top-level key {key!r}"
    if not isinstance(raw.get("description"), str) or not raw["description"].strip():
        yield "description", "the tool needs a non-empty description"
    if not isinstance(raw.get(VENDOR_KEY), dict):
        yield "vendor-key", f"missing the {VENDOR_KEY!r} object (group, modes, annotations)"
        return
    group = raw[VENDOR_KEY].get("group")
    if not isinstance(group, str) or not NAME_PATTERN.match(group):
        yield "vendor-key", "x-cdpilot.group must be a lower_snake name"
    elif keyword.iskeyword(group):
        yield "vendor-key", f"x-cdpilot.group {group!r} is a Python keyword; the group names a module of models"
    examples = raw.get("examples")
    if not isinstance(examples, list) or not examples:
        yield "examples", "give at least one example argument object"


def _granular(tool: GranularTool) -> Iterator[tuple[str, str]]:
    raw, meta = tool.raw, tool.meta
    yield from _common(raw, tool.name, _GRANULAR_KEYS)
    for key in sorted(set(meta) - _GRANULAR_META):
        yield "vendor-key", f"unexpected x-cdpilot key {key!r}"
    if tool.resolved.get("type") != "object":
        yield "schema-type", 'the input schema must have "type": "object"'
    if tool.resolved.get("additionalProperties") is not False:
        yield "additional-properties", 'the input schema must set "additionalProperties": false'
    yield from _property_rules(tool.properties)
    if "smart" in tool.modes:
        yield from _smart_descriptions(tool.properties)
    for name in tool.required:
        if name not in tool.properties:
            yield "required", f"required property {name!r} is not declared"
    modes = meta.get("modes")
    if not isinstance(modes, list) or not modes or not set(modes) <= set(MODES) or len(set(modes)) != len(modes):
        yield "vendor-key", f"x-cdpilot.modes must be a non-empty list of {list(MODES)}"
    elif "legacy" not in modes:
        yield "mapping", "every granular tool is a legacy tool; smart-only behaviour needs a legacy form too"
    yield from _annotations(meta.get("annotations"), full=True)
    for prop, resolver in tool.defaults.items():
        if prop not in tool.properties:
            yield "defaults", f"default resolver for undeclared property {prop!r}"
        elif prop in tool.required:
            yield "defaults", f"property {prop!r} is required, so a default resolver would never run"
        if resolver not in RESOLVERS:
            yield "defaults", f"unknown resolver {resolver!r}; known: {sorted(RESOLVERS)}"
    yield from _examples(raw.get("examples"), tool.resolved)


def _property_rules(properties: dict[str, Any]) -> Iterator[tuple[str, str]]:
    for prop, schema in properties.items():
        if not NAME_PATTERN.match(prop):
            yield "property-name", f"property {prop!r} must be lower_snake"
        if not isinstance(schema, dict) or not str(schema.get("description", "")).strip():
            yield "property-description", f"property {prop!r} needs a description"
        vendor = schema.get(VENDOR_KEY) if isinstance(schema, dict) else None
        if vendor is not None:
            yield from _short_form(prop, vendor, schema.get("description"))
        documented = {k: v for k, v in schema.items() if k != VENDOR_KEY} if isinstance(schema, dict) else schema
        for message in unenforced_keywords(prop, documented):
            yield "keyword", message


def _short_form(prop: str, vendor: Any, description: Any) -> Iterator[tuple[str, str]]:
    """A parameter's x-cdpilot: only its short form for smart mode, which must differ from the description."""
    short = vendor.get(SHORT_KEY) if isinstance(vendor, dict) else None
    if not isinstance(vendor, dict) or set(vendor) != {SHORT_KEY} or not isinstance(short, str) or not short.strip():
        yield "property-short", f'property {prop!r}: x-cdpilot must be {{"short": "<its description in a few words>"}}'
    elif short == description:
        yield "property-short", f"property {prop!r}: x-cdpilot.short repeats the description; drop it"


def _smart_descriptions(properties: dict[str, Any], discriminator: str | None = None) -> Iterator[tuple[str, str]]:
    """Smart mode describes every parameter, each in at most SMART_DESCRIPTION_MAX characters. A
    property without a description is reported on its own file (property-description); the
    discriminator, which the smart tool declares, here."""
    for prop, schema in properties.items():
        text = smart_description(schema)
        if not text and prop == discriminator:
            yield (
                "smart-description",
                f"smart parameter {prop!r} has no description (give it x-cdpilot.discriminator_description)",
            )
        elif len(text) > SMART_DESCRIPTION_MAX:
            yield (
                "smart-description",
                f"smart parameter {prop!r} is described in {len(text)} characters; smart mode takes at most "
                f"{SMART_DESCRIPTION_MAX} (put a shorter form beside the description: "
                '"x-cdpilot": {"short": "..."})',
            )


def _annotations(value: Any, *, full: bool) -> Iterator[tuple[str, str]]:
    if not isinstance(value, dict):
        yield "annotations", "x-cdpilot.annotations must be an object"
        return
    if "title" in value and not isinstance(value["title"], str):
        yield "annotations", "annotations.title must be a string"
    allowed = {"title", *HINTS} if full else {"title"}
    for key in sorted(set(value) - allowed):
        hint = " (smart tools derive their hints from their actions)" if not full else ""
        yield "annotations", f"unexpected annotation {key!r}{hint}"
    if full:
        for hint_name in HINTS:
            if not isinstance(value.get(hint_name), bool):
                yield "annotations", f"annotations.{hint_name} must be true or false"


def _examples(examples: Any, schema: dict[str, Any], names: Sequence[str] = ()) -> Iterator[tuple[str, str]]:
    """Each example against ``schema``; ``names`` (default "example <index>") say which one failed."""
    if not isinstance(examples, list):
        return
    problem = schema_error(schema)
    if problem is not None:
        yield "schema-invalid", f"not a valid JSON Schema: {problem}"
        return
    validator = Draft202012Validator(schema)
    for index, example in enumerate(examples):
        name = names[index] if index < len(names) else f"example {index}"
        for error in validator.iter_errors(example):
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            yield "examples", f"{name} is invalid at {where}: {error.message}"


def _smart(catalog: Catalog, tool: SmartTool) -> Iterator[tuple[str, str]]:
    yield from _common(tool.raw, tool.name, _SMART_KEYS)
    meta = tool.meta
    for key in sorted(set(meta) - _SMART_META):
        yield "vendor-key", f"unexpected x-cdpilot key {key!r}"
    yield from _annotations(meta.get("annotations", {}), full=False)
    mixed = [key for key in _ACTIONS_FORM if key in meta]
    if tool.uses_routes and mixed:
        yield (
            "smart-form",
            f"x-cdpilot has both routes and {', '.join(mixed)}; a smart tool uses exactly one form, actions or routes",
        )
    elif tool.uses_routes:
        yield from _routes_form(catalog, tool)
    elif "actions" in meta:
        yield from _actions_form(catalog, tool)
    else:
        yield "smart-form", "declare x-cdpilot.actions (action -> granular tool) or x-cdpilot.routes (rules)"


def _actions_form(catalog: Catalog, tool: SmartTool) -> Iterator[tuple[str, str]]:
    meta = tool.meta
    if "properties" in tool.raw:
        yield "smart-form", 'top-level "properties" are router-own properties, which only the routes form has'
    if not NAME_PATTERN.match(tool.discriminator):
        yield "vendor-key", "x-cdpilot.discriminator must be a lower_snake name"
    actions = meta.get("actions")
    if not isinstance(actions, dict) or not actions:
        yield "mapping", "x-cdpilot.actions must map each action to a granular tool"
        return
    if any(target in catalog.unloadable for target in actions.values()):
        return  # the broken granular file is reported on its own; checking against it would only echo that
    for action, target in actions.items():
        granular = catalog.granular.get(target) if isinstance(target, str) else None
        if not NAME_PATTERN.match(action):
            yield "mapping", f"action {action!r} must be lower_snake"
        if granular is None:
            yield "mapping", f"action {action!r} names {target!r}, which is no granular tool"
        elif "smart" in granular.modes:
            yield "mapping", f"action {action!r} names {target!r}, which is itself a smart-mode tool"
        elif tool.discriminator in granular.properties:
            yield "discriminator-clash", f"{target!r} has a property named {tool.discriminator!r}"
    if tool.default_action is not None and tool.default_action not in actions:
        yield "default-action", f"default_action {tool.default_action!r} is not one of the actions"
    yield from _built(catalog, tool, "actions")


def _routes_form(catalog: Catalog, tool: SmartTool) -> Iterator[tuple[str, str]]:
    shape = list(route_shape(tool))
    yield from shape
    if shape or any(target in catalog.unloadable for target in tool.targets):
        return  # typed routes would misread a malformed declaration; a broken target is reported on its own
    yield from _property_rules(tool.own_properties)
    yield from route_rules(catalog, tool)
    yield from _built(catalog, tool, "targets")


def _built(catalog: Catalog, tool: SmartTool, members: str) -> Iterator[tuple[str, str]]:
    """What both forms share: one schema per merged property, and examples valid before and after routing."""
    _, conflicts = merged_properties(catalog, tool)
    for c in conflicts:
        yield (
            "merge",
            (
                f"property {c.prop!r} differs between {members} {c.first!r} and {c.second!r}; "
                "a shared property must have one schema (use a shared $ref)"
            ),
        )
    yield from _omit(catalog, tool)
    schema = input_schema(catalog, tool)
    yield from _smart_descriptions(schema["properties"], None if tool.uses_routes else tool.discriminator)
    yield from _examples(tool.raw.get("examples"), schema)
    for index, example in enumerate(tool.raw.get("examples") or []):
        routed = _as_granular_call(tool, example) if isinstance(example, dict) else None
        if routed is not None and routed[0] in catalog.granular:
            target, rest = routed
            for rule, message in _examples([rest], catalog.granular[target].resolved, [f"example {index} as {target}"]):
                if rule != "schema-invalid":  # reported on the granular file itself
                    yield rule, message


def _omit(catalog: Catalog, tool: SmartTool) -> Iterator[tuple[str, str]]:
    """An omitted parameter must be one a target takes, that no call needs, and that no rule tests."""
    raw = tool.meta.get("omit", [])
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        yield "omit", "x-cdpilot.omit must be a list of parameter names"
        return
    owners, needers = omitted_owners(catalog, tool), omitted_needers(catalog, tool)
    for name in tool.omitted:
        if not owners[name]:
            yield "omit", f"omits {name!r}, which no target takes"
        for needer in needers[name]:
            yield "omit", f"omits {name!r}, which {needer!r} requires; smart mode could never call it"
        for index, route in enumerate(tool.routes):
            if route.tested == name:
                yield "omit", f"omits {name!r}, which route {index} tests; that route could never be taken"


def _as_granular_call(tool: SmartTool, example: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The granular tool and arguments the registry would make of an example."""
    if tool.uses_routes:
        route = choose_route(tool, example)
        rest = {k: v for k, v in example.items() if k not in tool.own_properties}
        return None if route is None else (route.tool, rest)
    action = example.get(tool.discriminator, tool.default_action)
    target = tool.actions.get(action) if isinstance(action, str) else None
    rest = {k: v for k, v in example.items() if k != tool.discriminator}
    return None if target is None else (target, rest)


def _catalog_rules(catalog: Catalog) -> list[Finding]:
    findings: list[Finding] = []
    mapped: dict[str, list[str]] = {}
    for smart in catalog.smart.values():
        for target, spelled in spellings(smart):
            mapped.setdefault(target, []).append(spelled)
    for tool in catalog.granular.values():
        if "legacy" not in tool.modes or "smart" in tool.modes:
            continue
        uses = mapped.get(tool.name, [])
        if not uses:
            findings.append(
                Finding(
                    catalog.rel(tool.path),
                    "mapping",
                    f"legacy tool {tool.name!r} has no smart counterpart (add it to a smart tool's "
                    'actions or routes, or put "smart" in its modes)',
                )
            )
        elif len(uses) > 1:
            findings.append(
                Finding(
                    catalog.rel(tool.path),
                    "mapping",
                    f"legacy tool {tool.name!r} is mapped more than once: {', '.join(uses)}",
                )
            )
    for tool in catalog.granular.values():
        if "smart" in tool.modes and tool.name in catalog.smart:
            findings.append(
                Finding(
                    catalog.rel(tool.path),
                    "duplicate-name",
                    f"smart mode would have two tools named {tool.name!r}",
                )
            )
    smart_count = len(smart_names(catalog))
    if smart_count > SMART_TOOL_BUDGET:
        findings.append(
            Finding(
                catalog.rel(catalog.root / "smart"),
                "budget",
                f"smart mode has {smart_count} tools; the budget is {SMART_TOOL_BUDGET}",
            )
        )
    return findings


def _payload_budget(catalog: Catalog) -> list[Finding]:
    size = len(payload(catalog, "smart"))
    if size <= SMART_PAYLOAD_BUDGET:
        return []
    message = (
        f"smart tools/list is {size} characters; the budget is {SMART_PAYLOAD_BUDGET} "
        "(shorten descriptions, or omit advanced parameters with x-cdpilot.omit)"
    )
    return [Finding(catalog.rel(catalog.root / "smart"), "budget", message)]
