"""Start the real cdpilot server over stdio: with the official `mcp` client, or as a raw pipe.

Every Chromium the server launches in tests gets the offline flags through
CDPILOT_CHROME_ARGS (offline flags, see tests/support/chromium.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, Literal

import anyio
from cdpilot_generated.catalog import DISPATCH, ActionRoute, RuleRoute
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.support.chromium import TEST_CHROME_ARGS

Handshake = Literal["legacy", "auto"]


def server_env(mode: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CDPILOT_MODE", "USE_LEGACY_TOOLS")}
    env.update({"CDPILOT_MODE": mode, "CDPILOT_CHROME_ARGS": shlex.join(TEST_CHROME_ARGS), **extra})
    return env


@asynccontextmanager
async def mcp_client(
    mode: str, *args: str, handshake: Handshake = "legacy", env: Mapping[str, str] | None = None
) -> AsyncIterator[Client]:
    """The server with these flags, and `env` over the test environment, with the official client."""
    environment = server_env(mode, **(env or {}))
    params = StdioServerParameters(command=sys.executable, args=["-m", "cdpilot.cli", *args], env=environment)
    async with Client(params, mode=handshake, read_timeout_seconds=60) as client:
        yield client


def spelled(mode: str, tool: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A granular (legacy) call as the given mode spells it: smart tools take an action, or
    the value their routing rule tests (a when_present property is among the arguments already)."""
    if mode == "legacy":
        return tool, arguments
    for name, route in DISPATCH["smart"].items():
        if isinstance(route, ActionRoute):
            for action, target in route.actions.items():
                if target.name == tool:
                    return name, {route.discriminator: action, **arguments}
        elif isinstance(route, RuleRoute):
            for rule in route.rules:
                if rule.tool.name == tool:
                    tested = {rule.equals[0]: rule.equals[1]} if rule.equals else {}
                    return name, {**tested, **arguments}
        elif name == tool:
            return name, arguments
    raise KeyError(f"{tool} has no smart form")


class ModeClient:
    """One server in one mode, called with granular tool names in every mode."""

    def __init__(self, client: Client, mode: str) -> None:
        self.client = client
        self.mode = mode

    async def call(self, tool: str, **arguments: Any) -> Any:
        """The CallToolResult of `tool` (legacy name) spelled for this mode."""
        name, args = spelled(self.mode, tool, arguments)
        return await self.client.call_tool(name, args)

    async def ok(self, tool: str, **arguments: Any) -> str:
        """The text of a call that must succeed."""
        result = await self.call(tool, **arguments)
        text = text_of(result)
        assert not result.is_error, text
        return text

    async def error(self, tool: str, **arguments: Any) -> tuple[str, str]:
        """(errorType, text) of a call that must fail."""
        result = await self.call(tool, **arguments)
        assert result.is_error, text_of(result)
        return str(result.meta["cdpilot/errorType"]), text_of(result)

    async def refused_in_smart(self, tool: str, **arguments: Any) -> bool:
        """Whether this is smart mode, which leaves one of these parameters to legacy mode: then the
        call must be refused, naming the legacy tool that takes it, and the caller skips the rest."""
        if self.mode != "smart":
            return False
        kind, text = await self.error(tool, **arguments)
        assert kind == "VALIDATION" and f"only legacy mode has it: {tool}" in text, text
        return True

    async def stack_once_paused(self, within_s: float = 10) -> str:
        """The call stack once the page pauses: a click answers before an awaited fetch or a
        timer it starts has run, so the pause may come after it. Polled, with a deadline."""
        with anyio.fail_after(within_s):
            while True:
                result = await self.call("debugger_get_call_stack")
                if not result.is_error:
                    return text_of(result)
                await anyio.sleep(0.05)

    async def js(self, expression: str) -> Any:
        """Read page state straight from the browser (evaluate_js), for asserting effects."""
        return json.loads(await self.ok("evaluate_js", expression=expression))


@asynccontextmanager
async def browser_session(mode: str, *args: str) -> AsyncIterator[ModeClient]:
    """A server in `mode` with a launched headless browser (closed on exit)."""
    async with mcp_client(mode, *args) as client:
        session = ModeClient(client, mode)
        await session.ok("chrome_launch")
        yield session


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


class RawServer:
    """The server as a subprocess spoken to line by line, to send what no SDK client would."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 1

    @classmethod
    async def start(cls, mode: str = "smart", *flags: str, env: Mapping[str, str] | None = None) -> RawServer:
        """The server with these flags, and `env` over the test environment."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "cdpilot.cli",
            *flags,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=server_env(mode, **(env or {})),
        )
        return cls(proc)

    async def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        await self.proc.stdin.drain()

    async def read_message(self, within: float = 30) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), within)
        assert line, "the server closed stdout"
        message: dict[str, Any] = json.loads(line)  # every stdout line must be JSON
        return message

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        request_id = self.next_id
        self.next_id += 1
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        await self.send_raw(json.dumps(body).encode() + b"\n")
        while True:
            message = await self.read_message()
            if message.get("id") == request_id:
                return message

    async def initialize(self) -> dict[str, Any]:
        reply = await self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        )
        await self.send_raw(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        return reply

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self.request("tools/call", {"name": name, "arguments": arguments})

    async def close_stdin_and_wait(self, within: float = 30) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return await asyncio.wait_for(self.proc.wait(), within)

    async def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
