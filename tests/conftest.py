"""Fixtures shared by every test directory."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Session scope, so module-scoped async fixtures (one server + browser per module) work."""
    return "asyncio"
