"""Where a running browser may be reached, and the loopback-only policy that guards it.

A DevTools endpoint gives full control of the browser and everything logged into it, and
a prompt-injected agent could be told to connect anywhere; so only this machine's
loopback addresses are allowed unless the operator started the server with
``--allow-remote``. Host names are not resolved to decide: ``localhost`` is trusted by
name, anything else must be a loopback IP literal (a resolver could lie).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from cdpilot.errors import ArgumentError, FieldProblem

LOOPBACK_EXPECTED = "a loopback host (127.0.0.1, ::1 or localhost)"
ALLOW_REMOTE_SUGGESTION = "Connect to a browser on this machine, or restart the server with --allow-remote."


def is_loopback(host: str) -> bool:
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def _require_allowed(host: str, field: str, *, allow_remote: bool) -> None:
    if not allow_remote and not is_loopback(host):
        raise ArgumentError(
            f"Refusing to connect to {host}: remote browsers are disabled on this server.",
            problems=[FieldProblem(field, LOOPBACK_EXPECTED, "a remote host")],
            suggestion=ALLOW_REMOTE_SUGGESTION,
        )


def check_host_and_port(host: str, port: int, *, allow_remote: bool) -> None:
    """Validate a host+port endpoint before anything is contacted."""
    if not host.strip():
        raise ArgumentError("No host given.", problems=[FieldProblem("host", LOOPBACK_EXPECTED, "an empty string")])
    if not 0 < port < 65536:
        raise ArgumentError("Invalid port.", problems=[FieldProblem("port", "an integer from 1 to 65535", str(port))])
    _require_allowed(host, "host", allow_remote=allow_remote)


def check_websocket_url(ws_url: str, *, allow_remote: bool) -> str:
    """The ws:// or wss:// DevTools URL to open, refused when malformed or (policy) remote."""
    url = ws_url.strip()
    try:  # urlsplit and .port raise ValueError on a malformed authority ("ws://[", a port of "x")
        parts = urlsplit(url)
        well_formed = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        well_formed = False
    if not well_formed or parts.scheme.lower() not in ("ws", "wss") or not parts.hostname:
        raise ArgumentError(
            "Invalid DevTools websocket URL.",
            problems=[FieldProblem("ws_url", "a ws:// or wss:// URL with a host", "another kind of text")],
        )
    _require_allowed(parts.hostname, "ws_url", allow_remote=allow_remote)
    return url
