"""The request routes of one browser, and which one a URL meets.

Kept apart from the interception itself (`RequestInterceptor`) because matching is pure:
the routes are tried in the order they were added and the first that matches the URL
answers the request, so adding a route never changes what the earlier ones do. A route
with a number of times is removed once it has answered that many requests; the table says
so, and the interceptor turns interception off when nothing is left to intercept for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from cdpilot.browser.observe.network_facts import url_matcher
from cdpilot.browser.session.route_facts import RouteInfo, RouteSpec
from cdpilot.errors import StateError

MAX_ROUTES = 100  # every request is matched against each: a bound keeps that cheap
LIST_SUGGESTION = "See the routes and their ids with {tool:list_routes}."


@dataclass(eq=False)
class _Route:
    id: str
    spec: RouteSpec
    matches: Callable[[str], bool]
    hits: int = 0

    def info(self) -> RouteInfo:
        return RouteInfo(self.id, self.spec, self.hits)


def matcher(spec: RouteSpec) -> Callable[[str], bool]:
    """A regex is searched anywhere in the URL (anchor it to match the whole); a glob is
    matched as the request list matches its ``url_pattern``, so one pattern means one thing."""
    if spec.regex:
        compiled = re.compile(spec.pattern)
        return lambda url: compiled.search(url) is not None
    return url_matcher(spec.pattern)


class RouteTable:
    """Routes by id (``r1``, ``r2``, … never reused in one browser), oldest first."""

    def __init__(self) -> None:
        self._routes: dict[str, _Route] = {}
        self._next_id = 1

    def __len__(self) -> int:
        return len(self._routes)

    def add(self, spec: RouteSpec) -> RouteInfo:
        if len(self._routes) >= MAX_ROUTES:
            raise StateError(
                f"This browser has {MAX_ROUTES} routes already, the most it keeps.",
                suggestion="Remove routes it no longer needs with {tool:remove_route}. " + LIST_SUGGESTION,
            )
        route = _Route(f"r{self._next_id}", spec, matcher(spec))
        self._next_id += 1
        self._routes[route.id] = route
        return route.info()

    def infos(self) -> list[RouteInfo]:
        return [route.info() for route in self._routes.values()]

    def remove(self, route_id: str | None) -> list[RouteInfo]:
        """The route with this id (None: every route), removed; StateError for an unknown id."""
        if route_id is None:
            removed, self._routes = self.infos(), {}
            return removed
        route = self._routes.pop(route_id, None)
        if route is None:
            known = ", ".join(self._routes) or "none"
            raise StateError(
                f"No route with id {route_id!r} in this browser (routes: {known}).", suggestion=LIST_SUGGESTION
            )
        return [route.info()]

    def take(self, url: str) -> tuple[RouteInfo | None, bool]:
        """The first route that matches `url`, counted as used, and whether that used it up
        (it is then removed)."""
        for route in self._routes.values():
            if route.matches(url):
                route.hits += 1
                used_up = route.spec.times is not None and route.hits >= route.spec.times
                if used_up:
                    del self._routes[route.id]
                return route.info(), used_up
        return None, False
