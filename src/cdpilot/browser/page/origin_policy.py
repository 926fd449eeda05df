"""Which origins the browser may reach: the start-up lists of allowed and blocked origins.

An entry names an origin the way people write one: ``https://example.com`` (that scheme,
its default port), ``http://127.0.0.1:8080`` (that port), ``example.com`` (any scheme, on
its default port), ``localhost:*`` (any port) and ``*.example.com`` (every subdomain, but
not ``example.com`` itself, as in a Content-Security-Policy source list; list both to
cover both). Blocked wins over allowed; an empty allowed list allows every origin that is
not blocked. A bad entry is a `ValueError` naming it, so a typo stops the start-up
instead of quietly letting everything through. A ws: or wss: entry is one too: the browser
cannot be made to hold WebSocket connections (`RequestInterceptor`), so it would promise what
cannot be kept.

Only URLs with a network origin are decided: http, https, ws and wss, and blob: and
filesystem: URLs by the origin inside them (``blob:https://example.com/…`` is made by
a page of ``https://example.com``). Every other URL passes, because it reaches no server
of its own: ``about:blank`` and ``about:srcdoc`` are empty or written by their parent,
``data:`` carries its content in itself (what such a page loads is decided request by
request), an opaque ``blob:null/…`` was made by a page already let in, ``javascript:``
runs in the page that is already there (and agents may not navigate to it: `urls`), and
``file:`` has its own switch, ``--allow-file-urls``. Browser-internal schemes (chrome:,
devtools:) are out of a web page's reach whatever this policy says.

Hosts are compared as Chrome writes them: lower case, percent-escapes undone, punycode
for international names, IPv4 in dotted form (``2130706433`` is ``127.0.0.1``), no
trailing dot, so the check before a navigation agrees with what the browser will ask for.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
ENTRY_SCHEMES = ("http", "https")  # WebSocket connections cannot be intercepted: see `RequestInterceptor`
WRAPPING_SCHEMES = ("blob:", "filesystem:")  # the origin is that of the URL inside
ALLOWED_FLAG = "--allowed-origins"
BLOCKED_FLAG = "--blocked-origins"
ANY_PORT = -1

_ENTRY = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^:/?#@\[\]\\]+)(?::(?P<port>\d+|\*))?/?"
)
_HOST_LABELS = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
_IPV4_LIKE = re.compile(r"[0-9a-fx.]+")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")


def canonical_host(host: str) -> str:
    """`host` as Chrome would write it in a URL (see the module docstring), or ValueError."""
    host = unquote(host).lower().rstrip(".")
    if ":" in host:  # IPv6, with brackets in an entry, without them from urlsplit
        try:
            return ipaddress.IPv6Address(host.removeprefix("[").removesuffix("]")).compressed
        except ValueError as exc:
            raise ValueError(f"{host!r} is not an IPv6 address") from exc
    if _IPV4_LIKE.fullmatch(host) and host[-1:].isdigit():
        import socket  # here: the command line reads origins before the first answer, and socket costs 3 ms

        try:
            return socket.inet_ntoa(socket.inet_aton(host))
        except OSError:
            pass
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise ValueError(f"{host!r} is not a host name") from exc
    if not _HOST_LABELS.fullmatch(host):
        raise ValueError(f"{host!r} is not a host name")
    return host


@dataclass(frozen=True)
class Origin:
    """Scheme, host and port of a URL: what the lists are matched against."""

    scheme: str
    host: str  # canonical: see `canonical_host`
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if self.port == DEFAULT_PORTS[self.scheme] else f":{self.port}"
        return f"{self.scheme}://{host}{port}"


@dataclass(frozen=True)
class OriginRule:
    """One parsed entry of a list."""

    entry: str  # as given, for messages
    scheme: str | None  # None: any scheme
    host: str  # for `subdomains`, the parent domain
    subdomains: bool  # ``*.example.com``: hosts below `host`, not `host` itself
    port: int | None  # None: the scheme's default port; ANY_PORT: any

    @classmethod
    def parse(cls, entry: str) -> OriginRule:
        """The rule an entry stands for; ValueError naming the entry when it is not an origin."""
        match = _ENTRY.fullmatch(entry.strip())
        if match is None:
            raise ValueError(
                f"{entry!r} is not an origin (scheme://host:port, no path): "
                "write it as example.com, *.example.com, localhost:8080 or https://example.com"
            )
        scheme = match["scheme"].lower() if match["scheme"] else None
        if scheme is not None and scheme not in ENTRY_SCHEMES:
            raise ValueError(f"{entry!r} is not an origin the lists can enforce: the scheme must be http or https")
        host, subdomains = match["host"], match["host"].startswith("*.")
        try:
            host = canonical_host(host[2:] if subdomains else host)
        except ValueError as exc:
            raise ValueError(f"{entry!r} is not an origin: {exc}") from exc
        port = _rule_port(entry, match["port"])
        return cls(entry.strip(), scheme, host, subdomains, port)

    def matches(self, origin: Origin) -> bool:
        if self.scheme is not None and self.scheme != origin.scheme:
            return False
        if self.subdomains:
            if not origin.host.endswith("." + self.host):
                return False
        elif origin.host != self.host:
            return False
        wanted = DEFAULT_PORTS[origin.scheme] if self.port is None else self.port
        return wanted in (origin.port, ANY_PORT)


def _rule_port(entry: str, port: str | None) -> int | None:
    if port is None:
        return None
    if port == "*":
        return ANY_PORT
    if not 0 < int(port) < 65536:
        raise ValueError(f"{entry!r} is not an origin: the port must be 1 to 65535")
    return int(port)


@dataclass(frozen=True)
class Refusal:
    """Why a URL may not be reached: its origin and the list that refuses it."""

    origin: str  # http://localhost:4000; or the URL itself when its origin cannot be read
    flag: str  # BLOCKED_FLAG or ALLOWED_FLAG
    reason: str  # ``blocked by --blocked-origins localhost:*``, ``not in --allowed-origins``

    @property
    def statement(self) -> str:
        """``http://localhost:4000 is blocked by --blocked-origins localhost:*``."""
        return f"{self.origin} is {self.reason}"


