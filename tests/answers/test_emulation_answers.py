"""The emulate tool's answer, on hand-built emulation facts."""

from __future__ import annotations

from cdpilot.answers.emulation_answers import emulation_answer, network_text
from cdpilot.browser.emulation.emulation_facts import (
    EmulationReport,
    EmulationState,
    Geolocation,
    MediaEmulation,
    NetworkThrottle,
    Viewport,
)
from cdpilot.browser.emulation.emulation_presets import NETWORK_PRESETS

URL = "http://127.0.0.1:8000/"


def test_nothing_emulated() -> None:
    assert emulation_answer(EmulationReport(URL, EmulationState())) == (
        "Nothing is emulated on this tab (http://127.0.0.1:8000/): it has the browser's own network, CPU, "
        "place, viewport, user agent, locale and timezone."
    )


def test_cleared_on_a_blank_tab() -> None:
    assert emulation_answer(EmulationReport("", EmulationState(), cleared=True)) == (
        "Emulation cleared on this tab (about:blank): it has the browser's own network, CPU, place, "
        "viewport, user agent, locale and timezone again."
    )


def test_every_override_in_order() -> None:
    state = EmulationState(
        network=NETWORK_PRESETS["slow_4g"],
        cpu_rate=4,
        geolocation=Geolocation(48.8584, 2.2945, 100, ("http://127.0.0.1:8000", "http://localhost:8001")),
        viewport=Viewport(393, 852, 3, True, "iPhone 15"),
        touch=True,
        user_agent="Agent/1.0",
        locale="fr-FR",
        timezone="Europe/Paris",
        media=MediaEmulation("print", "dark", None),
    )
    assert emulation_answer(EmulationReport(URL, state, needs_reload=("touch events",))) == (
        "Emulating on this tab (http://127.0.0.1:8000/), kept across navigations and reloads:\n"
        "- network: slow_4g (562.5 ms latency, 1,440 kbit/s down, 675 kbit/s up)\n"
        "- CPU: 4× slower\n"
        "- place: 48.8584, 2.2945 (±100 m); geolocation allowed for http://127.0.0.1:8000, http://localhost:8001\n"
        "- viewport: 393×852, pixel ratio 3, mobile (iPhone 15)\n"
        "- touch: on\n"
        "- user agent: Agent/1.0\n"
        "- locale: fr-FR\n"
        "- timezone: Europe/Paris\n"
        "- media: type print, prefers-color-scheme dark\n"
        "The page shows the change of touch events once it loads again ({tool:reload})."
    )


def test_a_place_on_a_blank_tab_is_allowed_where_the_tab_goes() -> None:
    state = EmulationState(geolocation=Geolocation(-33.8568, 151.2153, 12.5))
    assert emulation_answer(EmulationReport("", state)).endswith(
        "- place: -33.8568, 151.215 (±12.5 m); geolocation allowed for each site this tab loads"
    )


def test_network_figures() -> None:
    assert network_text(NETWORK_PRESETS["offline"]) == "offline"
    assert network_text(NetworkThrottle(latency_ms=300)) == "300 ms latency, no download limit, no upload limit"
    custom = NetworkThrottle(latency_ms=0, download_kbps=12500.5, upload_kbps=None)
    assert network_text(custom) == "0 ms latency, 12,500.5 kbit/s down, no upload limit"


def test_a_desktop_viewport_of_the_page_tool_and_a_long_user_agent() -> None:
    state = EmulationState(viewport=Viewport(500, 400, 1, False), user_agent="A" * 500)
    lines = emulation_answer(EmulationReport(URL, state)).splitlines()
    assert lines[1] == "- viewport: 500×400, pixel ratio 1, desktop"
    assert lines[2] == "- user agent: " + "A" * 387 + "…[+113 chars]"
