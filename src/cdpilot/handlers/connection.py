"""Connection tools: launch, connect, list, switch, disconnect (smart: `chrome`)."""

from __future__ import annotations

from cdpilot_generated.models import (
    ChromeConnectArgs,
    ChromeDisconnectArgs,
    ChromeLaunchArgs,
    ChromeListConnectionsArgs,
    ChromeSwitchConnectionArgs,
)

from cdpilot.browser.session.manager import ConnectionInfo, ConnectOptions, LaunchOptions
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem


def describe(info: ConnectionInfo) -> str:
    """One line per connection: what an agent needs to pick one, nothing more."""
    parts = [info.id, "[active]" if info.active else "", info.kind, info.browser]
    if info.pid is not None:
        parts.append(f"pid={info.pid}")
    if info.kind == "connected":
        parts.append(f"endpoint={info.endpoint}")
    line = " ".join(p for p in parts if p)
    if info.target_url is not None:
        title = f'"{info.target_title}" ' if info.target_title else ""
        line += f"\n  page: {title}{info.target_url}"
    return line


async def chrome_launch(args: ChromeLaunchArgs, ctx: ToolContext) -> ToolResult:
    info = await ctx.connections.launch(
        LaunchOptions(
            connection_id=args.connection_id,
            headless=args.headless,
            executable_path=args.executable_path,
            user_data_dir=args.user_data_dir,
            extra_args=tuple(args.extra_args),
            url=args.url,
            allow_file_urls=ctx.settings.allow_file_urls,
        )
    )
    return ToolResult(f"Launched {info.browser} as connection '{info.id}' (now active).\n{describe(info)}")


async def chrome_connect(args: ChromeConnectArgs, ctx: ToolContext) -> ToolResult:
    if args.ws_url is not None and {"host", "port"} & args.model_fields_set:
        raise ArgumentError(
            "Give either ws_url or host/port, not both.",
            problems=[FieldProblem("ws_url", "host and port left out when ws_url is given", "both")],
        )
    info = await ctx.connections.connect(
        ConnectOptions(
            connection_id=args.connection_id,
            host=args.host,
            port=args.port,
            ws_url=args.ws_url,
            headers=dict(args.headers),
            timeout_ms=args.timeout_ms,
        )
    )
    return ToolResult(f"Connected to {info.browser} as connection '{info.id}' (now active).\n{describe(info)}")


async def chrome_list_connections(args: ChromeListConnectionsArgs, ctx: ToolContext) -> ToolResult:
    infos = ctx.connections.list()
    if not infos:
        return ToolResult("No connections. Launch a browser or connect to a running one.")
    return ToolResult(f"{len(infos)} connection(s):\n" + "\n".join(describe(i) for i in infos))


async def chrome_switch_connection(args: ChromeSwitchConnectionArgs, ctx: ToolContext) -> ToolResult:
    info = ctx.connections.switch(args.connection_id)
    return ToolResult(f"Active connection is now '{info.id}'.\n{describe(info)}")


async def chrome_disconnect(args: ChromeDisconnectArgs, ctx: ToolContext) -> ToolResult:
    info = await ctx.connections.disconnect(ctx.connections.get(args.connection_id).id)
    what = "closed the browser and removed its temp profile" if info.kind == "launched" else "detached"
    active = ctx.connections.active_id
    tail = f" Active connection: '{active}'." if active else " No connections left."
    return ToolResult(f"Disconnected '{info.id}' ({what}).{tail}")
