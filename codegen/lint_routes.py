"""Lint rules of the routes form of a smart tool (``x-cdpilot.routes``).

A routed call must land on exactly one granular tool that accepts it, so the rules are
checked here, not discovered at call time: each rule's shape and target, one fallback
that comes last, conditions that name a property the call can carry with a value its
schema allows, and router-own properties that neither shadow a target's parameter nor go
unused. ``lint.py`` runs these after the checks every smart tool shares.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator

from codegen.catalog import Catalog, Route, SmartTool
from codegen.schema_check import schema_error
from codegen.smart import merged_properties, targets

Finding = tuple[str, str]  # (rule, message), as lint.py reports them
_RULE_KEYS = ("tool", "when_present", "when_equals")


def route_shape(tool: SmartTool) -> Iterator[Finding]:
    """The declaration's JSON shape; the other checks read typed Routes and assume it."""
    raw = tool.meta.get("routes")
    if not isinstance(raw, list) or not raw:
        yield "routes", "x-cdpilot.routes must be a non-empty list of rules"
        return
    if not isinstance(tool.raw.get("properties", {}), dict):
        yield "routes", 'top-level "properties" (the router-own properties) must be an object'
    for index, rule in enumerate(raw):
        yield from _rule_shape(index, rule)


def _rule_shape(index: int, rule: Any) -> Iterator[Finding]:
    if not isinstance(rule, dict) or not isinstance(rule.get("tool"), str):
        yield "routes", f'route {index} must be an object naming its granular tool in "tool"'
        return
    for key in sorted(set(rule) - set(_RULE_KEYS)):
        yield "routes", f"route {index} has unexpected key {key!r}; allowed: {', '.join(_RULE_KEYS)}"
    if "when_present" in rule and "when_equals" in rule:
        yield "routes", f"route {index} has both when_present and when_equals; give one condition per rule"
    if "when_present" in rule and not isinstance(rule["when_present"], str):
        yield "routes", f"route {index}: when_present must be a property name"
    equals = rule.get("when_equals")
    if "when_equals" in rule and (not isinstance(equals, dict) or len(equals) != 1):
        has = f"it has {len(equals)}" if isinstance(equals, dict) else "it is not an object"
        yield "routes", f"route {index}: when_equals must hold exactly one property and its value; {has}"


def route_rules(catalog: Catalog, tool: SmartTool) -> Iterator[Finding]:
    """Targets, fallback, conditions and router-own properties of a well-shaped declaration."""
    yield from _targets(catalog, tool)
    yield from _fallback(tool.routes)
    declared, _ = merged_properties(catalog, tool)
    for index, route in enumerate(tool.routes):
        yield from _condition(catalog, tool, index, route, declared)
    yield from _own_properties(catalog, tool)


def _targets(catalog: Catalog, tool: SmartTool) -> Iterator[Finding]:
    for index, route in enumerate(tool.routes):
        granular = catalog.granular.get(route.tool)
        if granular is None:
            yield "mapping", f"route {index} names {route.tool!r}, which is no granular tool"
        elif "smart" in granular.modes:
            yield "mapping", f"route {index} names {route.tool!r}, which is itself a smart-mode tool"


def _fallback(routes: tuple[Route, ...]) -> Iterator[Finding]:
    fallbacks = [index for index, route in enumerate(routes) if route.is_fallback]
    if not fallbacks:
        yield (
            "fallback",
            "the last route must be the fallback (no when_present or when_equals), so every call has a tool",
        )
    elif len(fallbacks) > 1:
        listed = ", ".join(str(index) for index in fallbacks)
        yield "fallback", f"routes {listed} are all fallbacks (no when_present or when_equals); give exactly one, last"
    elif fallbacks[0] != len(routes) - 1:
        yield "fallback", f"route {fallbacks[0]} is the fallback but not the last rule; the rules after it never match"


def _condition(
    catalog: Catalog, tool: SmartTool, index: int, route: Route, declared: dict[str, Any]
) -> Iterator[Finding]:
    """A condition must name a property the chosen tool (or the router) accepts, with a valid value."""
    if route.equals is not None:
        kind, prop = "when_equals", route.equals[0]
    elif route.present is not None:
        kind, prop = "when_present", route.present
    else:
        return
    granular = catalog.granular.get(route.tool)
    if granular is None:
        return  # the unknown target is reported on its own
    if prop in tool.own_properties:
        schema = tool.own_properties[prop]
    elif prop in granular.properties:
        schema = granular.properties[prop]
    else:
        if prop in declared:
            message = f"names {prop!r}, which {route.tool!r} does not take; every call it matches would be refused"
        else:
            message = f"names {prop!r}, which neither the router-own properties nor any target declares"
        yield "route-condition", f"route {index}: {kind} {message}"
        return
    if route.equals is not None:
        error = _first_error(route.equals[1], schema)
        if error is not None:
            value = json.dumps(route.equals[1])
            yield "route-condition", f"route {index}: when_equals value {value} is not valid for {prop!r}: {error}"


def _first_error(value: Any, schema: Any) -> str | None:
    if schema_error(schema) is not None:
        return None  # an invalid property schema is reported where it is declared
    error = next(iter(Draft202012Validator(schema).iter_errors(value)), None)
    return None if error is None else error.message


def _own_properties(catalog: Catalog, tool: SmartTool) -> Iterator[Finding]:
    """The router consumes its own properties: a target never sees one, and an unnamed one is lost."""
    named = {route.tested for route in tool.routes}
    for prop in tool.own_properties:
        for target in targets(catalog, tool):
            if prop in target.properties:
                yield (
                    "own-property",
                    f"router-own property {prop!r} is also a parameter of {target.name!r}; "
                    "the router consumes it, so that tool would never get it",
                )
        if prop not in named:
            yield "own-property", f"router-own property {prop!r} is named by no route; the router would drop it unread"
