"""Fixtures shared by every test directory."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from tests.support.chromium import chrome_env


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Session scope, so module-scoped async fixtures (one server + browser per module) work."""
    return "asyncio"


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[BrowserConnection]:
    """One launched test Chromium (offline flags) shared by a module's tests, closed after them."""
    connections = ConnectionManager(env=chrome_env())
    try:
        await connections.launch(LaunchOptions(connection_id=None))
        yield connections.get(None)
    finally:
        await connections.aclose()
