"""`make demo`: a real cdpilot session over MCP stdio against a bundled page.

Serves demo/page.html on 127.0.0.1, starts `cdpilot` as a subprocess with the official
`mcp` client and navigates: that first call launches a headless Chromium by itself. It
signs in on the page (find the button, fill the form, click), reads the console, takes a
screenshot, then debugs the welcome page's script (a breakpoint, which turns the debugger
on by itself; click into it, step, evaluate in the paused frame, resume), shows one refused
call, and disconnects, printing each call and its answer.
"""

from __future__ import annotations

import asyncio
import functools
import http.server
import os
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

HERE = Path(__file__).resolve().parent
# No outside DNS and no background traffic from the demo browser.
OFFLINE_FLAGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve_page() -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(QuietHandler, directory=str(HERE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/page.html"


async def step(client: Client, tool: str, arguments: dict[str, Any]) -> None:
    print(f"\n>>> {tool}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})")
    result = await client.call_tool(tool, arguments)
    marker = "ERROR " if result.is_error else ""
    for block in result.content:
        print(marker + getattr(block, "text", f"<{block.type}>"))


async def main() -> None:
    httpd, url = serve_page()
    env = dict(os.environ, CDPILOT_MODE="smart", CDPILOT_CHROME_ARGS=shlex.join(OFFLINE_FLAGS))
    params = StdioServerParameters(command=sys.executable, args=["-m", "cdpilot.cli"], env=env)
    try:
        async with Client(params) as client:
            tools = await client.list_tools()
            print(
                f"cdpilot is up in smart mode with {len(tools.tools)} tools: {', '.join(t.name for t in tools.tools)}"
            )
            await step(client, "navigate", {"url": url})
            await step(client, "query_elements", {"selector": "form button[type=submit]"})
            await step(client, "fill_element", {"selector": "#email", "text": "ada@example.test"})
            await step(client, "fill_element", {"selector": "#password", "text": "correct horse"})
            await step(client, "click_element", {"selector": "#submit"})
            await step(client, "get_console_logs", {})
            await step(client, "page", {"action": "screenshot"})
            await step(client, "breakpoint", {"action": "set", "url_regex": r"greet\.js$", "line_number": 2})
            await step(client, "click_element", {"selector": "#greet"})
            await step(client, "step", {"direction": "over"})
            await step(client, "evaluate", {"call_frame_id": 0, "expression": "name.toUpperCase()"})
            await step(client, "execution", {"action": "resume"})
            await step(client, "chrome", {"action": "list"})
            await step(client, "navigate", {"url": "javascript:alert(1)"})
            await step(client, "chrome", {"action": "disconnect"})
    finally:
        httpd.shutdown()
    print("\nDemo finished: the browser was closed and its temp profile removed.")


if __name__ == "__main__":
    asyncio.run(main())
