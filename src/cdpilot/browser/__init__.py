"""The browser layer: launching and connecting to browsers, and acting on their pages.

It speaks CDP through `cdpilot.cdp` and knows nothing of MCP (ARCHITECTURE §1); the
handlers call `ConnectionManager` and the page functions.
"""

from cdpilot.browser.connection import BrowserConnection
from cdpilot.browser.connections import ConnectionInfo, ConnectionManager, ConnectOptions, LaunchOptions
from cdpilot.browser.page import NavigationResult, navigate

__all__ = [
    "BrowserConnection",
    "ConnectOptions",
    "ConnectionInfo",
    "ConnectionManager",
    "LaunchOptions",
    "NavigationResult",
    "navigate",
]
