"""Renders the catalog into the files of ``generated/`` other than the modules of argument
models (`codegen.models`): jinja2 templates, deterministic, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codegen import HEADER, PACKAGE
from codegen.catalog import MODES, RESOLVERS, Catalog, GranularTool, SmartTool, legacy_names, smart_names
from codegen.handshake_answers import (
    INSTRUCTIONS,
    SERVER_NAME,
    called_as_is,
    initialize_results,
    listed_as_is,
    server_version,
)
from codegen.manifest import compact, granular_groups, manifest, tool_groups
from codegen.models import model_modules
from codegen.smart import input_schema, omitted_owners, spellings
from codegen.templating import environment

_TEMPLATES = Path(__file__).parent / "templates"
_PACKAGE_TEMPLATES = (
    "__init__.py.j2",
    "base.py.j2",
    "catalog.py.j2",
    "contract.py.j2",
    "manifests.py.j2",
    "models/__init__.py.j2",
)


def _spellings(catalog: Catalog, granular: list[GranularTool]) -> dict[str, dict[str, str]]:
    """How each granular tool is called in each mode: by its own name, or in smart mode through
    the first smart tool that maps it (each mapping read once, not once per tool)."""
    through_smart: dict[str, str] = {}
    for smart in catalog.smart.values():
        for target, spelled in spellings(smart):
            through_smart.setdefault(target, spelled)

    def in_smart_mode(tool: GranularTool) -> str:
        own = f"{tool.name}()"
        return own if "smart" in tool.modes else through_smart.get(tool.name, own)

    return {
        "smart": {t.name: in_smart_mode(t) for t in granular},
        "legacy": {t.name: f"{t.name}()" for t in granular},
    }


def _exposed(catalog: Catalog, smart: SmartTool) -> dict[str, Any]:
    """What the registry needs to accept exactly the flat schema: its parameter names, and who
    takes each omitted one (the granular models behind the tool would accept those)."""
    return {
        "parameters": tuple(input_schema(catalog, smart)["properties"]),
        "omitted": omitted_owners(catalog, smart),
    }


def render_templates(catalog: Catalog) -> dict[str, str]:
    """Every generated file but the model modules, by path relative to ``generated/``."""
    env = environment(_TEMPLATES)
    env.filters["py"] = repr
    env.filters["compact"] = compact
    granular = sorted(catalog.granular.values(), key=lambda t: t.name)
    version = server_version()
    groups = granular_groups(catalog)
    context = {
        "header": HEADER,
        "granular": granular,
        "smart_by_name": catalog.smart,
        "exposed": {name: _exposed(catalog, smart) for name, smart in catalog.smart.items()},
        "modes": {"smart": smart_names(catalog), "legacy": legacy_names(catalog)},
        "manifests": {mode: manifest(catalog, mode) for mode in MODES},
        "server_name": SERVER_NAME,
        "server_version": version,
        "instructions": INSTRUCTIONS,
        "initialize_results": initialize_results(version),
        "groups": sorted(set(groups.values())),
        "granular_groups": groups,
        "tool_groups": {mode: tool_groups(catalog, mode) for mode in MODES},
        "listed_as_is": listed_as_is(catalog),
        "called_as_is": called_as_is(),
        "resolvers": RESOLVERS,
        "spellings": _spellings(catalog, granular),
        "model_modules": {group: sorted(models) for group, models in model_modules(catalog).items()},
    }
    files = {
        f"{PACKAGE}/{template.removesuffix('.j2')}": env.get_template(template).render(context)
        for template in _PACKAGE_TEMPLATES
    }
    files[f"{PACKAGE}/py.typed"] = ""
    return files
