"""What a tab emulates, as the emulate tool answers: one line per override that is on.

The same answer serves a change, a clear and a plain look (no settings), so an agent always
sees the whole of what the page now runs under, not only what the call changed.
"""

from __future__ import annotations

from cdpilot.browser.emulation.emulation_facts import EmulationReport, EmulationState, NetworkThrottle
from cdpilot.text import clip

MAX_USER_AGENT_CHARS = 400  # a user agent is one line; a longer one is cut, marked
OWN_SETTINGS = "network, CPU, place, viewport, user agent, locale and timezone"


def emulation_answer(report: EmulationReport) -> str:
    where = f"this tab ({report.url or 'about:blank'})"
    if not report.state.active:
        if report.cleared:
            head = f"Emulation cleared on {where}: it has the browser's own {OWN_SETTINGS} again."
        else:
            head = f"Nothing is emulated on {where}: it has the browser's own {OWN_SETTINGS}."
        lines = [head]
    else:
        lines = [f"Emulating on {where}, kept across navigations and reloads:", *state_lines(report.state)]
    if report.needs_reload:
        kept = " and ".join(report.needs_reload)
        lines.append(f"The page shows the change of {kept} once it loads again ({{tool:reload}}).")
    return "\n".join(lines)


def state_lines(state: EmulationState) -> list[str]:
    """One ``- name: value`` line per override that is on, in a fixed order."""
    lines = []
    if state.network.active:
        lines.append(f"- network: {network_text(state.network)}")
    if state.cpu_rate != 1:
        lines.append(f"- CPU: {state.cpu_rate:g}× slower")
    if state.geolocation is not None:
        place = state.geolocation
        allowed = ", ".join(place.granted_to) if place.granted_to else "each site this tab loads"
        lines.append(
            f"- place: {place.latitude:g}, {place.longitude:g} (±{place.accuracy_m:g} m); "
            f"geolocation allowed for {allowed}"
        )
    if state.viewport is not None:
        view = state.viewport
        kind = "mobile" if view.mobile else "desktop"
        device = f" ({view.device})" if view.device else ""
        lines.append(
            f"- viewport: {view.width}×{view.height}, pixel ratio {view.device_scale_factor:g}, {kind}{device}"
        )
    if state.touch:
        lines.append("- touch: on")
    if state.user_agent is not None:
        lines.append(f"- user agent: {clip(state.user_agent, MAX_USER_AGENT_CHARS)}")
    if state.locale is not None:
        lines.append(f"- locale: {state.locale}")
    if state.timezone is not None:
        lines.append(f"- timezone: {state.timezone}")
    if state.media is not None:
        media = state.media
        shown = (
            ("type", media.media),
            ("prefers-color-scheme", media.color_scheme),
            ("prefers-reduced-motion", media.reduced_motion),
        )
        lines.append("- media: " + ", ".join(f"{name} {value}" for name, value in shown if value))
    return lines


def network_text(network: NetworkThrottle) -> str:
    """``offline``; ``slow_4g (562.5 ms latency, 1,440 kbit/s down, 675 kbit/s up)``; or custom figures."""
    if network.offline:
        return "offline"
    figures = ", ".join(
        (
            f"{network.latency_ms:,g} ms latency",
            "no download limit" if network.download_kbps is None else f"{network.download_kbps:,g} kbit/s down",
            "no upload limit" if network.upload_kbps is None else f"{network.upload_kbps:,g} kbit/s up",
        )
    )
    return f"{network.preset} ({figures})" if network.preset else figures
