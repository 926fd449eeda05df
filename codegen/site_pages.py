"""What the docs site says about each tool and each setting, computed from their sources; no HTML here.

Everything a page shows comes from the schemas through the functions codegen itself uses
(`input_schema`, `derived_annotations`, `spellings`), and the sizes and entries of tools/list
from the payload the server sends, so the site cannot disagree with the server. The settings
come from `cdpilot.config`, the model the command line is built from, read off the same
`config_schema()` the site publishes, so the page and the schema file cannot differ either.

Which errors a tool can return is derived from its schema, by one rule:

- every tool: VALIDATION (arguments are checked against the schema before any handler runs)
  and UNKNOWN (a bug, by definition possible anywhere);
- a tool that declares ``connection_id`` talks to a browser: CONNECTION (no browser, or it is
  gone) and EXECUTION (a CDP command failed or timed out);
- a tool whose ``connection_id`` defaults to the active connection works on that connection's
  current page: STATE (a dialog or a debugger pause blocks the page; the element, history
  entry or target it needs is not there);
- a tool of the ``debugger`` group: DEBUGGER (the debugger is not enabled). This is an upper
  bound: the tools that enable the debugger themselves never return it;
- a smart tool: the union over the granular tools it stands for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cdpilot.config import BY_KEY, OPTIONS, config_schema, resolve
from cdpilot.errors import ConfigError, ErrorType
from codegen.catalog import MODES, Catalog, GranularTool, Route, SmartTool
from codegen.site_params import Param, param_rows
from codegen.smart import choose_route, condition, derived_annotations, input_schema, merged_properties, spellings

HINT_LABELS = {
    "readOnlyHint": "Read-only",
    "destructiveHint": "Destructive",
    "idempotentHint": "Idempotent",
    "openWorldHint": "Open world",
}


@dataclass(frozen=True)
class Link:
    label: str  # how the call is spelled, e.g. chrome(action="launch")
    name: str
    href: str


@dataclass
class ToolDoc:
    name: str
    href: str  # relative to the site root
    group: str
    modes: tuple[str, ...]
    title: str
    description: str
    hints: dict[str, bool]
    hints_derived: bool
    params: list[Param]
    omitted: list[str]  # smart: target parameters only legacy mode offers
    examples: list[tuple[str, str]]  # (pretty JSON, the granular tool it routes to, for a smart tool)
    counterparts: list[Link]
    errors: list[str]
    entries: dict[str, str] = field(default_factory=dict)  # mode -> its exact tools/list entry, compact JSON


@dataclass(frozen=True)
class Returners:
    """The tools of one mode that can return one error type, said as briefly as it is true."""

    mode: str
    phrase: str  # "every tool", "every tool except", "no tool", or "" (then `tools` are all of them)
    tools: list[ToolDoc]


def returners(docs: list[ToolDoc], kind: str) -> list[Returners]:
    found = []
    for mode in MODES:
        in_mode = [doc for doc in docs if mode in doc.modes]
        yes = [doc for doc in in_mode if kind in doc.errors]
        no = [doc for doc in in_mode if kind not in doc.errors]
        if not no:
            found.append(Returners(mode, "every tool", []))
        elif not yes:
            found.append(Returners(mode, "no tool", []))
        elif len(no) < len(yes):
            found.append(Returners(mode, "every tool except", no))
        else:
            found.append(Returners(mode, "", yes))
    return found


def tool_docs(catalog: Catalog) -> list[ToolDoc]:
    """One page per granular tool and per declared smart tool, sorted by group then name."""
    docs = [_granular_doc(catalog, tool) for tool in catalog.granular.values()]
    docs += [_smart_doc(catalog, tool) for tool in catalog.smart.values()]
    return sorted(docs, key=lambda doc: (doc.group, doc.name, doc.href))


def granular_href(name: str) -> str:
    return f"tools/{name}.html"


def smart_href(name: str) -> str:
    return f"smart/{name}.html"


def granular_errors(tool: GranularTool) -> set[str]:
    """The rule of the module docstring, for one granular tool."""
    errors = {"VALIDATION", "UNKNOWN"}
    if "connection_id" in tool.properties:
        errors |= {"CONNECTION", "EXECUTION"}
    if tool.defaults.get("connection_id") == "active_connection":
        errors.add("STATE")
    if tool.meta.get("group") == "debugger":
        errors.add("DEBUGGER")
    return errors


def _ordered(errors: set[str]) -> list[str]:
    return [kind.value for kind in ErrorType if kind.value in errors]


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _granular_doc(catalog: Catalog, tool: GranularTool) -> ToolDoc:
    annotations = dict(tool.meta.get("annotations", {}))
    counterparts = [
        Link(spelled, smart.name, smart_href(smart.name))
        for smart in catalog.smart.values()
        for target, spelled in spellings(smart)
        if target == tool.name
    ]
    return ToolDoc(
        name=tool.name,
        href=granular_href(tool.name),
        group=str(tool.meta.get("group", "")),
        modes=tuple(mode for mode in MODES if mode in tool.modes),
        title=str(annotations.get("title") or tool.name),
        description=tool.description,
        hints={hint: bool(annotations.get(hint)) for hint in HINT_LABELS},
        hints_derived=False,
        params=param_rows(tool.resolved, resolvers=tool.defaults),
        omitted=[],
        examples=[(_pretty(example), "") for example in tool.raw.get("examples", [])],
        counterparts=counterparts,
        errors=_ordered(granular_errors(tool)),
    )


def _smart_doc(catalog: Catalog, tool: SmartTool) -> ToolDoc:
    members = _members(catalog, tool)  # (label, granular tool) per action or route
    schema = input_schema(catalog, tool)
    merged, _ = merged_properties(catalog, tool)
    resolvers = {prop: r for _, granular in members for prop, r in granular.defaults.items()}
    annotations = derived_annotations(catalog, tool)

    def used_by(prop: str) -> tuple[str, ...]:
        if prop in tool.own_properties:
            return tuple(f"router ({condition(r)})" for r in tool.routes if _tested(r) == prop)
        if not tool.uses_routes and prop == tool.discriminator:
            return ("selects the action",)
        return tuple(dict.fromkeys(label for label, granular in members if prop in granular.properties))

    def required_for(prop: str) -> str:
        needers = list(dict.fromkeys(label for label, granular in members if prop in granular.required))
        return f"for {', '.join(needers)}" if needers else "no"

    errors: set[str] = set()
    for _, granular in members:
        errors |= granular_errors(granular)
    return ToolDoc(
        name=tool.name,
        href=smart_href(tool.name),
        group=str(tool.meta.get("group", "")),
        modes=("smart",),
        title=str(annotations.pop("title", None) or tool.name),
        description=tool.description,
        hints={hint: bool(annotations.get(hint)) for hint in HINT_LABELS},
        hints_derived=True,
        params=param_rows(schema, resolvers=resolvers, required_for=required_for, used_by=used_by),
        omitted=[prop for prop in merged if prop not in schema["properties"]],
        examples=[(_pretty(example), _routed_to(tool, example)) for example in tool.raw.get("examples", [])],
        counterparts=[Link(spelled, target, granular_href(target)) for target, spelled in spellings(tool)],
        errors=_ordered(errors),
    )


def _members(catalog: Catalog, tool: SmartTool) -> list[tuple[str, GranularTool]]:
    """(how the docs name it, granular tool): the action, or the routed tool's own name."""
    pairs = tool.actions.items() if not tool.uses_routes else [(r.tool, r.tool) for r in tool.routes]
    return [(label, catalog.granular[target]) for label, target in pairs if target in catalog.granular]


