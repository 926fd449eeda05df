"""Where a script's source map is, and the URLs of the sources it names.

Why not plain `urljoin`: browsers resolve relative URLs against any hierarchical URL
(``chrome-extension://…``, an Electron app's ``app://…``), while `urljoin` returns the
relative reference unchanged for schemes it does not know. And a map may come inline, as a
``data:`` URL in base64 or percent-encoded, whose sources then resolve against the script's
URL, since a data: URL has no directory of its own.

The rules, as browsers apply them:

- a script's ``sourceMappingURL`` resolves against the script's URL;
- a source resolves as ``sourceRoot`` + ``/`` + source (no slash added when one is there
  already), then against the map's URL; a source that is already an absolute URL
  (``webpack:///…``, ``http://…``) ignores ``sourceRoot``;
- an absolute URL loses its dot segments, whatever its scheme, as the URL standard has it:
  ``webpack://app/./src/cart.ts`` is ``webpack://app/src/cart.ts``, so two maps that spell
  one file both ways name the same source.
"""

from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import unquote_to_bytes, urljoin, urlsplit, uses_relative

from cdpilot.browser.sourcemaps.sourcemap_facts import SourceMapLocation
from cdpilot.errors import SourceMapError

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
DRIVE = re.compile(r"^[A-Za-z]:[\\/]")  # C:\… or C:/… is a Windows path, not a URL scheme
LABEL_CHARS = 100  # a data: URL is shortened to this in messages


def is_absolute_url(reference: str) -> bool:
    return bool(SCHEME.match(reference)) and not DRIVE.match(reference)


def resolve_url(base: str, reference: str) -> str:
    """`reference` resolved against `base`, for any hierarchical scheme. A Windows path
    (``C:\\src\\a.ts``) is already absolute and stays as it is."""
    if SCHEME.match(reference):
        return _without_dot_segments(reference)
    if not base:
        return reference
    scheme = urlsplit(base).scheme
    if scheme in uses_relative or "://" not in base:
        return urljoin(base, reference)
    # urljoin only joins schemes it knows; borrow one for the join and put the real one back.
    joined = urljoin("https" + base[len(scheme) :], reference)
    return scheme + joined[len("https") :]


def _without_dot_segments(url: str) -> str:
    scheme, authority, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    if not authority or not slash or "/." not in "/" + path:
        return url  # opaque (data:, about:), host only, or nothing to remove
    return f"{scheme}://{host}{urljoin('https://h/', '/' + path)[len('https://h') :]}"


def with_source_root(source: str, source_root: str) -> str:
    """A source as the map means it: behind its ``sourceRoot``, unless it is a URL already."""
    if not source_root or is_absolute_url(source):
        return source
    separator = "" if source_root.endswith("/") or source.startswith("/") else "/"
    return source_root + separator + source


def source_url(source: str, source_root: str, map_base: str) -> str:
    """The absolute URL of one of a map's sources."""
    return resolve_url(map_base, with_source_root(source, source_root))


def decode_data_url(url: str) -> str:
    """The text of a ``data:`` URL: base64 (``;base64,``) or percent-encoded, in its charset."""
    head, comma, body = url.partition(",")
    if not head.lower().startswith("data:") or not comma:
        raise SourceMapError(f"{label(url)} is not a data: URL")
    params = [param.strip().lower() for param in head[len("data:") :].split(";")]
    charset = next((param.partition("=")[2].strip('"') for param in params if param.startswith("charset=")), "utf-8")
    raw = unquote_to_bytes(body)
    if params[-1] == "base64":
        packed = re.sub(rb"\s+", b"", raw)
        try:
            raw = base64.b64decode(packed + b"=" * (-len(packed) % 4), validate=True)
        except binascii.Error as exc:
            raise SourceMapError(f"{label(url)}: its base64 is broken ({exc})") from exc
    try:
        return raw.decode(charset)
    except (LookupError, UnicodeDecodeError) as exc:
        raise SourceMapError(f"{label(url)}: its text is not {charset} ({exc})") from exc


def locate_source_map(script_url: str, source_map_url: str) -> SourceMapLocation | None:
    """Where the map of a script is, from the script's URL and its ``sourceMappingURL``
    (as ``Debugger.scriptParsed`` reports them): inline text, or an absolute URL to fetch.
    None when the script names no map."""
    source_map_url = source_map_url.strip()
    if not source_map_url:
        return None
    if source_map_url[:5].lower() == "data:":
        return SourceMapLocation(url=source_map_url, text=decode_data_url(source_map_url), base_url=script_url)
    absolute = resolve_url(script_url, source_map_url)
    return SourceMapLocation(url=absolute, text=None, base_url=absolute)


def label(map_url: str, script_url: str = "") -> str:
    """How messages name a map: its URL, or for an inline one, the script it is inlined in."""
    if map_url[:5].lower() != "data:":
        return f"source map {map_url}" if map_url else "source map"
    if script_url:
        return f"inline source map of {script_url}"
    return (
        f"inline source map {map_url[:LABEL_CHARS]}…" if len(map_url) > LABEL_CHARS else f"inline source map {map_url}"
    )
