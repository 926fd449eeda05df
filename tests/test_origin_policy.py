"""The origin lists without a browser: parsing entries, deciding URLs, and the navigation check."""

from __future__ import annotations

import pytest

from cdpilot.browser.page.origin_policy import OriginPolicy, Refusal, origin_of
from cdpilot.browser.page.urls import normalize_url
from cdpilot.errors import ArgumentError

ALLOWED = OriginPolicy(
    allowed=["https://example.com", "http://127.0.0.1:8080", "*.corp.example", "localhost:*", "[::1]", "Bücher.de"]
)
BLOCKED = OriginPolicy(blocked=["ads.example.com", "*.tracker.example", "http://127.0.0.1:9000"])


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "https://EXAMPLE.com./path?q#f",  # as Chrome writes it: lower case, no trailing dot
        "https://example.com:443/",  # the default port, written out
        "http://127.0.0.1:8080/x",
        "http://2130706433:8080/",  # 127.0.0.1 as one number
        "http://127.1:8080/",
        "https://a.corp.example/",
        "http://a.b.corp.example/",  # any depth, any scheme, default port
        "http://localhost:1234/",
        "ws://localhost:9/",
        "http://[0:0::1]/",
        "https://xn--bcher-kva.de/",  # the punycode of the entry
        "blob:https://example.com/0b8c-uuid",
        "about:blank",
        "about:srcdoc",
        "data:text/html,<p>hi",
        "blob:null/0b8c-uuid",
        "javascript:void(0)",
        "file:///tmp/page.html",
    ],
)
def test_the_allowed_list_lets_its_origins_and_originless_urls_through(url: str) -> None:
    assert ALLOWED.refusal(url) is None


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("http://example.com/", "http://example.com"),  # the entry says https
        ("https://example.com:8443/", "https://example.com:8443"),  # and its default port
        ("wss://example.com/socket", "wss://example.com"),
        ("https://www.example.com/", "https://www.example.com"),  # not a wildcard entry
        ("https://corp.example/", "https://corp.example"),  # *.corp.example: subdomains only
        ("https://notcorp.example/", "https://notcorp.example"),
        ("http://127.0.0.1:8081/", "http://127.0.0.1:8081"),
        ("http://127.0.0.1/", "http://127.0.0.1"),
        ("http://[::1]:8000/", "http://[::1]:8000"),
        ("blob:https://evil.example/uuid", "https://evil.example"),
        ("http:\\\\example.com@evil.example/", "http://evil.example"),  # read as the browser reads it
        ("https://example.com.evil.example/", "https://example.com.evil.example"),
    ],
)
def test_the_allowed_list_refuses_everything_else(url: str, origin: str) -> None:
    assert ALLOWED.refusal(url) == Refusal(origin, "--allowed-origins", "not in --allowed-origins")


@pytest.mark.parametrize(
    ("url", "entry"),
    [
        ("https://ads.example.com/banner.js", "ads.example.com"),
        ("http://ADS.example.com:80/", "ads.example.com"),
        ("http://%61ds.example.com/", "ads.example.com"),  # percent-escapes in the host are undone
        ("https://x.tracker.example/pixel.gif", "*.tracker.example"),
        ("http://127.0.0.1:9000/", "http://127.0.0.1:9000"),
        ("http://0x7f.0.0.1:9000/", "http://127.0.0.1:9000"),
        ("blob:http://127.0.0.1:9000/uuid", "http://127.0.0.1:9000"),
    ],
)
def test_the_blocked_list_names_the_entry_that_matched(url: str, entry: str) -> None:
    refusal = BLOCKED.refusal(url)
    assert refusal is not None
    assert (refusal.flag, refusal.reason) == ("--blocked-origins", f"blocked by --blocked-origins {entry}")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "https://ads.example.com:8443/",  # the entry means the default ports
        "https://tracker.example/",  # *. covers subdomains, not the domain itself
        "http://127.0.0.1:9001/",
        "data:text/html,<p>hi",
    ],
)
def test_the_blocked_list_alone_lets_everything_else_through(url: str) -> None:
    assert BLOCKED.refusal(url) is None


def test_blocked_wins_over_allowed() -> None:
    both = OriginPolicy(allowed=["*.example.com"], blocked=["ads.example.com"])
    assert both.refusal("https://www.example.com/") is None
    assert both.refusal("https://ads.example.com/") == Refusal(
        "https://ads.example.com", "--blocked-origins", "blocked by --blocked-origins ads.example.com"
    )


