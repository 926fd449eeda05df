"""The SDK's server driven in-process, message by message, as a client on stdio would drive it."""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage

from cdpilot.server.stdio import serialize_message


async def exchange_lines(server: Server[Any], *messages: dict[str, Any]) -> list[bytes]:
    """Every line `server` writes while it is sent `messages`, in order, each request only once
    the one before it is answered; the session then ends (input closed). The lines are as the
    stdio transport writes them."""
    client_send, server_receive = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    server_send, client_receive = anyio.create_memory_object_stream[SessionMessage](16)
    written: list[bytes] = []

    async def next_written() -> dict[str, Any]:
        written.append(serialize_message(await client_receive.receive()) + b"\n")
        parsed: dict[str, Any] = json.loads(written[-1])
        return parsed

    with anyio.fail_after(10):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(server.run, server_receive, server_send, server.create_initialization_options())
            async with client_send:
                for message in messages:
                    await client_send.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(message)))
                    if "id" in message:
                        while (await next_written()).get("id") != message["id"]:
                            pass
            async with client_receive:
                written += [serialize_message(rest) + b"\n" async for rest in client_receive]
    return written


async def exchange(server: Server[Any], *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """`exchange_lines`, parsed."""
    return [json.loads(line) for line in await exchange_lines(server, *messages)]
