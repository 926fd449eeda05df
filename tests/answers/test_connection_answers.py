"""The connection tools' answers, on hand-built connection facts."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.connection_answers import (
    connected_answer,
    connection_line,
    connections_answer,
    disconnected_answer,
    launched_answer,
    switched_answer,
)
from cdpilot.browser.session.connection_facts import ConnectionInfo

LAUNCHED = ConnectionInfo(
    id="browser-1",
    kind="launched",
    browser="Chrome/126.0.6478.126",
    protocol_version="1.3",
    endpoint="pipe",
    pid=4242,
    user_data_dir="/tmp/cdpilot-profile-x",
    active=True,
    target_url="http://127.0.0.1:8000/",
    target_title="Home",
)
CONNECTED = ConnectionInfo(
    id="ext",
    kind="connected",
    browser="Chrome/126.0.6478.126",
    protocol_version="1.3",
    endpoint="ws://127.0.0.1:9222/devtools/browser/abc",
    pid=None,
    user_data_dir=None,
    active=False,
    target_url="about:blank",
    target_title="",
)


def test_a_launched_connection_shows_its_pid_and_page() -> None:
    assert connection_line(LAUNCHED) == (
        'browser-1 [active] launched Chrome/126.0.6478.126 pid=4242\n  page: "Home" http://127.0.0.1:8000/'
    )


def test_a_connected_connection_shows_its_endpoint_and_a_page_without_title() -> None:
    assert connection_line(CONNECTED) == (
        "ext connected Chrome/126.0.6478.126 endpoint=ws://127.0.0.1:9222/devtools/browser/abc\n  page: about:blank"
    )


def test_a_connection_without_a_page_is_one_line() -> None:
    assert connection_line(replace(LAUNCHED, target_url=None, target_title=None)) == (
        "browser-1 [active] launched Chrome/126.0.6478.126 pid=4242"
    )


def test_launch_and_connect_name_the_connection_now_active() -> None:
    assert launched_answer(LAUNCHED) == (
        "Launched Chrome/126.0.6478.126 as connection 'browser-1' (now active).\n"
        'browser-1 [active] launched Chrome/126.0.6478.126 pid=4242\n  page: "Home" http://127.0.0.1:8000/'
    )
    active = replace(CONNECTED, active=True)
    assert connected_answer(active) == (
        "Connected to Chrome/126.0.6478.126 as connection 'ext' (now active).\n"
        "ext [active] connected Chrome/126.0.6478.126 endpoint=ws://127.0.0.1:9222/devtools/browser/abc\n"
        "  page: about:blank"
    )


def test_an_empty_list_says_how_to_get_a_connection() -> None:
    assert connections_answer([]) == "No connections. Launch a browser or connect to a running one."


def test_a_list_counts_and_shows_every_connection() -> None:
    assert connections_answer([LAUNCHED, CONNECTED]) == (
        "2 connection(s):\n"
        'browser-1 [active] launched Chrome/126.0.6478.126 pid=4242\n  page: "Home" http://127.0.0.1:8000/\n'
        "ext connected Chrome/126.0.6478.126 endpoint=ws://127.0.0.1:9222/devtools/browser/abc\n  page: about:blank"
    )


def test_switch_names_the_new_active_connection() -> None:
    assert switched_answer(replace(CONNECTED, active=True)) == (
        "Active connection is now 'ext'.\n"
        "ext [active] connected Chrome/126.0.6478.126 endpoint=ws://127.0.0.1:9222/devtools/browser/abc\n"
        "  page: about:blank"
    )


def test_disconnect_says_what_happened_to_the_browser_and_what_is_active() -> None:
    assert disconnected_answer(LAUNCHED, "ext") == (
        "Disconnected 'browser-1' (closed the browser and removed its temp profile). Active connection: 'ext'."
    )
    assert disconnected_answer(CONNECTED, None) == "Disconnected 'ext' (detached). No connections left."
