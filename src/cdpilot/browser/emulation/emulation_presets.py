"""The named things the emulate tool offers (network presets, devices) and the checks of what it
is asked, all made before any browser is involved.

The network presets are Chrome DevTools' own figures (its throttling menu), so a result compares
with what a developer sees there; ``fast_3g`` is the name DevTools used for ``slow_4g`` until
2024. A timezone must be one of the IANA names the system's zoneinfo holds, and a locale's
language one the C library's locale table knows: Chrome refuses an unknown timezone only once a
browser is running, and takes any well-formed locale (``xx-YY``) without a word, which would
leave a page running in a language nobody speaks.
"""

from __future__ import annotations

import locale
import math
import re
import zoneinfo
from collections.abc import Callable, Mapping
from functools import cache
from typing import TypeVar

from cdpilot.browser.emulation.emulation_facts import DevicePreset, EmulationChange, Geolocation, NetworkThrottle
from cdpilot.errors import ArgumentError, FieldProblem

NETWORK_PRESETS: dict[str, NetworkThrottle] = {
    "offline": NetworkThrottle(offline=True, preset="offline"),
    "slow_3g": NetworkThrottle(latency_ms=2000, download_kbps=400, upload_kbps=400, preset="slow_3g"),
    "fast_3g": NetworkThrottle(latency_ms=562.5, download_kbps=1440, upload_kbps=675, preset="fast_3g"),
    "slow_4g": NetworkThrottle(latency_ms=562.5, download_kbps=1440, upload_kbps=675, preset="slow_4g"),
    "fast_4g": NetworkThrottle(latency_ms=165, download_kbps=8100, upload_kbps=1350, preset="fast_4g"),
    "none": NetworkThrottle(),
}
_SAFARI_IOS = "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
_CHROME = "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0"
DEVICES: tuple[DevicePreset, ...] = (
    DevicePreset(
        "iPhone 15", 393, 852, 3, True, True, f"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) {_SAFARI_IOS}"
    ),
    DevicePreset(
        "iPhone SE", 375, 667, 2, True, True, f"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) {_SAFARI_IOS}"
    ),
    DevicePreset(
        "Pixel 7",
        412,
        915,
        2.625,
        True,
        True,
        f"Mozilla/5.0 (Linux; Android 14; Pixel 7) {_CHROME} Mobile Safari/537.36",
    ),
    DevicePreset("iPad", 820, 1180, 2, True, True, f"Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) {_SAFARI_IOS}"),
    DevicePreset(
        "Desktop", 1920, 1080, 1, False, False, f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) {_CHROME} Safari/537.36"
    ),
)
DEFAULT_ACCURACY_M = 100.0
MAX_LATENCY_MS = 60_000
MAX_CPU_RATE = 20
T = TypeVar("T")
_LOCALE = re.compile(r"^(?P<language>[a-z]{2,3})(?:-(?P<script>[A-Z][a-z]{3}))?(?:-(?P<region>[A-Z]{2}|[0-9]{3}))?$")


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def _languages() -> frozenset[str]:
    """The language codes of the C library's locale table (``en``, ``fr``, ``yue`` …)."""
    return frozenset(m[1] for name in locale.locale_alias if (m := re.match(r"^([a-z]{2,3})(?:[_.@]|$)", name)))


@cache
def _timezones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def device_preset(name: str) -> DevicePreset:
    """The device of that name, spelt in any case, with or without spaces (``iphone_15``)."""
    for device in DEVICES:
        if _key(device.name) == _key(name):
            return device
    known = ", ".join(device.name for device in DEVICES)
    raise ArgumentError("Unknown device.", problems=[FieldProblem("device", f"one of: {known}", repr(name))])


def network_preset(name: str) -> NetworkThrottle:
    preset = NETWORK_PRESETS.get(name.lower())
    if preset is None:
        known = ", ".join(NETWORK_PRESETS)
        raise ArgumentError(
            "Unknown network preset.", problems=[FieldProblem("network", f"one of: {known}", repr(name))]
        )
    return preset


def check_timezone(name: str) -> str:
    if name not in _timezones():
        raise ArgumentError(
            "Unknown timezone.",
            problems=[
                FieldProblem("timezone", "an IANA timezone name such as Europe/Paris or America/New_York", repr(name))
            ],
        )
    return name


