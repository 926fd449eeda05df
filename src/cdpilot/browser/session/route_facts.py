"""What a request route is and what it did, as plain data: the answers render these, and the
network log marks the requests a route answered with a `RouteMark`.

A route is a URL matcher and one action: fulfil the request with a response made up here,
let it go on with some request headers set, or fail it. These facts speak no CDP, so the
renderers and the argument checks can use them without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Headers = tuple[tuple[str, str], ...]  # in the order given; names as given


@dataclass(frozen=True)
class Fulfill:
    """Answer the request without asking the network."""

    status: int
    headers: Headers
    body: bytes
    body_file: str | None = None  # the file of the upload directory the body was read from


@dataclass(frozen=True)
class ContinueWith:
    """Send the request on, with these headers set (over the page's own, name by name)."""

    headers: Headers


@dataclass(frozen=True)
class Abort:
    """Fail the request as a network error of this reason (CDP's ``Network.ErrorReason``)."""

    reason: str


RouteAction = Fulfill | ContinueWith | Abort
Outcome = Literal["mocked", "modified", "aborted"]


@dataclass(frozen=True)
class RouteSpec:
    """A route as asked for: which URLs, what to do, and how many times (None: until removed)."""

    pattern: str
    regex: bool  # `pattern` is a regular expression, searched in the URL; else a glob
    action: RouteAction
    times: int | None = None


@dataclass(frozen=True)
class RouteInfo:
    """A route as it stands: its id, what it is and how often it has matched."""

    id: str
    spec: RouteSpec
    hits: int


@dataclass(frozen=True)
class RouteMark:
    """What a route did to one request: how the network log tells a mocked or aborted request
    from one the network answered."""

    route_id: str
    outcome: Outcome


def outcome_of(action: RouteAction) -> Outcome:
    if isinstance(action, Fulfill):
        return "mocked"
    return "modified" if isinstance(action, ContinueWith) else "aborted"