def test_a_network_url_whose_origin_cannot_be_read_is_refused() -> None:
    refusal = BLOCKED.refusal("http://example.com:99999/")
    assert refusal == Refusal(
        "http://example.com:99999/",
        "--blocked-origins",
        "not a readable origin, so --blocked-origins cannot be checked",
    )


def test_no_entries_refuse_nothing_and_enforce_nothing() -> None:
    policy = OriginPolicy()
    assert not policy.enforced
    assert policy.refusal("http://anything.example:1/") is None
    assert policy.refusal("http://example.com:99999/") is None
    assert ALLOWED.enforced and BLOCKED.enforced


def test_a_refusal_reads_as_a_sentence() -> None:
    assert BLOCKED.refusal("https://ads.example.com/x") == Refusal(
        "https://ads.example.com", "--blocked-origins", "blocked by --blocked-origins ads.example.com"
    )
    refusal = ALLOWED.refusal("http://evil.example:8000/")
    assert refusal is not None and refusal.statement == "http://evil.example:8000 is not in --allowed-origins"


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("", r"'' is not an origin \(scheme://host:port, no path\)"),
        ("https://example.com/path", r"'https://example.com/path' is not an origin \(scheme://host:port, no path\)"),
        ("user@example.com", r"'user@example.com' is not an origin \("),
        ("ftp://example.com", "'ftp://example.com' is not an origin the lists can enforce: the scheme must be http or"),
        ("wss://example.com", "'wss://example.com' is not an origin the lists can enforce: the scheme must be http or"),
        ("example.com:0", "'example.com:0' is not an origin: the port must be 1 to 65535"),
        ("example.com:70000", "'example.com:70000' is not an origin: the port must be 1 to 65535"),
        ("*", r"'\*' is not an origin: '\*' is not a host name"),
        ("foo.*.com", "'foo.*.com' is not an origin: 'foo.*.com' is not a host name"),
        ("a..b", "'a..b' is not an origin"),
        ("[zz]", r"'\[zz\]' is not an origin"),
        ("exa mple.com", "'exa mple.com' is not an origin: 'exa mple.com' is not a host name"),
    ],
)
def test_a_bad_entry_is_a_value_error_naming_it(entry: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        OriginPolicy(allowed=["example.com", entry])
    with pytest.raises(ValueError, match=why):
        OriginPolicy(blocked=[entry])


def test_entries_are_read_leniently_where_that_is_unambiguous() -> None:
    policy = OriginPolicy(allowed=["  HTTPS://Example.COM/ ", "LOCALHOST:8080"])
    assert [(r.scheme, r.host, r.port) for r in policy.allowed] == [
        ("https", "example.com", None),
        (None, "localhost", 8080),
    ]
    assert policy.refusal("https://example.com/") is None
    assert policy.refusal("ws://localhost:8080/") is None


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://example.com/a", "https://example.com"),
        ("http://example.com:80/", "http://example.com"),
        ("http://example.com:8080/", "http://example.com:8080"),
        ("http://[::1]:3000/", "http://[::1]:3000"),
        ("filesystem:https://example.com/temporary/x", "https://example.com"),
    ],
)
def test_origin_of_network_urls(url: str, origin: str) -> None:
    assert str(origin_of(url)) == origin


@pytest.mark.parametrize(
    "url", ["about:blank", "data:,x", "javascript:1", "file:///x", "chrome://settings", "blob:null/1"]
)
def test_urls_without_a_network_origin_have_none(url: str) -> None:
    assert origin_of(url) is None


def test_navigation_to_a_refused_origin_is_a_validation_error_naming_origin_and_rule() -> None:
    with pytest.raises(ArgumentError) as caught:
        normalize_url("ads.example.com/x", allow_file_urls=False, origins=BLOCKED)
    assert caught.value.message == (
        "Refused to navigate: http://ads.example.com is blocked by --blocked-origins ads.example.com.\n"
        "- url: expected a URL on an origin that --blocked-origins lets through, got http://ads.example.com"
    )
    assert "--allowed-origins, --blocked-origins" in caught.value.suggestion
    with pytest.raises(ArgumentError, match=r"Refused to navigate: https://other.example is not in --allowed-origins"):
        normalize_url("https://other.example/", allow_file_urls=False, origins=ALLOWED)


def test_navigation_to_an_allowed_origin_is_unchanged() -> None:
    assert normalize_url("example.com", allow_file_urls=False, origins=BLOCKED) == "http://example.com"
    assert normalize_url("about:blank", allow_file_urls=False, origins=ALLOWED) == "about:blank"
    assert normalize_url("data:text/html,hi", allow_file_urls=False, origins=ALLOWED) == "data:text/html,hi"
