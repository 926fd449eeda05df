"""What a stdio server starts ahead for its first call, as the call arrives (by the first
read, `cdpilot.server.startup`, or by the handshake, `cdpilot.server.app.Backend`), before the
handlers that serve it are loaded:

- the browser a first page tool will launch: Chromium's start-up then runs beside the imports
  instead of after them; the connection manager takes the browser over
  (`browser_launch.launch_browser` connects to it);
- the choice of handlers to load first (`FirstCall`): that call's groups, not all of them.

Imports nothing heavy: the launcher loads only when a browser is started.
"""

from __future__ import annotations

import atexit
import os
from typing import TYPE_CHECKING

from cdpilot_generated.manifests import GROUPS, TOOL_GROUPS, Mode

from cdpilot.context import Settings

if TYPE_CHECKING:
    from cdpilot.browser.session.launcher import HeadStart


class FirstCall:
    """The tool the first tools/call named, once one has arrived: set by whoever reads it (the
    first lines, or the handshake), read by the thread that loads the call layer."""

    def __init__(self, mode: Mode) -> None:
        self._mode = mode
        self.tool: str | None = None

    def groups(self) -> tuple[str, ...]:
        """The handler groups to load first: the first call's tool's, or every group when no
        call has come yet (or it named no tool)."""
        return TOOL_GROUPS[self._mode].get(self.tool or "") or GROUPS


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
