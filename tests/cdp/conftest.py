"""Fixtures of the protocol client's tests: a fake browser peer on each transport."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cdpilot.cdp import CdpConnection
from tests.cdp.fake_peer import FakePeer, TransportKind, peer_and_client


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["pipe", "websocket"])
async def wire(request: pytest.FixtureRequest) -> AsyncIterator[tuple[FakePeer, CdpConnection]]:
    """(peer, client) over a pipe pair, then over a websocket."""
    kind: TransportKind = request.param
    async with peer_and_client(kind) as pair:
        yield pair
