"""The browser a first page tool will launch, started before the handlers that launch it are
loaded: as its call arrives, by the stdio server's first read (`cdpilot.server.startup`) or
by its handshake (`cdpilot.server.app.Backend`). Chromium's start-up then runs beside the
imports instead of after them; the connection manager takes the browser over
(`browser_launch.launch_browser` connects to it). Imports nothing heavy: the launcher loads
only when a browser is started.
"""

from __future__ import annotations

import atexit
import os
from typing import TYPE_CHECKING

from cdpilot_generated.manifests import TOOL_GROUPS, Mode

from cdpilot.context import Settings

if TYPE_CHECKING:
    from cdpilot.browser.session.launcher import HeadStart


def browser_ahead(mode: Mode, settings: Settings, tool: str) -> HeadStart | None:
    """The first tools/call arrived before the handlers are loaded: if it is a page tool that
    will launch a browser (none attached, auto-launch on), start that browser now, while the
    modules load (`launcher.spawn_ahead`). Anything in the way is left for the launch itself
    to report."""
    groups = TOOL_GROUPS[mode].get(tool)
    if not groups or "connection" in groups or settings.attach or not settings.auto_launch:
        return None
    if settings.launch.url:
        return None  # a first page of its own: the launch checks its URL first
    from cdpilot.browser.session.launcher import spawn_ahead

    try:
        head_start = spawn_ahead(settings.launch, launcher_env())
    except Exception:
        return None
    atexit.register(head_start.process.kill_now)
    return head_start


def launcher_env() -> dict[str, str]:
    """The environment launched browsers get. The config already read CDPILOT_CHROME_ARGS into
    the launch defaults (flag, variable or file, whichever won): the launcher must not add the
    variable's words a second time."""
    return {name: value for name, value in os.environ.items() if name != "CDPILOT_CHROME_ARGS"}