def check_locale(tag: str) -> str:
    """A BCP 47 tag of language, optional script and optional region (``fr``, ``pt-BR``, ``zh-Hant-TW``)."""
    match = _LOCALE.match(tag)
    if match is None or match["language"] not in _languages():
        raise ArgumentError(
            "Unknown locale.",
            problems=[FieldProblem("locale", "a language tag such as en-US, fr, de-CH or zh-Hant-TW", repr(tag))],
        )
    return tag


def emulation_change(
    *,
    network: str | None = None,
    latency_ms: float | None = None,
    download_kbps: float | None = None,
    upload_kbps: float | None = None,
    cpu_rate: float | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
    accuracy: float | None = None,
    device: str | None = None,
    user_agent: str | None = None,
    locale: str | None = None,
    timezone: str | None = None,
) -> EmulationChange:
    """The checked change, or a VALIDATION error naming every offending parameter."""
    problems = [
        FieldProblem(name, expected, repr(value))
        for name, value, low, high, expected in (
            ("latency_ms", latency_ms, 0, MAX_LATENCY_MS, f"0 to {MAX_LATENCY_MS} ms"),
            ("download_kbps", download_kbps, 0.001, math.inf, "more than 0 kbit/s"),
            ("upload_kbps", upload_kbps, 0.001, math.inf, "more than 0 kbit/s"),
            ("cpu_rate", cpu_rate, 1, MAX_CPU_RATE, f"1 (no slowdown) to {MAX_CPU_RATE}"),
            ("latitude", latitude, -90, 90, "-90 to 90 degrees"),
            ("longitude", longitude, -180, 180, "-180 to 180 degrees"),
            ("accuracy", accuracy, 0, math.inf, "0 m or more"),
        )
        if value is not None and not low <= value <= high
    ]
    if user_agent is not None and not user_agent.strip():
        problems.append(FieldProblem("user_agent", "a user agent string", "an empty one"))
    preset = _collect(problems, network_preset, network)
    custom = [
        name
        for name, value in (("latency_ms", latency_ms), ("download_kbps", download_kbps), ("upload_kbps", upload_kbps))
        if value is not None
    ]
    if preset is not None and preset.preset in ("offline", None) and custom:
        problems.append(FieldProblem(custom[0], f"no figure with the {network!r} network", "a figure"))
    if (latitude is None) != (longitude is None) or (accuracy is not None and latitude is None):
        given = ", ".join(
            n for n, v in (("latitude", latitude), ("longitude", longitude), ("accuracy", accuracy)) if v is not None
        )
        problems.append(FieldProblem("latitude/longitude", "both, for a place", f"only {given}"))
    place = None
    if latitude is not None and longitude is not None:
        place = Geolocation(latitude, longitude, DEFAULT_ACCURACY_M if accuracy is None else accuracy)
    change = EmulationChange(
        network=preset,
        latency_ms=latency_ms,
        download_kbps=download_kbps,
        upload_kbps=upload_kbps,
        cpu_rate=cpu_rate,
        geolocation=place,
        device=_collect(problems, device_preset, device),
        user_agent=user_agent,
        locale=_collect(problems, check_locale, locale),
        timezone=_collect(problems, check_timezone, timezone),
    )
    if problems:
        raise ArgumentError("Nothing was emulated: some settings are not valid.", problems=problems)
    return change


def _collect(problems: list[FieldProblem], check: Callable[[str], T], value: str | None) -> T | None:
    """`check(value)`, with its problems added to `problems` instead of raised (so all are said at once)."""
    if value is None:
        return None
    try:
        return check(value)
    except ArgumentError as error:
        problems.extend(error.problems)
        return None


def check_clear_alone(clear: bool, settings: Mapping[str, object]) -> None:
    """``clear`` turns everything off, so a setting beside it could only be a mistake."""
    given = [name for name, value in settings.items() if value is not None]
    if clear and given:
        raise ArgumentError(
            "clear turns every override off; it takes no setting beside it.",
            problems=[FieldProblem("clear", "no other setting with it", ", ".join(given))],
            suggestion="Call it with clear alone, then again with the settings wanted.",
        )
