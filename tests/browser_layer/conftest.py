"""Fixtures of the browser layer's tests: managers that launch test Chromiums, and a local site.

The shared `browser` fixture (one launched Chromium per module) is in tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from cdpilot.browser.session.manager import ConnectionManager
from tests.support.chromium import StandaloneChromium, chrome_env, standalone_chromium
from tests.support.pages import PageSpec, serve_pages

SITE: dict[str, PageSpec] = {
    "/": (200, "text/html", b"<title>Home page</title><h1>home</h1><a href='/second'>next</a>"),
    "/second": (200, "text/html", b"<title>Second</title><p>two</p>"),
    "/missing": (404, "text/html", b"<title>Not here</title><p>404</p>"),
    "/untitled": (200, "text/html", b"<p>no title</p>"),
    "/moved": (302, "text/html", b"", {"Location": "/second"}),
    "/stuck": (200, "text/html", b"<title>Stuck</title><p>parsed</p><img src='/hang'>"),
    "/busy": (
        200,
        "text/html",
        b"<title>Busy</title>"
        b"<script>fetch('/second').then(r => r.text()).then(() => document.title = 'Fetched')</script>",
    ),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(SITE) as base_url:
        yield base_url


@pytest.fixture
async def manager() -> AsyncIterator[ConnectionManager]:
    """A manager whose launches get the offline test flags; closed after the test."""
    connections = ConnectionManager(env=chrome_env())
    try:
        yield connections
    finally:
        await connections.aclose()


@pytest.fixture(scope="module")
def standalone() -> Iterator[StandaloneChromium]:
    """A Chromium with a DevTools port, started outside cdpilot, for connect tests."""
    with standalone_chromium() as browser:
        yield browser
