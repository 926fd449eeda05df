"""The Chrome DevTools Protocol client: transports, sessions, events and deadlines.

Knows nothing of tools or MCP. The browser layer opens a transport
(`PipeTransport` for a launched browser, `WebSocketTransport` for a running one), wraps it
in a `CdpConnection`, and talks to `CdpSession` objects.
"""

from cdpilot.cdp.client import CdpConnection
from cdpilot.cdp.events import CdpEvent, EventStream, Subscriptions
from cdpilot.cdp.pipe import PipeTransport
from cdpilot.cdp.session import DEFAULT_COMMAND_TIMEOUT_S, CdpSession
from cdpilot.cdp.transport import MAX_MESSAGE_BYTES, Transport
from cdpilot.cdp.websocket import DevToolsEndpoint, WebSocketTransport, discover_endpoint, discover_websocket_url

__all__ = [
    "DEFAULT_COMMAND_TIMEOUT_S",
    "MAX_MESSAGE_BYTES",
    "CdpConnection",
    "CdpEvent",
    "CdpSession",
    "DevToolsEndpoint",
    "EventStream",
    "PipeTransport",
    "Subscriptions",
    "Transport",
    "WebSocketTransport",
    "discover_endpoint",
    "discover_websocket_url",
]
