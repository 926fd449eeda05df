"""The docs site under test: built from the real schemas, served on 127.0.0.1, read by a real Chromium.

`make test` builds a fresh site into a temporary directory; `make docs-check` points
``CDPILOT_DOCS_SITE`` at the site `make docs` wrote, and ``CDPILOT_DOCS_SHOTS`` at the folder
that keeps the screenshots for review. The `browser` fixture is tests/conftest.py's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen.site import REPO, render_site, server_payloads, write_site
from tests.support.pages import PageSpec, directory_pages, serve_pages


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = os.environ.get("CDPILOT_DOCS_SITE")
    if built:
        return Path(built)
    out = tmp_path_factory.mktemp("docs")
    guide = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    write_site(out, render_site(REPO / "schemas", server_payloads(), guide))
    return out


@pytest.fixture(scope="session")
def site_pages(site_dir: Path) -> dict[str, PageSpec]:
    return directory_pages(site_dir)


@pytest.fixture(scope="module")
def site_url(site_pages: dict[str, PageSpec]) -> Iterator[str]:
    with serve_pages(site_pages) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("CDPILOT_DOCS_SHOTS")
    if not wanted:
        return tmp_path_factory.mktemp("shots")
    Path(wanted).mkdir(parents=True, exist_ok=True)
    return Path(wanted)
