"""Display names for a map's sources, and matching what a user types against them.

A map names its sources the way its bundler likes: ``webpack:///./src/cart.ts``,
``webpack://myapp/./src/cart.ts``, ``../src/cart.ts`` relative to a map in ``dist/``,
Vite's ``/@fs/home/u/proj/src/cart.ts?v=abc123``, ``http://127.0.0.1:8000/src/cart.ts``. A
person thinks ``src/cart.ts``. The display name is that project-relative path, for showing
and for matching; the resolved URL stays beside it as the source's identity.

The rules, in order (`display_name`):

1. A relative source (no scheme, no leading ``/``) is taken as written, since it is relative
   to the map, and bundlers write it from the project: dot segments collapse, and the ``../``
   that climb out of the output directory go (``../src/x.ts`` → ``src/x.ts``).
2. Otherwise the resolved URL's path is used: ``webpack://<namespace>/`` (any namespace, even
   an empty one) and ``http(s)://host/`` are dropped, leaving the path from the project or
   site root (``./src/cart.ts`` → ``src/cart.ts``). A ``file:`` URL or a bare absolute path
   keeps its absolute path, since no project root is known.
3. A query and a fragment go (``?v=abc123``, ``?t=…``, webpack's loader queries); Vite's
   ``/@fs`` prefix goes, leaving the absolute file path; percent-escapes are decoded.
4. A path inside ``node_modules/`` is named from the last ``node_modules/`` on
   (``/home/u/proj/node_modules/.pnpm/a@1/node_modules/a/i.js`` → ``node_modules/a/i.js``).
5. A name that would come out empty stays as the map wrote it.

Matching (`matches_path`) is by path suffix at a path boundary: ``cart.ts`` and
``src/cart.ts`` match ``src/cart.ts``; ``art.ts`` does not. The caller gets every match and
reports ambiguity itself.
"""

from __future__ import annotations

import posixpath
from urllib.parse import unquote, urlsplit

from cdpilot.browser.sourcemaps.map_urls import is_absolute_url, resolve_url

LIBRARY_DIR = "node_modules/"
VITE_FS = "/@fs/"


def display_name(source: str, url: str) -> str:
    """The project-relative name of a source as the map wrote it (`source`, sourceRoot
    applied) and as it resolved (`url`)."""
    if source and not is_absolute_url(source) and not source.startswith(("/", "\\")):
        path = _relative_path(_strip_query(source))
    else:
        path = _url_path(url or source)
    path = unquote(path)
    library = path.rfind("/" + LIBRARY_DIR)
    if library >= 0:
        path = path[library + 1 :]
    return path or source


def matches_path(name: str, query: str) -> bool:
    """Whether `query` names `name` (a display name or a URL path): equal, or a suffix that
    starts at a ``/``."""
    query = query.replace("\\", "/").removeprefix("./")
    if not query or name == query:
        return bool(query)
    if query.startswith("/"):
        return name.endswith(query) or name == query[1:]
    return name.endswith("/" + query)


def source_matches(name: str, url: str, query: str) -> bool:
    """Whether a user's `query` names the source with display `name` and `url`: the URL
    itself, or a path suffix of the display name or of the URL's path."""
    if is_absolute_url(query):
        return resolve_url("", query) == url
    if matches_path(name, query):
        return True
    path = posixpath.normpath(unquote(urlsplit(url).path)) if is_absolute_url(url) else url
    return matches_path(path, query)


def is_library(name: str, url: str) -> bool:
    """A source under ``node_modules/``: third-party code, skipped when stepping."""
    return name.startswith(LIBRARY_DIR) or "/" + LIBRARY_DIR in name or "/" + LIBRARY_DIR in url


def _strip_query(path: str) -> str:
    for mark in ("?", "#"):
        path = path.partition(mark)[0]
    return path


def _relative_path(path: str) -> str:
    path = posixpath.normpath(path.replace("\\", "/"))
    while path.startswith("../"):
        path = path[3:]
    return "" if path in (".", "..") else path


def _url_path(url: str) -> str:
    if not is_absolute_url(url):
        path = _strip_query(url).replace("\\", "/")
        return _strip_vite(path)
    parts = urlsplit(url)
    path = _strip_vite(parts.path)
    if parts.scheme == "file" or (path.startswith("/") and path != parts.path):
        return posixpath.normpath(path) if path else ""
    return _relative_path(path.lstrip("/"))


def _strip_vite(path: str) -> str:
    return "/" + path[len(VITE_FS) :] if path.startswith(VITE_FS) else path
