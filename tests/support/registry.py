"""The real call pipeline in-process: a `Registry` over the real handler table, for suites
that drive many calls without the cost of a server process per case."""

from __future__ import annotations

import io
from typing import Any

from cdpilot_generated.manifests import Mode

from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.context import Settings, ToolContext
from cdpilot.errors import ErrorLog
from cdpilot.handlers.table import HANDLERS
from cdpilot.server.registry import Registry


def in_process_registry(
    connections: ConnectionManager, mode: Mode, settings: Settings | None = None, *, log: io.StringIO | None = None
) -> Registry:
    """A registry as the server builds one; its error log goes to `log` (by default nowhere a
    test prints), since many suites provoke errors on purpose."""
    return Registry(
        ToolContext(connections, mode, settings or Settings()), HANDLERS, log=ErrorLog(stream=log or io.StringIO())
    )


async def answer(registry: Registry, tool: str, **arguments: Any) -> tuple[str | None, str]:
    """(error type, or None on success; the answer's text) of one call."""
    result = await registry.call(tool, arguments)
    text = "".join(getattr(block, "text", "") for block in result.content)
    return ((result.meta or {}).get("cdpilot/errorType") if result.is_error else None), text
