"""Connection tools: launch, connect, list, switch, disconnect (smart: `chrome`)."""

from __future__ import annotations

from dataclasses import replace

from cdpilot_generated.models import (
    ChromeConnectArgs,
    ChromeDisconnectArgs,
    ChromeLaunchArgs,
    ChromeListConnectionsArgs,
    ChromeSwitchConnectionArgs,
)

from cdpilot import progress
from cdpilot.answers.connection_answers import (
    connected_answer,
    connections_answer,
    disconnected_answer,
    launched_answer,
    switched_answer,
)
from cdpilot.browser.session.manager import ConnectOptions
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem


async def chrome_launch(args: ChromeLaunchArgs, ctx: ToolContext) -> ToolResult:
    await progress.report("Launching the browser")
    defaults = ctx.settings.launch
    given = args.model_fields_set
    options = replace(
        defaults,
        connection_id=args.connection_id,
        headless=args.headless if "headless" in given else defaults.headless,
        executable_path=args.executable_path or defaults.executable_path,
        user_data_dir=args.user_data_dir or defaults.user_data_dir,
        extra_args=(*defaults.extra_args, *args.extra_args),
        url=args.url,
    )
    own_process = ctx.connections.own_process_reasons(options)
    return ToolResult(launched_answer(await ctx.connections.launch(options), own_process))


async def chrome_connect(args: ChromeConnectArgs, ctx: ToolContext) -> ToolResult:
    if args.ws_url is not None and {"host", "port"} & args.model_fields_set:
        raise ArgumentError(
            "Give either {param:ws_url} or {param:host}/{param:port}, not both.",
            problems=[FieldProblem("ws_url", "host and port left out when {param:ws_url} is given", "both")],
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
    return ToolResult(connected_answer(info))


async def chrome_list_connections(args: ChromeListConnectionsArgs, ctx: ToolContext) -> ToolResult:
    return ToolResult(connections_answer(ctx.connections.list()))


async def chrome_switch_connection(args: ChromeSwitchConnectionArgs, ctx: ToolContext) -> ToolResult:
    return ToolResult(switched_answer(ctx.connections.switch(args.connection_id)))


async def chrome_disconnect(args: ChromeDisconnectArgs, ctx: ToolContext) -> ToolResult:
    info = await ctx.connections.disconnect(ctx.connections.get(args.connection_id).id)
    return ToolResult(disconnected_answer(info, ctx.connections.active_id))
