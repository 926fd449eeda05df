"""Per-page collectors that must see events from the moment a page becomes current.

Console messages, network requests and dialogs cannot be fetched after the fact, so
`BrowserConnection` attaches every feature to each page session it makes current.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from cdpilot.browser.console import ConsoleLog
from cdpilot.browser.dialogs import DialogWatcher
from cdpilot.browser.network import NetworkLog
from cdpilot.cdp import CdpSession


@dataclass
class PageFeatures:
    console: ConsoleLog = field(default_factory=ConsoleLog)
    network: NetworkLog = field(default_factory=NetworkLog)
    dialogs: DialogWatcher = field(default_factory=DialogWatcher)

    async def attach(self, session: CdpSession) -> None:
        await asyncio.gather(self.console.attach(session), self.network.attach(session), self.dialogs.attach(session))
