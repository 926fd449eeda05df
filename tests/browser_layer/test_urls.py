"""The navigation URL policy, without a browser."""

from __future__ import annotations

import pytest

from cdpilot.browser.page.urls import normalize_url
from cdpilot.errors import ArgumentError


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://127.0.0.1:8000/a?b=c#d", "http://127.0.0.1:8000/a?b=c#d"),
        ("HTTPS://Example.com/", "HTTPS://Example.com/"),
        ("  http://localhost/x \n", "http://localhost/x"),
        ("example.com", "http://example.com"),
        ("127.0.0.1:8000/x", "http://127.0.0.1:8000/x"),
        ("localhost:3000", "http://localhost:3000"),
        ("//cdn.example/x.js", "http://cdn.example/x.js"),
        ("about:blank", "about:blank"),
        ("About:Blank#top", "About:Blank#top"),
        ("data:text/html,<p>hi", "data:text/html,<p>hi"),
        ("http://example.com/?next=javascript:alert(1)", "http://example.com/?next=javascript:alert(1)"),
    ],
)
def test_accepted_urls(given: str, expected: str) -> None:
    assert normalize_url(given, allow_file_urls=False) == expected


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("javascript:alert(1)", "javascript: URLs are not allowed"),
        ("JaVaScRiPt:alert(1)", "javascript: URLs are not allowed"),
        ("\x00 javascript:alert(1)", "javascript: URLs are not allowed"),
        ("java\tscr\nipt:alert(1)", "javascript: URLs are not allowed"),
        ("\u200bjavascript:alert(1)", "javascript: URLs are not allowed"),
        ("javascript:1", "javascript: URLs are not allowed"),  # not a host:port
        ("%6Aavascript:alert(1)", "the URL hides a javascript: scheme"),
        ("javascript&colon;alert(1)", "the URL hides a javascript: scheme"),
        ("&#x6A;avascript:alert(1)", "the URL hides a javascript: scheme"),
        ("%2526%2523106%253Bavascript:x", "the URL hides a javascript: scheme"),
        ("vbscript:msgbox", "vbscript: URLs are not allowed"),
        ("chrome://settings", "chrome: URLs are not allowed"),
        ("chrome-extension://abc/page.html", "chrome-extension: URLs are not allowed"),
        ("devtools://devtools/bundled/inspector.html", "devtools: URLs are not allowed"),
        ("view-source:http://example.com", "view-source: URLs are not allowed"),
        ("about:settings", "about: pages other than about:blank are not allowed"),
        ("file:///etc/passwd", "file: URLs are not enabled"),
        ("FILE:///etc/passwd", "file: URLs are not enabled"),
        ("ftp://example.com", "ftp: URLs are not allowed"),
        ("", "the URL is empty"),
        (" \t ", "the URL is empty"),
    ],
)
def test_refused_urls_name_the_url_field(given: str, reason: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        normalize_url(given, allow_file_urls=False)
    assert caught.value.message.startswith(f"Refused to navigate: {reason}.")
    [problem] = caught.value.problems
    assert problem.field == "url"
    assert not given.strip() or given.strip() not in problem.given  # the value itself is not echoed


def test_file_urls_are_accepted_only_when_allowed() -> None:
    assert normalize_url("file:///tmp/page.html", allow_file_urls=True) == "file:///tmp/page.html"
    with pytest.raises(ArgumentError, match="javascript"):
        normalize_url("javascript:alert(1)", allow_file_urls=True)
