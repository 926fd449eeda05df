"""``python -m codegen.site --out build/docs``: the static docs site of every tool.

Rendered with jinja2 from the catalog that drives the server (`codegen.site_pages`) and the
tools/list payloads the server sends (``cdpilot_generated.manifests``), so a page cannot
disagree with tools/list; a payload that names other tools than the schemas is refused as
stale. Pages: the grouped index (mode switch, offline search), one per tool, the error
taxonomy, CONTRIBUTING.md as the guide to adding a tool, and the start-up settings from
`cdpilot.config`, next to the config file's JSON Schema (``config.schema.json``, for an
editor's ``"$schema"``). Everything a page needs is inline and its Content-Security-Policy
allows nothing else, so the site works offline.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from cdpilot.config import CONFIG_ENV
from cdpilot.errors import ErrorType
from codegen import GENERATOR_VERSION, site_pages
from codegen.catalog import MODES, load_catalog
from codegen.lint import SMART_PAYLOAD_BUDGET, SMART_TOOL_BUDGET
from codegen.site_markdown import slug, to_html
from codegen.site_pages import (
    BOOLEAN_WORDS,
    EXAMPLE_CLIENT,
    EXAMPLE_CONFIG,
    HINT_LABELS,
    SCHEMA_FILE,
    ToolDoc,
    refusal,
    returners,
    schema_text,
    setting_groups,
    tool_docs,
)
from codegen.templating import environment

REPO = Path(__file__).resolve().parent.parent
_TEMPLATES = Path(__file__).parent / "templates" / "site"
SITE_SUFFIXES = (".html", ".json")  # what a build writes; other files under --out are left alone


class StaleManifest(Exception):
    """generated/ lists other tools than schemas/: the site would describe a server that does not exist."""


@dataclass(frozen=True)
class ModeSummary:
    mode: str
    count: int
    size: int  # characters of the tools/list result, as the server sends it
    budget: str = ""  # what the lint holds the mode to, as a reader says it (smart mode only)


def attach_entries(docs: list[ToolDoc], payloads: Mapping[str, str]) -> list[ModeSummary]:
    """Give each page its exact tools/list entries; one summary per mode."""
    summaries = []
    for mode in MODES:
        entries = {entry["name"]: entry for entry in json.loads(payloads[mode])["tools"]}
        pages = {doc.name: doc for doc in docs if mode in doc.modes}
        if sorted(entries) != sorted(pages):
            raise StaleManifest(
                f"the {mode} tools/list names {sorted(set(entries) ^ set(pages))} differently from schemas/; "
                "run `make generate`"
            )
        for name, entry in entries.items():
            pages[name].entries[mode] = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        budget = f"at most {SMART_TOOL_BUDGET} tools and {SMART_PAYLOAD_BUDGET:,} characters" if mode == "smart" else ""
        summaries.append(ModeSummary(mode, len(entries), len(payloads[mode]), budget))
    return summaries


def render_site(schemas: Path, payloads: Mapping[str, str], guide_markdown: str) -> dict[str, str]:
    """Every file of the site, by path relative to its root: the pages and the config schema."""
    catalog = load_catalog(schemas)
    if catalog.load_errors:
        raise ValueError(f"schemas/ does not load: {catalog.load_errors[0]}")
    docs = tool_docs(catalog)
    summaries = attach_entries(docs, payloads)
    env = site_environment()
    groups = [(group, list(members)) for group, members in groupby(docs, key=lambda doc: doc.group)]
    common: dict[str, Any] = {"generator": GENERATOR_VERSION, "root": ""}
    files = {
        "index.html": env.get_template("index.html.j2").render(common, summaries=summaries, groups=groups),
        "errors.html": env.get_template("errors.html.j2").render(
            common,
            taxonomy=[(kind.value, kind.meaning, kind.recoverable) for kind in ErrorType],
            returners={kind.value: returners(docs, kind.value) for kind in ErrorType},
            derivation=Markup(to_html(_derivation_rule())),
        ),
        "adding.html": env.get_template("adding.html.j2").render(
            common, groups=[group for group, _ in groups], guide=Markup(to_html(guide_markdown))
        ),
        **render_configuration(env, common),
    }
    meanings = {kind.value: kind.meaning for kind in ErrorType}
    tool_page = env.get_template("tool.html.j2")
    for doc in docs:
        files[doc.href] = tool_page.render(common, root="../", doc=doc, hint_labels=HINT_LABELS, meanings=meanings)
    return files


def render_configuration(env: jinja2.Environment, common: Mapping[str, Any]) -> dict[str, str]:
    """The settings page and the schema it documents; they need no schemas/, so tests render them alone."""
    page = env.get_template("configuration.html.j2").render(
        common,
        groups=setting_groups(),
        boolean_words=BOOLEAN_WORDS,
        config_env=CONFIG_ENV,
        schema_file=SCHEMA_FILE,
        refusal=refusal(),
        example_config=json.dumps(EXAMPLE_CONFIG, indent=2, ensure_ascii=False),
        example_client=json.dumps(EXAMPLE_CLIENT, indent=2, ensure_ascii=False),
    )
    return {"configuration.html": page, SCHEMA_FILE: schema_text()}


def _derivation_rule() -> str:
    """The rule as `site_pages` states it in its docstring: written once, shown on the errors page."""
    _, _, rule = (site_pages.__doc__ or "").partition("by one rule:")
    return rule


def site_environment() -> jinja2.Environment:
    """The templates with their inline assets; public so a test can render one page without schemas/."""
    env = environment(_TEMPLATES, autoescape=True)
    env.globals["asset"] = lambda name: Markup((_TEMPLATES / name).read_text(encoding="utf-8").rstrip("\n"))
    env.filters["slug"] = slug
    return env


def write_site(out: Path, files: Mapping[str, str]) -> None:
    """Write the files; pages and schemas of an earlier build that this one no longer has are removed."""
    for stale in sorted(path for path in out.rglob("*") if path.suffix in SITE_SUFFIXES) if out.is_dir() else []:
        if stale.relative_to(out).as_posix() not in files:
            stale.unlink()
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def server_payloads() -> dict[str, str]:
    """The tools/list results the server sends, as `make generate` serialised them."""
    from cdpilot_generated import manifests

    return {"smart": manifests.SMART_TOOLS_JSON, "legacy": manifests.LEGACY_TOOLS_JSON}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen.site", description=__doc__)
    parser.add_argument("--schemas", type=Path, default=REPO / "schemas", help="schema tree to document")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "docs", help="where the site is written")
    args = parser.parse_args(argv)
    guide = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    try:
        files = render_site(args.schemas, server_payloads(), guide)
    except (StaleManifest, ValueError) as exc:
        print(f"docs: {exc}", file=sys.stderr)
        return 1
    write_site(args.out, files)
    print(f"docs: wrote {len(files)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
