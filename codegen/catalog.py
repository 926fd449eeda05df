"""Reads the schema tree into typed tool descriptions, with every ``$ref`` inlined.

Clients get self-contained input schemas (few MCP clients follow ``$ref``), and the
argument models and the smart merge rule compare fully resolved property schemas, so
resolution happens once, here, before anything else looks at a schema.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VENDOR_KEY = "x-cdpilot"
MODES = ("smart", "legacy")  # the one list of tool modes: the generated `Mode` type is made from it
RESOLVERS = ("active_connection",)  # default-argument resolvers a schema may name in x-cdpilot.defaults
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
SHORT_KEY = "short"  # a parameter's ``x-cdpilot.short``: what smart mode says of it instead of its description


class SchemaFileError(Exception):
    """A schema file that cannot even be loaded; reported like a lint finding."""

    def __init__(self, path: Path, rule: str, message: str) -> None:
        super().__init__(f"{path}: [{rule}] {message}")
        self.path, self.rule, self.message = path, rule, message


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


@dataclass(frozen=True)
class GranularTool:
    """A tool with its own handler and argument model (every legacy tool is one)."""

    name: str
    path: Path
    raw: dict[str, Any]
    resolved: dict[str, Any]

    @property
    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = self.raw.get(VENDOR_KEY, {})
        return meta

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.meta.get("modes", ()))

    @property
    def description(self) -> str:
        return str(self.raw.get("description", ""))

    @property
    def properties(self) -> dict[str, Any]:
        props: dict[str, Any] = self.resolved.get("properties", {})
        return props

    @functools.cached_property
    def canonical_properties(self) -> dict[str, str]:
        """Each property's schema as canonical JSON, the form in which the smart merge compares
        them; computed once, as every build of a smart tool compares its targets again."""
        return {name: json.dumps(schema, sort_keys=True) for name, schema in self.properties.items()}

    @property
    def required(self) -> list[str]:
        return list(self.resolved.get("required", []))

    @property
    def defaults(self) -> dict[str, str]:
        return dict(self.meta.get("defaults", {}))

    @property
    def model_name(self) -> str:
        return _camel(self.name) + "Args"


@dataclass(frozen=True)
class Route:
    """One rule of a routes-form smart tool: the granular tool it calls, and when.

    ``present`` matches when that argument is given (not null); ``equals`` when the argument
    (or, for a router-own property, its default) equals the value. Neither: the fallback.
    """

    tool: str
    present: str | None = None
    equals: tuple[str, Any] | None = None

    @property
    def is_fallback(self) -> bool:
        return self.present is None and self.equals is None

    @property
    def tested(self) -> str | None:
        """The property the condition looks at (none for the fallback)."""
        return self.equals[0] if self.equals is not None else self.present

    @classmethod
    def from_raw(cls, raw: Any) -> Route:
        """Lenient: a malformed rule still becomes a Route; the lint reports its shape."""
        rule = raw if isinstance(raw, dict) else {}
        present, equals = rule.get("when_present"), rule.get("when_equals")
        return cls(
            str(rule.get("tool", "")),
            present if isinstance(present, str) else None,
            next(iter(equals.items())) if isinstance(equals, dict) and len(equals) == 1 else None,
        )


@dataclass(frozen=True)
class SmartTool:
    """A consolidated tool, built by codegen from one of two declared forms.

    The actions form maps a discriminator value to each granular tool; the routes form
    picks the granular tool by rules over the arguments (``x-cdpilot.routes``), optionally
    with router-own properties that the router consumes.
    """

    name: str
    path: Path
    raw: dict[str, Any]
    own_properties: dict[str, Any] = field(default_factory=dict)  # router-own, $refs inlined

    @property
    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = self.raw.get(VENDOR_KEY, {})
        return meta

    @property
    def description(self) -> str:
        return str(self.raw.get("description", ""))

    @property
    def uses_routes(self) -> bool:
        return "routes" in self.meta

    @property
    def routes(self) -> tuple[Route, ...]:
        raw = self.meta.get("routes")
        return tuple(Route.from_raw(rule) for rule in raw) if isinstance(raw, list) else ()

    @property
    def targets(self) -> list[str]:
        """The granular tools this tool stands for, in declaration order (either form)."""
        if self.uses_routes:
            return [route.tool for route in self.routes]
        return list(self.actions.values())

    @property
    def routing_model_name(self) -> str:
        """The model of the router-own properties ("Routing", so never a granular "...Args")."""
        return _camel(self.name) + "Routing"

    @property
    def discriminator(self) -> str:
        return str(self.meta.get("discriminator", "action"))

    @property
    def discriminator_description(self) -> str:
        """What the discriminator parameter says in tools/list (the actions form declares it)."""
        return str(self.meta.get("discriminator_description", ""))

    @property
    def actions(self) -> dict[str, str]:
        return dict(self.meta.get("actions", {}))

    @property
    def default_action(self) -> str | None:
        value = self.meta.get("default_action")
        return None if value is None else str(value)

    @property
    def omitted(self) -> tuple[str, ...]:
        """Target parameters this tool does not expose (``x-cdpilot.omit``): advanced ones that
        only legacy mode offers, so the smart tools/list stays within its budget."""
        raw = self.meta.get("omit")
        return tuple(name for name in raw if isinstance(name, str)) if isinstance(raw, list) else ()


@dataclass
class Catalog:
    root: Path
    granular: dict[str, GranularTool] = field(default_factory=dict)
    smart: dict[str, SmartTool] = field(default_factory=dict)
    load_errors: list[SchemaFileError] = field(default_factory=list)
    unloadable: set[str] = field(default_factory=set)  # tool names whose file failed to load

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SchemaFileError(path, "json", f"not readable JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SchemaFileError(path, "json", "the top level must be a JSON object")
    return data


def _pointer(document: dict[str, Any], pointer: str, path: Path, ref: str) -> Any:
    node: Any = document
    for token in [t for t in pointer.lstrip("/").split("/") if t]:
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            raise SchemaFileError(path, "ref", f"$ref {ref!r} does not resolve")
        node = node[token]
    return node


@dataclass
class _Documents:
    """The files one load reads, each parsed once, and where each relative ``$ref`` leads.

    Finding a target is a ``Path.resolve()``, a system call per path component; a thousand
    tools name the same few files from the same few folders, so each (folder, file) pair is
    resolved once.
    """

    parsed: dict[Path, dict[str, Any]] = field(default_factory=dict)
    targets: dict[tuple[Path, str], Path] = field(default_factory=dict)

    def target(self, path: Path, file_part: str) -> Path:
        """The file a ``$ref`` in ``path`` names (``path`` itself for a local pointer)."""
        if not file_part:
            return path
        key = (path.parent, file_part)
        if key not in self.targets:
            self.targets[key] = (path.parent / file_part).resolve()
        return self.targets[key]


def resolve_refs(node: Any, path: Path, documents: _Documents, depth: int = 0) -> Any:
    """Inline every ``$ref``; keywords beside a ``$ref`` override the referenced ones."""
    if depth > 32:
        raise SchemaFileError(path, "ref", "$ref nesting deeper than 32 (a cycle?)")
    if isinstance(node, list):
        return [resolve_refs(item, path, documents, depth) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = str(node["$ref"])
        file_part, _, pointer = ref.partition("#")
        target_path = documents.target(path, file_part)
        if target_path not in documents.parsed:
            if not target_path.is_file():
                raise SchemaFileError(path, "ref", f"$ref {ref!r} names a missing file")
            documents.parsed[target_path] = _read_json(target_path)
        target = _pointer(documents.parsed[target_path], pointer, path, ref)
        merged = dict(resolve_refs(target, target_path, documents, depth + 1))
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        return resolve_refs(merged, path, documents, depth + 1)
    return {key: resolve_refs(value, path, documents, depth) for key, value in node.items()}


NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


def smart_description(prop: Any) -> str:
    """What smart mode says of a parameter: its short form (``"x-cdpilot": {"short": ...}`` beside
    its description, for a description too long for smart mode's budget), else its description;
    a fragment, without the final full stop. Legacy mode and the docs keep the description itself."""
    if not isinstance(prop, dict):
        return ""
    vendor = prop.get(VENDOR_KEY)
    short = vendor.get(SHORT_KEY) if isinstance(vendor, dict) else None
    text = str(short if short is not None else prop.get("description", "")).strip()
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def plain(properties: dict[str, Any]) -> dict[str, Any]:
    """Parameter schemas without their ``x-cdpilot`` (the short form): what a client or the
    model generator sees."""
    return {
        name: {k: v for k, v in schema.items() if k != VENDOR_KEY} if isinstance(schema, dict) else schema
        for name, schema in properties.items()
    }


def load_catalog(root: Path) -> Catalog:
    """Load ``root/tools/**.json`` (granular) and ``root/smart/*.json`` (consolidated)."""
    catalog = Catalog(root=root.resolve())
    documents = _Documents()
    for path in sorted((catalog.root / "tools").rglob("*.json")):
        try:
            raw = _read_json(path)
            documents.parsed[path] = raw
            body = {k: v for k, v in raw.items() if k not in (VENDOR_KEY, "examples", "$schema")}
            resolved = resolve_refs(body, path, documents)
        except SchemaFileError as exc:
            catalog.load_errors.append(exc)
            catalog.unloadable.add(path.stem)
            continue
        _add(catalog, catalog.granular, GranularTool(path.stem, path, raw, resolved))
    for path in sorted((catalog.root / "smart").glob("*.json")):
        try:
            raw = _read_json(path)
            documents.parsed[path] = raw
            own = resolve_refs(raw.get("properties", {}), path, documents)
            own = own if isinstance(own, dict) else {}  # the lint reports a non-object
        except SchemaFileError as exc:
            catalog.load_errors.append(exc)
            continue
        _add(catalog, catalog.smart, SmartTool(path.stem, path, raw, own))
    return catalog


def smart_names(catalog: Catalog) -> list[str]:
    names = set(catalog.smart) | {t.name for t in catalog.granular.values() if "smart" in t.modes}
    return sorted(names)


def legacy_names(catalog: Catalog) -> list[str]:
    return sorted(t.name for t in catalog.granular.values() if "legacy" in t.modes)


def _add(catalog: Catalog, table: dict[str, Any], tool: GranularTool | SmartTool) -> None:
    if tool.name in table:
        other = table[tool.name].path
        catalog.load_errors.append(
            SchemaFileError(tool.path, "duplicate-name", f"tool {tool.name!r} is also defined in {other}")
        )
        return
    table[tool.name] = tool
