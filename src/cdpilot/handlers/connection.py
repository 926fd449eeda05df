"""Connection tools: launch, connect, list, switch, disconnect (smart: `chrome`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cdpilot import progress
from cdpilot.answers.connection_answers import (
    connected_answer,
    connections_answer,
    disconnected_answer,
    launched_answer,
    node_started_answer,
    switched_answer,
)
from cdpilot.answers.pause_answers import pause_bundle_lines
from cdpilot.browser.debugger.pause_snapshot import take_pause_snapshot
from cdpilot.browser.session.connection_facts import NodeProgramOptions
from cdpilot.browser.session.manager import ConnectOptions
from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem

if TYPE_CHECKING:
    from cdpilot_generated.models import (
        ChromeConnectArgs,
        ChromeDisconnectArgs,
        ChromeLaunchArgs,
        ChromeListConnectionsArgs,
        ChromeSwitchConnectionArgs,
        NodeRunArgs,
    )


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
    ways = [way for way in ("ws_url", "pid") if getattr(args, way) is not None]
    if {"host", "port"} & args.model_fields_set:
        ways.append("host/port")
    if len(ways) > 1:
        raise ArgumentError(
            "Give one of {param:ws_url}, {param:pid} or {param:host}/{param:port}, not several.",
            problems=[FieldProblem(ways[0], "one way to reach the endpoint", " and ".join(ways))],
        )
    info = await ctx.connections.connect(
        ConnectOptions(
            connection_id=args.connection_id,
            host=args.host,
            port=args.port,
            ws_url=args.ws_url,
            pid=args.pid,
            headers=dict(args.headers),
            timeout_ms=args.timeout_ms,
        )
    )
    return ToolResult(connected_answer(info))


async def node_run(args: NodeRunArgs, ctx: ToolContext) -> ToolResult:
    await progress.report(f"Starting {' '.join(args.command[:1]) or 'the program'} under the Node.js inspector")
    options = NodeProgramOptions(
        command=tuple(args.command),
        connection_id=args.connection_id,
        cwd=args.cwd,
        env=dict(args.env),
        pause_at_start=args.pause_at_start,
        timeout_ms=args.start_timeout_ms,
    )
    node = await ctx.connections.run_node(options)
    lines = [node_started_answer(ctx.connections.info(node.id), paused=args.pause_at_start)]
    if args.pause_at_start:
        pause = await node.wait_pause(args.start_timeout_ms / 1000)
        if pause is not None:
            lines += pause_bundle_lines(await take_pause_snapshot(node, pause, full=False, console_mark=None))
    return ToolResult("\n".join(lines))


async def chrome_list_connections(args: ChromeListConnectionsArgs, ctx: ToolContext) -> ToolResult:
    return ToolResult(connections_answer(ctx.connections.list()))


async def chrome_switch_connection(args: ChromeSwitchConnectionArgs, ctx: ToolContext) -> ToolResult:
    return ToolResult(switched_answer(ctx.connections.switch(args.connection_id)))


async def chrome_disconnect(args: ChromeDisconnectArgs, ctx: ToolContext) -> ToolResult:
    info = await ctx.connections.disconnect(ctx.connections.target(args.connection_id).id)
    return ToolResult(disconnected_answer(info, ctx.connections.active_id))
