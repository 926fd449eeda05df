"""One build: lint the schemas, then render every file of ``generated/``.

The lint comes first and a finding stops the build: the models would be discarded anyway,
and the datamodel-code-generator calls are most of a build's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codegen.catalog import Catalog, load_catalog
from codegen.lint import Finding, lint
from codegen.models import ModelWriter
from codegen.render import render_templates


@dataclass(frozen=True)
class Build:
    """What a build made of the schemas."""

    catalog: Catalog
    findings: list[Finding]
    files: dict[str, str]  # by path relative to generated/; none when there are findings


def build(schemas: Path, jobs: int | None = None) -> Build:
    """Lint ``schemas`` and, when the lint finds nothing, render every generated file, with at
    most ``jobs`` generator processes at once (default: one per usable core)."""
    with ModelWriter(jobs) as models:  # its workers get ready while the schemas are linted
        catalog = load_catalog(schemas)
        findings = lint(catalog)
        if findings:
            return Build(catalog, findings, {})
        return Build(catalog, [], render_templates(catalog) | models.files(catalog))