def _tested(route: Route) -> str | None:
    return route.equals[0] if route.equals is not None else route.present


def _routed_to(tool: SmartTool, example: Any) -> str:
    if not isinstance(example, dict):
        return ""
    if tool.uses_routes:
        route = choose_route(tool, example)
        return route.tool if route is not None else ""
    action = example.get(tool.discriminator, tool.default_action)
    return tool.actions.get(action, "") if isinstance(action, str) else ""


# How a boolean is written in an environment variable: what the resolver takes as true, then as false.
BOOLEAN_WORDS = (("1", "true", "yes", "on"), ("0", "false", "no", "off", ""))
KIND_NAMES = {"boolean": "boolean", "string": "string", "list": "list of strings", "integer": "integer"}
SCHEMA_FILE = "config.schema.json"
# Checked against the real resolver by the tests, so the examples always start a server.
EXAMPLE_CONFIG: dict[str, Any] = {
    "$schema": f"./{SCHEMA_FILE}",
    "viewport": "1440x900",
    "disable_tools": ["evaluate"],
    "allowed_origins": ["https://example.com", "*.example.org"],
    "rate_limit": "100/10",
}
EXAMPLE_CLIENT: dict[str, Any] = {
    "mcpServers": {
        "cdpilot": {
            "command": "cdpilot",
            "args": ["--config", "/path/to/cdpilot.json", "--headed"],
            "env": {"CDPILOT_VIEWPORT": "1920x1080"},
        }
    }
}


@dataclass(frozen=True)
class SettingDoc:
    key: str
    flag: str  # as typed: "--viewport WxH", "--headed"
    flag_sets_false: bool  # a --no-… flag
    env: str
    type: str  # boolean, string, list of strings
    allowed: list[str]
    pattern: str
    default: str  # JSON, as a config file spells it; "" when there is none (the help says what happens)
    help: str


def schema_text() -> str:
    """The config file's JSON Schema as the site publishes it: as `cdpilot --config-schema` prints it."""
    return json.dumps(config_schema(), indent=2, ensure_ascii=False) + "\n"


def setting_groups() -> list[tuple[str, list[SettingDoc]]]:
    """Every setting, grouped and ordered as `OPTIONS` (and so `cdpilot --help`) has them."""
    properties = config_schema()["properties"]
    groups: dict[str, list[SettingDoc]] = {}
    for option in OPTIONS:
        prop = properties[option.key]
        value = "" if option.kind == "boolean" else f" {option.metavar or option.key.upper()}"
        groups.setdefault(option.group, []).append(
            SettingDoc(
                key=option.key,
                flag=option.flag_name + value,
                flag_sets_false=option.kind == "boolean" and not option.flag_means,
                env=option.env_name,
                type=KIND_NAMES[option.kind],
                allowed=[str(choice) for choice in prop.get("enum", [])],
                pattern=str(prop.get("pattern", "")),
                default=json.dumps(prop["default"], ensure_ascii=False) if "default" in prop else "",
                help=str(prop["description"]),
            )
        )
    return list(groups.items())


def refusal() -> str:
    """What start-up says of a bad value, worded by the resolver itself, so the page quotes it exactly."""
    option = BY_KEY["viewport"]
    try:
        resolve({}, {option.env_name: "large"})
    except ConfigError as exc:
        return str(exc)
    raise ValueError(f"{option.env_name}='large' was accepted: the configuration page has no refusal to quote")
