"""A tiny HTTP server on 127.0.0.1 for browser tests: fixed pages, plus one that never answers.

Pages are ``path -> (status, content_type, body)``, optionally with a fourth item of extra
headers (e.g. ``{"Location": "/"}`` for a redirect). ``HANG_PATH`` keeps the request open
until the server shuts down, so timeout tests need no delay of a chosen length.
``ECHO_HEADERS_PATH`` answers with the request's headers as JSON (names lower-cased), so a
test can see what the browser really sent.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PageSpec = tuple[int, str, bytes] | tuple[int, str, bytes, Mapping[str, str]]

HANG_PATH = "/hang"
ECHO_HEADERS_PATH = "/echo-headers"
NOT_FOUND: PageSpec = (404, "text/plain", b"not found")
# Browsers fetch /favicon.ico on their own after a load; its 404 would land in the console
# at an unpredictable moment and make console assertions racy.
FALLBACK: dict[str, PageSpec] = {"/favicon.ico": (204, "image/x-icon", b"")}
HANG_LIMIT_S = 60.0  # a hung request is released at shutdown, or after this as a safety net


class _PageServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pages: Mapping[str, PageSpec]) -> None:
        super().__init__(("127.0.0.1", 0), _PageHandler)
        self.pages = dict(pages)
        self.release_hung = threading.Event()


class _PageHandler(BaseHTTPRequestHandler):
    server: _PageServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == HANG_PATH and path not in self.server.pages:
            self.server.release_hung.wait(HANG_LIMIT_S)
            self.close_connection = True
            return
        echo = json.dumps({name.lower(): value for name, value in self.headers.items()}).encode()
        fallback = (200, "application/json", echo) if path == ECHO_HEADERS_PATH else FALLBACK.get(path, NOT_FOUND)
        status, content_type, body, *extra = self.server.pages.get(path, fallback)
        self.send_response(status)
        for name, value in (extra[0] if extra else {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """Same pages for POST; the request body is read and ignored."""
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.do_GET()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is for the tests."""


def directory_pages(root: Path) -> dict[str, PageSpec]:
    """Every file under `root` as a page at its path from `root`, and `/` as `/index.html`: a
    static site (read once, so the server never touches the disk)."""
    pages: dict[str, PageSpec] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if content_type.startswith("text/"):
            content_type += "; charset=utf-8"
        pages["/" + path.relative_to(root).as_posix()] = (200, content_type, path.read_bytes())
    if "/index.html" in pages:
        pages["/"] = pages["/index.html"]
    return pages


@contextmanager
def serve_pages(pages: Mapping[str, PageSpec]) -> Iterator[str]:
    """Serve `pages` on an ephemeral port of 127.0.0.1; yields the base URL (no trailing slash)."""
    server = _PageServer(pages)
    thread = threading.Thread(target=server.serve_forever, name="test-pages", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.release_hung.set()
        server.shutdown()
        server.server_close()
        thread.join()
