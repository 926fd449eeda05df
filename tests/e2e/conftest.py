"""The fixtures every end-to-end file shares: its pages served on 127.0.0.1, and the real
server over stdio in each mode, with a launched headless Chromium.

A test file lists the pages it needs in a module-level ``PAGES``; the site and the servers
live as long as the file's tests (one per mode), so files do not see each other's tabs,
breakpoints or console output.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient, browser_session
from tests.support.pages import serve_pages


@pytest.fixture(scope="module")
def site_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test file's ``PAGES``, served on 127.0.0.1."""
    with serve_pages(request.module.PAGES) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def output_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the file's servers write screenshots and bodies (a folder per mode below it)."""
    return tmp_path_factory.mktemp("output")


@pytest.fixture(scope="module", params=["smart", "legacy"])
async def client(request: pytest.FixtureRequest, output_dir: Path) -> AsyncIterator[ModeClient]:
    """The real server in one mode, with a browser launched."""
    async with browser_session(request.param, "--output-dir", str(output_dir / request.param)) as session:
        yield session


@pytest.fixture
async def debugging(client: ModeClient) -> AsyncIterator[ModeClient]:
    """The debugger on, on a blank page; turned off afterwards (which also resumes)."""
    await client.ok("navigate", url="about:blank")
    await client.ok("debugger_enable")
    yield client
    await client.ok("debugger_disable")
