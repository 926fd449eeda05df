"""The emulate tool's checks and how one call's settings combine with what a tab emulates, without a browser."""

from __future__ import annotations

import pytest

from cdpilot.browser.emulation.emulation_facts import EmulationState, NetworkThrottle
from cdpilot.browser.emulation.emulation_presets import (
    NETWORK_PRESETS,
    check_clear_alone,
    device_preset,
    emulation_change,
)
from cdpilot.browser.emulation.page_emulation import combined_state
from cdpilot.errors import ArgumentError


@pytest.mark.parametrize("name", ["iPhone 15", "iphone_15", "IPHONE-15", " iphone15 "])
def test_a_device_is_found_however_it_is_spelt(name: str) -> None:
    assert device_preset(name).name == "iPhone 15"


@pytest.mark.parametrize("tag", ["en", "fr-FR", "pt-BR", "es-419", "zh-Hant-TW", "yue-HK", "de-CH"])
def test_real_locales_are_taken(tag: str) -> None:
    assert emulation_change(locale=tag).locale == tag


@pytest.mark.parametrize("tag", ["xx", "fr_FR", "english", "FR-fr", "en-", "zz-Latn-US"])
def test_other_locales_are_refused(tag: str) -> None:
    with pytest.raises(ArgumentError, match="- locale: expected a language tag"):
        emulation_change(locale=tag)


def test_every_problem_is_said_at_once() -> None:
    with pytest.raises(ArgumentError) as raised:
        emulation_change(device="Nokia", timezone="Europe/Atlantis", longitude=200, user_agent=" ")
    fields = [problem.field for problem in raised.value.problems]
    assert fields == ["longitude", "user_agent", "latitude/longitude", "device", "timezone"]


def test_clear_takes_nothing_beside_it() -> None:
    check_clear_alone(True, {"device": None})
    check_clear_alone(False, {"device": "iPad"})
    with pytest.raises(ArgumentError, match="- clear: expected no other setting with it, got device, locale"):
        check_clear_alone(True, {"device": "iPad", "locale": "fr", "timezone": None})


def test_custom_figures_go_over_the_preset_and_keep_its_name_only_when_unchanged() -> None:
    state = combined_state(EmulationState(), emulation_change(network="fast_4g", latency_ms=165))
    assert state.network == NETWORK_PRESETS["fast_4g"]
    state = combined_state(state, emulation_change(upload_kbps=100))
    assert state.network == NetworkThrottle(latency_ms=165, download_kbps=8100, upload_kbps=100)
    offline = combined_state(EmulationState(), emulation_change(network="offline"))
    assert combined_state(offline, emulation_change(latency_ms=50)).network == NetworkThrottle(latency_ms=50)
    assert not combined_state(state, emulation_change(network="none")).network.active


def test_a_device_brings_its_agent_unless_one_is_given() -> None:
    state = combined_state(EmulationState(), emulation_change(device="Pixel 7", user_agent="Mine/1"))
    assert (state.viewport and state.viewport.device, state.touch, state.user_agent) == ("Pixel 7", True, "Mine/1")
    desktop = combined_state(state, emulation_change(device="Desktop"))
    assert not desktop.touch and "Windows" in (desktop.user_agent or "")
