"""The route tools' answers, on hand-built routes: one added, the list in the order routes are
tried (cut to the budget with a count), and the routes removed."""

from __future__ import annotations

from cdpilot.answers.route_answers import route_added_line, routes_answer, routes_removed_line
from cdpilot.browser.session.route_facts import Abort, ContinueWith, Fulfill, RouteInfo, RouteSpec

MOCK = RouteInfo(
    "r1",
    RouteSpec("**/api/items*", False, Fulfill(201, (("Content-Type", "application/json"),), b'{"a": 1}')),
    hits=3,
)
FROM_FILE = RouteInfo("r2", RouteSpec(r"\.json$", True, Fulfill(200, (), b"[]", "items.json"), times=2), hits=1)
HEADERS = RouteInfo("r3", RouteSpec("*/echo", False, ContinueWith((("X-Test", "secret-value"),))), hits=0)
ABORT = RouteInfo("r4", RouteSpec("*.png", False, Abort("Failed")), hits=1)


def test_an_added_route_says_what_it_does_and_for_how_long() -> None:
    assert route_added_line(MOCK, 1) == (
        "Route r1: **/api/items* -> mock 201 (8 B body; headers: Content-Type). It applies to every page, "
        "frame and worker of this browser until removed ({tool:remove_route} removes it)."
    )
    assert route_added_line(FROM_FILE, 3) == (
        r"Route r2: regex \.json$ -> mock 200 (2 B body from items.json). It applies to every page, frame and "
        "worker of this browser for its next 2 matches ({tool:remove_route} removes it). It is tried after "
        "the 2 routes added before it."
    )


def test_the_list_shows_each_route_in_order_without_header_values() -> None:
    assert routes_answer([MOCK, FROM_FILE, HEADERS, ABORT], max_chars=5000) == (
        "4 routes, tried in this order (the first that matches answers):\n"
        "r1: **/api/items* -> mock 201 (8 B body; headers: Content-Type); 3 matches\n"
        r"r2: regex \.json$ -> mock 200 (2 B body from items.json); 1 match, 1 of 2 left" + "\n"
        "r3: */echo -> set request headers X-Test; 0 matches\n"
        "r4: *.png -> abort (Failed); 1 match"
    )
    assert (
        routes_answer([], max_chars=5000)
        == "No routes: every request goes to the network. {tool:route_requests} adds one."
    )


def test_a_long_list_is_cut_with_how_many_are_left_out() -> None:
    routes = [RouteInfo(f"r{n}", MOCK.spec, 0) for n in range(100)]
    text = routes_answer(routes, max_chars=5000)
    assert len(text) <= 5000
    assert text.endswith("more routes not shown; {tool:remove_route} removes those no longer needed)"), text[-200:]


def test_removed_routes_and_what_is_left() -> None:
    assert routes_removed_line([MOCK], 2) == "Removed route r1; 2 routes left."
    assert (
        routes_removed_line([MOCK, ABORT], 0) == "Removed 2 routes; no routes left: every request goes to the network."
    )
    assert routes_removed_line([], 0) == "No routes to remove: every request goes to the network."
