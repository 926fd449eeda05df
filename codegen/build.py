"""One build: lint the schemas, then render every file of ``generated/``.

The lint comes first and a finding stops the build: the models would be discarded anyway,
and datamodel-code-generator's one call is most of a build's time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from codegen.catalog import Catalog, load_catalog
from codegen.lint import Finding, lint
from codegen.models import models_document, models_source
from codegen.render import MODELS, render_templates


@dataclass(frozen=True)
class Build:
    """What a build made of the schemas."""

    catalog: Catalog
    findings: list[Finding]
    files: dict[str, str]  # by path relative to generated/; none when there are findings


def build(schemas: Path) -> Build:
    """Lint ``schemas`` and, when the lint finds nothing, render every generated file."""
    catalog = load_catalog(schemas)
    findings = lint(catalog)
    if findings:
        return Build(catalog, findings, {})
    files = render_templates(catalog)
    with _no_cycle_collection():
        files[MODELS] = models_source(models_document(catalog))
    return Build(catalog, [], files)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The generator's call builds objects that nearly all live until it returns; the cycle
    collector's walks over them cost 5-10% of the call and free next to nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
