"""The loopback-only connect policy and endpoint validation, without a browser."""

from __future__ import annotations

import pytest

from cdpilot.browser.session.endpoints import check_host_and_port, check_websocket_url, is_loopback
from cdpilot.errors import ArgumentError


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("0.0.0.0", False),
        ("10.0.0.1", False),
        ("192.0.2.10", False),
        ("example.com", False),
        ("localhost.example.com", False),
        ("127.0.0.1.nip.io", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_remote_hosts_pass_only_with_allow_remote() -> None:
    with pytest.raises(ArgumentError) as caught:
        check_host_and_port("10.0.0.5", 9222, allow_remote=False)
    assert caught.value.message.startswith("Refusing to connect to 10.0.0.5")
    assert [p.field for p in caught.value.problems] == ["host"]
    check_host_and_port("10.0.0.5", 9222, allow_remote=True)
    assert check_websocket_url("wss://10.0.0.5/devtools/browser/x", allow_remote=True).startswith("wss://")


@pytest.mark.parametrize(
    ("host", "port", "field"), [("", 9222, "host"), ("127.0.0.1", 0, "port"), ("::1", 70000, "port")]
)
def test_invalid_host_or_port(host: str, port: int, field: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        check_host_and_port(host, port, allow_remote=False)
    assert [p.field for p in caught.value.problems] == [field]


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9222/json", "127.0.0.1:9222", "ws://", "ws://127.0.0.1:99999/x", "ws://127.0.0.1:x/"]
)
def test_malformed_websocket_urls(url: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        check_websocket_url(url, allow_remote=False)
    assert [p.field for p in caught.value.problems] == ["ws_url"]


def test_a_remote_websocket_url_is_refused_by_default() -> None:
    with pytest.raises(ArgumentError, match=r"Refusing to connect to 192\.0\.2\.1"):
        check_websocket_url("ws://192.0.2.1:9222/devtools/browser/x", allow_remote=False)
    assert check_websocket_url(" ws://[::1]:9222/devtools/browser/x ", allow_remote=False) == (
        "ws://[::1]:9222/devtools/browser/x"
    )
