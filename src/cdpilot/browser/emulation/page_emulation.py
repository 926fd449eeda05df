"""Emulation on a tab: network throttling, CPU slowdown, a place, a device, a user agent, a
language and a timezone, and the viewport and media overrides of the page tools, in one record
per tab (`TabEmulations`).

Why one record: Chrome keeps each override only as long as the DevTools session that set it,
so switching to another tab (which lets go of this one's session) would drop them silently.
The record puts them back whenever cdpilot attaches to the tab again; within a session they
hold across navigations and reloads by themselves. A call applies only what differs from the
record, so setting a timezone does not reset the viewport.

A place comes with the geolocation permission, granted to the tab's origin, and to each origin
the tab loads while the place is emulated: granted when the document is requested, before any
of its scripts can ask. Clearing the place takes back every grant cdpilot made (CDP can only
reset them all) and grants again what other tabs still emulate.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Any, Protocol
from urllib.parse import urlsplit

from cdpilot.browser.emulation.emulation_facts import (
    EmulationChange,
    EmulationReport,
    EmulationState,
    Geolocation,
    MediaEmulation,
    NetworkThrottle,
    Viewport,
)
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpConnection, CdpEvent, CdpSession, Subscriptions
from cdpilot.errors import CdpilotError

MAX_TOUCH_POINTS = 5
MEDIA_FEATURES = ("prefers-color-scheme", "prefers-reduced-motion")


class TabEmulations:
    """The emulation record of each tab of one browser (or of one browser context), by target id."""

    def __init__(self, browser_context_id: str | None = None) -> None:
        """`browser_context_id`: the context whose permissions a place grants (None: the browser's default)."""
        self._scope = {} if browser_context_id is None else {"browserContextId": browser_context_id}
        self._states: dict[str, EmulationState] = {}
        self._subscriptions = Subscriptions()
        self._grants: set[asyncio.Task[None]] = set()

    def state(self, target_id: str | None) -> EmulationState:
        return self._states.get(target_id or "", EmulationState())

    async def attach(self, cdp: CdpConnection, session: CdpSession) -> None:
        """Follow a tab that became current, and put its overrides back if it had any."""
        handler = lambda event: self._on_request(cdp, session, event)  # noqa: E731
        self._subscriptions.replace(session, {"Network.requestWillBeSent": handler})
        state = self.state(session.target_id)
        if state.active:
            await _apply(session, EmulationState(), state)

    def forget(self, target_id: str) -> None:
        self._states.pop(target_id, None)

    async def update(self, cdp: CdpConnection, session: CdpSession, new: EmulationState, url: str | None) -> None:
        """Make `new` the tab's overrides: apply what differs, grant or take back the permission."""
        target = session.target_id or ""
        old = self.state(target)
        origin = _origin(url)
        if new.geolocation is not None and origin is not None and origin not in new.geolocation.granted_to:
            await _grant(cdp, origin, self._scope)
            new = replace(new, geolocation=_granted(new.geolocation, origin))
        await _apply(session, old, new)
        self._states[target] = new
        if old.geolocation is not None and new.geolocation is None:
            await self._regrant_others(cdp)
        if not new.active:
            self._states.pop(target, None)

    async def _regrant_others(self, cdp: CdpConnection) -> None:
        await cdp.browser.send("Browser.resetPermissions", self._scope)
        origins = {
            origin for state in self._states.values() if state.geolocation for origin in state.geolocation.granted_to
        }
        for origin in sorted(origins):
            await _grant(cdp, origin, self._scope)

    def _on_request(self, cdp: CdpConnection, session: CdpSession, event: CdpEvent) -> None:
        """A document the tab starts to load: grant its origin the permission if a place is emulated."""
        params = event.params
        if params.get("type") != "Document" or params.get("frameId") != session.target_id:
            return
        state = self.state(session.target_id)
        origin = _origin(str(params.get("documentURL", "")))
        if state.geolocation is None or origin is None or origin in state.geolocation.granted_to:
            return
        self._states[session.target_id or ""] = replace(state, geolocation=_granted(state.geolocation, origin))
        task = asyncio.ensure_future(_grant(cdp, origin, self._scope))
        self._grants.add(task)
        task.add_done_callback(self._grant_done)

    def _grant_done(self, task: asyncio.Task[None]) -> None:
        """A grant's failure (the browser going away) is nobody's to report: the page will ask."""
        self._grants.discard(task)
        if not task.cancelled():
            with contextlib.suppress(CdpilotError):
                task.result()


class EmulatedTab(Target, Protocol):
    """A target whose overrides cdpilot keeps: its record, its browser, and where it is."""

    @property
    def emulation(self) -> TabEmulations: ...

    @property
    def cdp(self) -> CdpConnection: ...

    @property
    def target_url(self) -> str | None: ...


async def emulate(conn: EmulatedTab, change: EmulationChange) -> EmulationReport:
    """Apply `change` over what the current tab emulates now."""
    old = conn.emulation.state(page_of(conn).target_id)
    new = combined_state(old, change)
    await conn.features.unless_blocked(conn.emulation.update(conn.cdp, page_of(conn), new, conn.target_url))
    return _report(conn, old, conn.emulation.state(page_of(conn).target_id))


async def clear(conn: EmulatedTab) -> EmulationReport:
    """Every override off: the tab is back to the browser's launch settings."""
    old = conn.emulation.state(page_of(conn).target_id)
    await conn.features.unless_blocked(
        conn.emulation.update(conn.cdp, page_of(conn), EmulationState(), conn.target_url)
    )
    return replace(_report(conn, old, EmulationState()), cleared=True)


def current(conn: EmulatedTab) -> EmulationReport:
    state = conn.emulation.state(page_of(conn).target_id)
    return EmulationReport(conn.target_url or "", state)


async def set_viewport(conn: EmulatedTab, viewport: Viewport) -> None:
    """The page tool's viewport override, kept in the tab's record (it replaces a device's)."""
    state = replace(conn.emulation.state(page_of(conn).target_id), viewport=viewport)
    await conn.features.unless_blocked(conn.emulation.update(conn.cdp, page_of(conn), state, conn.target_url))


async def set_media(conn: EmulatedTab, media: MediaEmulation) -> None:
    """The page tool's media override, kept in the tab's record; all unset is none."""
    kept = None if media == MediaEmulation(None, None, None) else media
    state = replace(conn.emulation.state(page_of(conn).target_id), media=kept)
    await conn.features.unless_blocked(conn.emulation.update(conn.cdp, page_of(conn), state, conn.target_url))


def combined_state(old: EmulationState, change: EmulationChange) -> EmulationState:
    """What the tab emulates once `change` is applied over `old`: a device brings its viewport,
    touch and user agent; a user agent given beside it wins."""
    new = replace(old, network=_network(old.network, change))
    if change.cpu_rate is not None:
        new = replace(new, cpu_rate=change.cpu_rate)
    if change.geolocation is not None:
        granted = old.geolocation.granted_to if old.geolocation is not None else ()
        new = replace(new, geolocation=replace(change.geolocation, granted_to=granted))
    if change.device is not None:
        device = change.device
        viewport = Viewport(device.width, device.height, device.device_scale_factor, device.mobile, device.name)
        new = replace(new, viewport=viewport, touch=device.touch, user_agent=device.user_agent)
    if change.user_agent is not None:
        new = replace(new, user_agent=change.user_agent)
    if change.locale is not None:
        new = replace(new, locale=change.locale)
    if change.timezone is not None:
        new = replace(new, timezone=change.timezone)
    return new


def _network(current: NetworkThrottle, change: EmulationChange) -> NetworkThrottle:
    """The preset asked for (else the tab's current conditions) with the custom figures over it;
    a custom figure means a connection, and names no preset unless it is the preset's own."""
    base = change.network if change.network is not None else current
    custom = (change.latency_ms, change.download_kbps, change.upload_kbps)
    if all(value is None for value in custom):
        return base
    merged = replace(
        base,
        offline=False,
        latency_ms=base.latency_ms if change.latency_ms is None else change.latency_ms,
        download_kbps=base.download_kbps if change.download_kbps is None else change.download_kbps,
        upload_kbps=base.upload_kbps if change.upload_kbps is None else change.upload_kbps,
    )
    return merged if merged == base else replace(merged, preset=None)


def _report(conn: EmulatedTab, old: EmulationState, new: EmulationState) -> EmulationReport:
    loaded = (conn.target_url or "about:blank") != "about:blank"
    needs_reload = ("touch events",) if loaded and old.touch != new.touch else ()
    return EmulationReport(conn.target_url or "", new, needs_reload=needs_reload)


async def _apply(session: CdpSession, old: EmulationState, new: EmulationState) -> None:
    """Send the overrides that differ between `old` and `new` (all of `new` when `old` is the default)."""
    commands: list[tuple[str, dict[str, Any]]] = []
    if new.network != old.network:
        commands.append(("Network.emulateNetworkConditions", _network_params(new.network)))
    if new.cpu_rate != old.cpu_rate:
        commands.append(("Emulation.setCPUThrottlingRate", {"rate": new.cpu_rate}))
    if new.geolocation != old.geolocation:
        commands.append(_geolocation_command(new.geolocation))
    if new.viewport != old.viewport:
        commands.append(_viewport_command(new.viewport))
    if new.touch != old.touch:
        touch = {"enabled": new.touch, "maxTouchPoints": MAX_TOUCH_POINTS} if new.touch else {"enabled": False}
        commands.append(("Emulation.setTouchEmulationEnabled", touch))
    if (new.user_agent, new.locale) != (old.user_agent, old.locale):
        # navigator.language follows the Accept-Language override; an empty user agent keeps the browser's.
        agent = {"userAgent": new.user_agent or "", "acceptLanguage": new.locale or ""}
        commands.append(("Emulation.setUserAgentOverride", agent))
    if new.locale != old.locale:
        commands.append(("Emulation.setLocaleOverride", {"locale": new.locale} if new.locale else {}))
    if new.timezone != old.timezone:
        commands.append(("Emulation.setTimezoneOverride", {"timezoneId": new.timezone or ""}))
    if new.media != old.media:
        commands.append(("Emulation.setEmulatedMedia", _media_params(new.media)))
    await asyncio.gather(*(session.send(method, params) for method, params in commands))


def _network_params(network: NetworkThrottle) -> dict[str, Any]:
    def throughput(kbps: float | None) -> float:
        return -1 if kbps is None else kbps * 1000 / 8  # bytes per second; -1 is no limit

    return {
        "offline": network.offline,
        "latency": network.latency_ms,
        "downloadThroughput": throughput(network.download_kbps),
        "uploadThroughput": throughput(network.upload_kbps),
    }


def _geolocation_command(place: Geolocation | None) -> tuple[str, dict[str, Any]]:
    if place is None:
        return "Emulation.clearGeolocationOverride", {}
    coordinates = {"latitude": place.latitude, "longitude": place.longitude, "accuracy": place.accuracy_m}
    return "Emulation.setGeolocationOverride", coordinates


def _viewport_command(viewport: Viewport | None) -> tuple[str, dict[str, Any]]:
    if viewport is None:
        return "Emulation.clearDeviceMetricsOverride", {}
    metrics = {
        "width": viewport.width,
        "height": viewport.height,
        "deviceScaleFactor": viewport.device_scale_factor,
        "mobile": viewport.mobile,
    }
    return "Emulation.setDeviceMetricsOverride", metrics


def _media_params(media: MediaEmulation | None) -> dict[str, Any]:
    """An unset media type or feature is the browser's own (the empty value)."""
    media = media or MediaEmulation(None, None, None)
    values = (media.color_scheme, media.reduced_motion)
    features = [{"name": name, "value": value or ""} for name, value in zip(MEDIA_FEATURES, values, strict=True)]
    return {"media": media.media or "", "features": features}


async def _grant(cdp: CdpConnection, origin: str, scope: dict[str, str]) -> None:
    await cdp.browser.send("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": origin, **scope})


def _granted(place: Geolocation, origin: str) -> Geolocation:
    return replace(place, granted_to=(*place.granted_to, origin))


def _origin(url: str | None) -> str | None:
    """The origin a permission is granted to: only http(s) pages have one to grant."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None
