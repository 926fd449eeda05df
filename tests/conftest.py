"""Fixtures shared by every test directory."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from tests.support.chromium import chrome_env

# Fixtures that start a Chromium (each, or what it builds on): a test that uses one, however
# indirectly, gets the `browser` marker here, so `-m "not browser"` runs no Chromium. A test that
# starts one otherwise (a manager's launch, the real server launching, the reliability stage)
# carries the marker itself.
BROWSER_FIXTURES = frozenset({"browser", "client", "debugging", "standalone"})


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


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