class OriginPolicy:
    """The parsed lists; `refusal` decides a URL. Empty lists (the default) refuse nothing."""

    def __init__(self, allowed: Iterable[str] = (), blocked: Iterable[str] = ()) -> None:
        self.allowed = tuple(OriginRule.parse(entry) for entry in allowed)
        self.blocked = tuple(OriginRule.parse(entry) for entry in blocked)

    @property
    def enforced(self) -> bool:
        """Whether any entry was given: without one, there is nothing to check or intercept."""
        return bool(self.allowed or self.blocked)

    def refusal(self, url: str) -> Refusal | None:
        """Why `url` may not be reached, or None when it may (see the module docstring for
        URLs without a network origin). A network URL whose origin cannot be read is refused
        while the policy is enforced: what cannot be checked is not let through."""
        if not self.enforced:
            return None
        try:
            origin = origin_of(url)
        except ValueError:
            flag = ALLOWED_FLAG if self.allowed else BLOCKED_FLAG
            return Refusal(url, flag, f"not a readable origin, so {flag} cannot be checked")
        if origin is None:
            return None
        for rule in self.blocked:
            if rule.matches(origin):
                return Refusal(str(origin), BLOCKED_FLAG, f"blocked by {BLOCKED_FLAG} {rule.entry}")
        if self.allowed and not any(rule.matches(origin) for rule in self.allowed):
            return Refusal(str(origin), ALLOWED_FLAG, f"not in {ALLOWED_FLAG}")
        return None


def origin_of(url: str) -> Origin | None:
    """The network origin of `url`; None for a URL that has none (about:, data:, file:, an
    opaque blob:, …); ValueError for a network URL whose host or port cannot be read."""
    scheme, _, rest = _TAB_OR_NEWLINE.sub("", url).strip().partition(":")
    scheme = scheme.lower()
    if scheme + ":" in WRAPPING_SCHEMES:
        return origin_of(rest)
    if scheme not in DEFAULT_PORTS:
        return None
    # As browsers read these URLs: any run of slashes or backslashes before the host.
    parts = urlsplit(f"{scheme}://{rest.replace(chr(92), '/').lstrip('/')}")
    if not parts.hostname:
        raise ValueError(f"{url!r} has no host")
    port = parts.port  # ValueError when it is not a port
    return Origin(scheme, canonical_host(parts.hostname), DEFAULT_PORTS[scheme] if port is None else port)
