"""How the HTTP transport listens and whom it lets in, read from the config at start-up.

Why a module of its own, on the standard library only: `cdpilot.cli` builds these before
it knows which transport serves, and the stdio path must not pay for importing the HTTP
stack (Starlette, uvicorn) it never uses.

Secure by default: the server listens on loopback; the Host and Origin headers are checked
against loopback names (DNS rebinding), plus what the operator allows; and an address
other people can reach is refused at start unless every request must carry a bearer token.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from cdpilot.config import Config
from cdpilot.errors import ConfigError

LOOPBACK_HOSTS = ("127.0.0.1:*", "localhost:*", "[::1]:*")
LOOPBACK_ORIGINS = ("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*")


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or name to bind) is reachable from this machine only."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to anything


@dataclass(frozen=True)
class HttpSettings:
    host: str = "127.0.0.1"
    port: int = 8931
    auth_token: str | None = field(default=None, repr=False)  # never printed, not even by repr
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    allowed_origins: tuple[str, ...] = LOOPBACK_ORIGINS
    max_sessions: int = 16
    session_idle_timeout_s: float = 600.0
    session_files_retention_s: float = 3600.0  # an ended session's output subfolder is deleted this long after
    max_tabs_per_session: int = 20
    browser_per_session: bool = False  # else each session's launches are contexts of one shared browser

    @classmethod
    def from_config(cls, config: Config) -> HttpSettings:
        """The HTTP settings; a non-loopback bind without a token is refused (ConfigError)."""
        host, token = config["host"].strip(), config["auth_token"]
        if not is_loopback(host) and not token:
            raise ConfigError(
                f"{config.sources['host']}={host!r} listens beyond this machine, so every request must carry a "
                "token: give --auth-token TOKEN (or CDPILOT_AUTH_TOKEN), or listen on 127.0.0.1"
            )
        return cls(
            host=host,
            port=config["port"],
            auth_token=token,
            allowed_hosts=(*LOOPBACK_HOSTS, *config["allowed_hosts"]),
            allowed_origins=(*LOOPBACK_ORIGINS, *config["allowed_http_origins"]),
            max_sessions=config["max_sessions"],
            session_idle_timeout_s=float(config["session_idle_timeout"]),
            session_files_retention_s=float(config["session_files_retention"]),
            max_tabs_per_session=config["max_tabs_per_session"],
            browser_per_session=config["browser_per_session"],
        )

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/mcp"
