"""Which URLs an agent may send the browser to, decided before the browser sees them.

An allow-list, not a deny-list: http, https, ``about:blank``, ``data:`` and (opt-in)
``file:``. Everything else is refused with a VALIDATION error naming the ``url`` field:
``javascript:`` runs code in whatever page is open, ``chrome:``/``devtools:``/
``chrome-extension:``/``view-source:`` reach browser internals, ``file:`` reads the disk.

``data:`` is allowed on purpose: a browser-initiated navigation to it opens a page with an
opaque origin that can reach nothing the agent could not reach with http, and it lets
tests and agents build a page in one line.

The scheme is read the way browsers read it (WHATWG URL): surrounding whitespace and C0
controls are ignored, tabs and newlines anywhere are dropped, case does not matter. The
text is also read once more after undoing percent-encoding and HTML entities, so
``%6Aavascript:`` or ``javascript&colon;`` cannot pose as a host name.

Given the start-up origin lists (`OriginPolicy`), a URL on a refused origin is refused
here too, before anything reaches the browser, with the origin and the rule in the error;
the browser-side interception (`RequestInterceptor`) would only fail it after the fact, as a
failed load.
"""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.errors import ArgumentError, FieldProblem

NAVIGABLE_SCHEMES = frozenset({"http", "https", "about", "data"})
DANGEROUS_SCHEMES = frozenset(
    {"javascript", "vbscript", "chrome", "chrome-extension", "chrome-untrusted", "devtools", "view-source", "file"}
)

_EDGE_JUNK = re.compile(r"^[\x00-\x20\s\u200b-\u200f\u2060\ufeff]+|[\x00-\x20\s\u200b-\u200f\u2060\ufeff]+$")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_HOST_AND_PORT = re.compile(r"[^:/?#@]+:\d+(?:[/?#]|$)")
_DECODE_ROUNDS = 3


def _clean(text: str) -> str:
    return _EDGE_JUNK.sub("", _TAB_OR_NEWLINE.sub("", text))


def _scheme_of(text: str) -> str | None:
    match = _SCHEME.match(text)
    return match.group(1).lower() if match else None


def _decoded_schemes(url: str) -> set[str]:
    """Schemes the text reveals once percent-encoding and HTML entities are undone."""
    schemes: set[str] = set()
    text = url
    for _ in range(_DECODE_ROUNDS):
        decoded = _clean(html.unescape(unquote(text)))
        if decoded == text:
            break
        text = decoded
        scheme = _scheme_of(text)
        if scheme is not None:
            schemes.add(scheme)
    return schemes


def _refuse(reason: str, given: str, *, allow_file_urls: bool) -> ArgumentError:
    expected = "an http(s), about:blank or data: URL" + (", or a file: URL" if allow_file_urls else "")
    return ArgumentError(
        f"Refused to navigate: {reason}.",
        problems=[FieldProblem("url", expected, given)],
        suggestion="Use an http:// or https:// address (pages served on 127.0.0.1 work too).",
    )


def check_origin(url: str, origins: OriginPolicy) -> None:
    """An `ArgumentError` naming the origin and the rule when `origins` refuses `url`."""
    refusal = origins.refusal(url)
    if refusal is not None:
        raise ArgumentError(
            f"Refused to navigate: {refusal.statement}.",
            problems=[FieldProblem("url", f"a URL on an origin that {refusal.flag} lets through", refusal.origin)],
            suggestion="The origin lists are fixed when cdpilot starts (--allowed-origins, --blocked-origins): "
            "choose a URL they allow, or ask whoever runs cdpilot to change them.",
        )


def normalize_url(raw: str, *, allow_file_urls: bool, origins: OriginPolicy | None = None) -> str:
    """The URL to hand to the browser, or an `ArgumentError` saying why it is refused.

    A URL without a scheme (``example.com``, ``127.0.0.1:8000/x``, ``localhost:3000``)
    gets ``http://``, as an address bar would do. With `origins`, its origin must pass them.
    """
    url = _clean(raw)
    if not url:
        raise _refuse("the URL is empty", "an empty string", allow_file_urls=allow_file_urls)
    allowed = NAVIGABLE_SCHEMES | ({"file"} if allow_file_urls else set())
    hidden = _decoded_schemes(url) & (DANGEROUS_SCHEMES - allowed)
    if hidden:
        name = min(hidden)
        raise _refuse(f"the URL hides a {name}: scheme", f"an encoded {name}: URL", allow_file_urls=allow_file_urls)
    scheme = _scheme_of(url)
    if url.startswith("//"):
        url, scheme = "http:" + url, "http"
    elif scheme is None or (scheme not in DANGEROUS_SCHEMES and _HOST_AND_PORT.match(url)):
        url, scheme = "http://" + url, "http"
    if scheme not in allowed:
        why = "file: URLs are not enabled" if scheme == "file" else f"{scheme}: URLs are not allowed"
        raise _refuse(why, f"a {scheme}: URL", allow_file_urls=allow_file_urls)
    if scheme == "about" and re.split(r"[?#]", url[len("about:") :], maxsplit=1)[0].lower() != "blank":
        raise _refuse(
            "about: pages other than about:blank are not allowed", "an about: URL", allow_file_urls=allow_file_urls
        )
    if origins is not None:
        check_origin(url, origins)
    return url
