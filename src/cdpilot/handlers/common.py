"""Small decisions every handler group shares, and the way every page tool reaches its browser."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from cdpilot import progress
from cdpilot.browser.page.page_facts import Download
from cdpilot.browser.session.auto_connect import find_local_browser
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.connection_facts import ConnectionInfo
from cdpilot.browser.session.manager import ConnectOptions
from cdpilot.browser.session.node_connection import NodeConnection
from cdpilot.context import AttachTarget, ToolContext, add_call_note
from cdpilot.errors import BrowserConnectionError

NO_AUTO_LAUNCH = "cdpilot --no-auto-launch turns this off"
ENDED_SUGGESTION = (
    "Read what it wrote with {tool:get_console_logs} and this {param:connection_id}; run it again with "
    "{tool:node_run}, or let go of it with {tool:chrome_disconnect}."
)


def downloaded_files(downloads: Iterable[Download]) -> tuple[Path, ...]:
    """The files completed downloads left in the output directory, for the result's resource links."""
    return tuple(Path(d.path) for d in downloads if d.state == "completed" and d.path is not None and not d.problem)


def wants_context(include_context: bool | None, ctx: ToolContext) -> bool:
    """`include_context` as the caller meant it: explicit wins, else smart mode bundles and legacy does not."""
    return ctx.mode == "smart" if include_context is None else include_context


async def browser(ctx: ToolContext, connection_id: str | None) -> BrowserConnection:
    """The browser connection a page tool acts on (see `target`); a Node.js connection has no
    page, and the answer says so at once, naming the tools that work there."""
    await target(ctx, connection_id)
    return ctx.connections.get(connection_id)


async def target(
    ctx: ToolContext, connection_id: str | None, *, ended_ok: bool = False
) -> BrowserConnection | NodeConnection:
    """The connection a tool acts on, a browser or a Node.js program; on first use, with none
    connected, a browser is started. A Node.js program that ended is refused, saying how it
    ended, unless `ended_ok` (its console can still be read).

    Why here and not before every handler: a handler checks its own arguments first and
    only then asks for its browser, so a call that is wrong anyway (a javascript: URL) gets
    its VALIDATION error without starting anything. The answer's first line says what was
    started, through `add_call_note`."""
    if connection_id is None and ctx.connections.active_id is None and ctx.settings.auto_launch:
        async with ctx.first_contact:
            if ctx.connections.active_id is None:  # a concurrent call may have started one meanwhile
                add_call_note(await _first_contact(ctx))
    found = ctx.connections.target(connection_id)
    if isinstance(found, NodeConnection) and found.ended is not None and not ended_ok:
        raise BrowserConnectionError(found.ended, suggestion=ENDED_SUGGESTION)
    return found


async def _first_contact(ctx: ToolContext) -> str:
    attach = ctx.settings.attach
    if attach is None:
        mode = "headless" if ctx.settings.launch.headless else "headed"
        await progress.report(f"Launching {mode} Chromium")
        info = await ctx.connections.launch(ctx.settings.launch)
        what = f"Opened a context of the shared {mode}" if info.kind == "context" else f"Launched {mode}"
        return f"{what} {info.browser} as '{info.id}': no browser was connected ({NO_AUTO_LAUNCH})."
    await progress.report("Attaching to the browser")
    info = await ctx.connections.connect(await _connect_options(attach))
    return f"Attached to {info.browser} at {_where(attach, info)} as '{info.id}': no browser was connected."


async def _connect_options(attach: AttachTarget) -> ConnectOptions:
    if attach.browser_url is not None:
        parts = urlsplit(attach.browser_url)
        return ConnectOptions(connection_id=None, host=parts.hostname or "", port=parts.port or 9222)
    ws_url = attach.ws_endpoint if attach.ws_endpoint is not None else await find_local_browser()
    return ConnectOptions(connection_id=None, ws_url=ws_url)


def _where(attach: AttachTarget, info: ConnectionInfo) -> str:
    return attach.browser_url or info.endpoint
