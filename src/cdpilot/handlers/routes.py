"""Request route tools (smart: network route, routes and unroute actions).

Every argument is checked before a browser is asked for: the URL matcher (one of a glob or a
regular expression, which must compile), exactly one action, and the body file (inside the
upload directory, read once now: the route serves what the file held when it was added).
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
from pathlib import Path
from typing import TYPE_CHECKING

from cdpilot.answers import route_answers as answers
from cdpilot.browser.session.route_facts import Abort, ContinueWith, Fulfill, RouteAction, RouteSpec
from cdpilot.context import Settings, ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem
from cdpilot.handlers.common import browser
from cdpilot.text import human_size
from cdpilot.upload_files import resolve_upload_file, upload_root

if TYPE_CHECKING:
    from cdpilot_generated.models import ListRoutesArgs, RemoveRouteArgs, RouteRequestsArgs

STATUS_RANGE = range(100, 600)  # what Chrome accepts as a response's status
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP token, as Chrome checks it
HEADER_VALUE_FORBIDDEN = re.compile(r"[\0\r\n]")
MAX_BODY_BYTES = 50 * 1024 * 1024  # goes to the browser in one CDP message, as base64
ACTIONS = (
    "Give a response ({param:status}, {param:headers}, {param:body}), {param:request_headers}, or {param:abort}=true. "
    "A response's body may come from a file instead: {param:body_file}."
)


async def route_requests(args: RouteRequestsArgs, ctx: ToolContext) -> ToolResult:
    spec = RouteSpec(*_matcher(args), action=await _action(args, ctx.settings), times=args.times)
    conn = await browser(ctx, args.connection_id)
    route = await conn.routes.add(spec)
    return ToolResult(answers.route_added_line(route, len(conn.routes)))


async def list_routes(args: ListRoutesArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    routes = conn.routes.infos()
    return ToolResult(answers.routes_answer(routes, max_chars=ctx.settings.max_answer_chars))


async def remove_route(args: RemoveRouteArgs, ctx: ToolContext) -> ToolResult:
    conn = await browser(ctx, args.connection_id)
    removed = await conn.routes.remove(args.route_id)
    return ToolResult(answers.routes_removed_line(removed, len(conn.routes)))


def _matcher(args: RouteRequestsArgs) -> tuple[str, bool]:
    """(pattern, is a regex): exactly one of the two was given, and a regex compiles."""
    if (args.url_pattern is None) == (args.url_regex is None):
        given = "both" if args.url_pattern is not None else "neither"
        raise ArgumentError(
            "Say which requests to route.",
            problems=[FieldProblem("url_pattern", "a glob or a regular expression, one of the two", given)],
            suggestion="Give {param:url_pattern} (a glob such as **/api/items*) or {param:url_regex}, not both.",
        )
    if args.url_pattern is not None:
        return args.url_pattern, False
    regex = args.url_regex or ""
    try:
        re.compile(regex)
    except re.error as exc:
        problem = FieldProblem("url_regex", "a regular expression (Python syntax)", f"{regex!r} ({exc.msg})")
        raise ArgumentError("The URL regular expression does not compile.", problems=[problem]) from exc
    if not regex:
        problem = FieldProblem("url_regex", "a regular expression that says something", "an empty one")
        raise ArgumentError("An empty regular expression would route every request.", problems=[problem])
    return regex, True


async def _action(args: RouteRequestsArgs, settings: Settings) -> RouteAction:
    """The one action asked for: a response, request headers to set, or a failure."""
    responds = any(value is not None for value in (args.status, args.headers, args.body, args.body_file))
    modifies, aborts = args.request_headers is not None, bool(args.abort)
    asked = [what for what, given in (("a response", responds), ("headers", modifies), ("abort", aborts)) if given]
    if len(asked) != 1:
        problem = FieldProblem(
            "response, request_headers, abort", "exactly one of the three", " and ".join(asked) or "none"
        )
        raise ArgumentError("A route does one thing to a request.", problems=[problem], suggestion=ACTIONS)
    if args.error_reason is not None and not aborts:
        problem = FieldProblem("error_reason", "a reason only for a route that aborts", args.error_reason)
        raise ArgumentError("An error reason says how an aborted request fails.", problems=[problem])
    if args.request_headers is not None:
        return ContinueWith(_headers("request_headers", args.request_headers))
    if args.abort:
        return Abort(args.error_reason or "Failed")
    status = 200 if args.status is None else args.status
    if status not in STATUS_RANGE:
        problem = FieldProblem("status", "an HTTP status from 100 to 599", str(status))
        raise ArgumentError("A mocked response needs a real HTTP status.", problems=[problem])
    headers = dict(_headers("headers", args.headers or {}))
    if args.body_file is None:
        return Fulfill(status, tuple(headers.items()), (args.body or "").encode())
    if args.body is not None:
        problem = FieldProblem("body, body_file", "one body", "both")
        raise ArgumentError("A response has one body.", problems=[problem])
    body = await asyncio.to_thread(_read_body_file, args.body_file, settings)
    if not any(name.lower() == "content-type" for name in headers):
        headers["Content-Type"] = mimetypes.guess_type(args.body_file)[0] or "application/octet-stream"
    return Fulfill(status, tuple(headers.items()), body, body_file=args.body_file)


def _headers(field: str, given: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The headers as given, once each name is an HTTP token and no value breaks a line
    (Chrome refuses the whole answer otherwise, after the request has been held)."""
    for name, value in given.items():
        if not HEADER_NAME.fullmatch(name):
            problem = FieldProblem(
                f"{field}[{name!r}]", "a header name (letters, digits and !#$%&'*+-.^_`|~)", repr(name)
            )
            raise ArgumentError("A header name is not valid.", problems=[problem])
        if HEADER_VALUE_FORBIDDEN.search(value):
            problem = FieldProblem(f"{field}[{name!r}]", "a value without line breaks or NUL", repr(value))
            raise ArgumentError("A header value is not valid.", problems=[problem])
    return tuple(given.items())


def _read_body_file(path: str, settings: Settings) -> bytes:
    real: Path = resolve_upload_file(path, upload_root(settings.upload_dir, settings.output_dir), "body_file")
    size = real.stat().st_size
    if size > MAX_BODY_BYTES:
        problem = FieldProblem("body_file", f"a file of at most {human_size(MAX_BODY_BYTES)}", f"{human_size(size)}")
        raise ArgumentError("The body file is too large to mock a response with.", problems=[problem])
    return real.read_bytes()
