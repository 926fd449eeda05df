"""What a tab is made to pretend, as plain data: its network, CPU, place, device, language and
clock, and the viewport and media overrides of the page tools.

One `EmulationState` per tab is the single record of every override cdpilot put on it: the
browser forgets them when our session on the tab ends (a tab switch), so this record is what
puts them back, and what the emulate tool reports. It speaks no CDP, so the renderers can
import it without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NetworkThrottle:
    """Network conditions; a limit of None is no limit."""

    offline: bool = False
    latency_ms: float = 0
    download_kbps: float | None = None
    upload_kbps: float | None = None
    preset: str | None = None  # the preset these figures are, when they are one's unchanged

    @property
    def active(self) -> bool:
        return self.offline or self.latency_ms > 0 or self.download_kbps is not None or self.upload_kbps is not None


@dataclass(frozen=True)
class Geolocation:
    latitude: float
    longitude: float
    accuracy_m: float
    granted_to: tuple[str, ...] = ()  # origins given the geolocation permission, in order


@dataclass(frozen=True)
class Viewport:
    """A viewport override: the page tool's, or a device preset's (then `device` names it)."""

    width: int
    height: int
    device_scale_factor: float
    mobile: bool
    device: str | None = None


@dataclass(frozen=True)
class DevicePreset:
    name: str
    width: int
    height: int
    device_scale_factor: float
    mobile: bool
    touch: bool
    user_agent: str


@dataclass(frozen=True)
class EmulationState:
    """Every override on one tab; the defaults are the browser's own values."""

    network: NetworkThrottle = field(default_factory=NetworkThrottle)
    cpu_rate: float = 1
    geolocation: Geolocation | None = None
    viewport: Viewport | None = None
    touch: bool = False
    user_agent: str | None = None
    locale: str | None = None
    timezone: str | None = None
    media: MediaEmulation | None = None

    @property
    def active(self) -> bool:
        return self != EmulationState()


@dataclass(frozen=True)
class EmulationChange:
    """What one emulate call asks for, checked; None leaves that part as it is."""

    network: NetworkThrottle | None = None  # a preset, offline, or none
    latency_ms: float | None = None  # custom figures, over `network` or the tab's current ones
    download_kbps: float | None = None
    upload_kbps: float | None = None
    cpu_rate: float | None = None
    geolocation: Geolocation | None = None
    device: DevicePreset | None = None
    user_agent: str | None = None
    locale: str | None = None
    timezone: str | None = None


@dataclass(frozen=True)
class EmulationReport:
    """What the tab now pretends, and what of it shows fully only from the next load."""

    url: str
    state: EmulationState
    cleared: bool = False
    needs_reload: tuple[str, ...] = ()  # what the current document keeps until it is loaded again


@dataclass(frozen=True)
class ViewportSet:
    """The viewport override asked for, and what the page measures once it is in place."""

    width: int
    height: int
    device_scale_factor: float
    mobile: bool
    inner_width: int
    inner_height: int


@dataclass(frozen=True)
class MediaEmulation:
    """The emulated CSS media type and features; None means the browser's own value."""

    media: str | None
    color_scheme: str | None
    reduced_motion: str | None
