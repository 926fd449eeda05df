"""What the route tools answer: a route added, the routes of a browser, the routes removed.

A route is said in one line: its id, which URLs, what it does and how often it matched, so
the list reads as the order in which routes are tried. Header values are not shown (a route
may set a credential); their names are. The list stays within the answer budget: at most
100 routes exist, each line is bounded, and the list says how many it left out.
"""

from __future__ import annotations

from cdpilot.browser.session.route_facts import Abort, ContinueWith, Fulfill, RouteInfo, RouteSpec
from cdpilot.text import clip, human_size, plural

PATTERN_CHARS = 120
NAMES_CHARS = 120
REMOVE = "{tool:remove_route}"


def _urls(spec: RouteSpec) -> str:
    pattern = clip(spec.pattern, PATTERN_CHARS, keep="ends")
    return f"regex {pattern}" if spec.regex else pattern


def _names(headers: tuple[tuple[str, str], ...]) -> str:
    return clip(", ".join(name for name, _ in headers), NAMES_CHARS)


def action_text(spec: RouteSpec) -> str:
    """``mock 200 (14 B body, headers: Content-Type)``, ``set request headers X-Test``, ``abort (Failed)``."""
    action = spec.action
    if isinstance(action, Fulfill):
        source = f" from {clip(action.body_file, NAMES_CHARS, keep='ends')}" if action.body_file else ""
        parts = [f"{human_size(len(action.body))} body{source}"]
        if action.headers:
            parts.append(f"headers: {_names(action.headers)}")
        return f"mock {action.status} ({'; '.join(parts)})"
    if isinstance(action, ContinueWith):
        return f"set request headers {_names(action.headers)}"
    assert isinstance(action, Abort)
    return f"abort ({action.reason})"


def _use(route: RouteInfo) -> str:
    times = route.spec.times
    if times is None:
        return f"{plural(route.hits, 'match', 'matches')}"
    return f"{plural(route.hits, 'match', 'matches')}, {times - route.hits} of {times} left"


def route_line(route: RouteInfo) -> str:
    return f"{route.id}: {_urls(route.spec)} -> {action_text(route.spec)}; {_use(route)}"


def route_added_line(route: RouteInfo, total: int) -> str:
    """The route, and that it holds for every page of the browser until removed."""
    scope = (
        "until removed" if route.spec.times is None else f"for its next {plural(route.spec.times, 'match', 'matches')}"
    )
    order = "" if total == 1 else f" It is tried after the {plural(total - 1, 'route')} added before it."
    return (
        f"Route {route.id}: {_urls(route.spec)} -> {action_text(route.spec)}. It applies to every page, frame and "
        f"worker of this browser {scope} ({REMOVE} removes it).{order}"
    )


def routes_answer(routes: list[RouteInfo], *, max_chars: int) -> str:
    """The routes in the order they are tried, cut to `max_chars` with how many were left out."""
    if not routes:
        return "No routes: every request goes to the network. {tool:route_requests} adds one."
    lines = [f"{plural(len(routes), 'route')}, tried in this order (the first that matches answers):"]
    used = len(lines[0])
    for index, route in enumerate(routes):
        line = route_line(route)
        if used + len(line) + 100 > max_chars:
            lines.append(f"(+{len(routes) - index} more routes not shown; {REMOVE} removes those no longer needed)")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def routes_removed_line(removed: list[RouteInfo], left: int) -> str:
    if not removed:
        return "No routes to remove: every request goes to the network."
    what = f"route {removed[0].id}" if len(removed) == 1 else plural(len(removed), "route")
    rest = f"{plural(left, 'route')} left" if left else "no routes left: every request goes to the network"
    return f"Removed {what}; {rest}."
