"""The floor: the least any stdio server can do per call.

It reads a JSON-RPC line, takes its id and writes a canned reply (the same text cdpilot
answers `chrome_list_connections` with), to every request, the handshake's included: the
bench client only needs the id back there. What remains is the interpreter, one JSON parse
and two pipe hops; no MCP server can do less, so `cdpilot / floor` shows how much of a call
is cdpilot's own work. Run: ``python -m bench.floor_server``.
"""

from __future__ import annotations

import json
import sys

CANNED_RESULT = (
    b'{"content":[{"text":"No connections. Launch a browser or connect to a running one.","type":"text"}],'
    b'"isError":false}'
)


def main() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if "id" in request:
            out.write(b'{"jsonrpc":"2.0","id":%d,"result":%s}\n' % (request["id"], CANNED_RESULT))
            out.flush()


if __name__ == "__main__":
    main()
