"""The handshake answers, serialised at build time for every protocol version of the handshake era.

The server answers ``initialize``, ``ping`` and ``tools/list`` before it has imported its MCP
SDK (importing it costs most of a cold start), so those answers are made here, once, by the
SDK's own models and its own per-version shaping (`serialize_server_result`): what the server
sends is what the SDK would send. The server's identity lives here for the same reason; the
SDK's `Server` is built from the generated constants, and the package version is read from
``pyproject.toml``, the one place it is declared for packaging.
"""

from __future__ import annotations

import copy
import json
import tomllib
from typing import Any

import mcp_types as types
from mcp_types.methods import serialize_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from codegen.catalog import MODES, Catalog
from codegen.manifest import compact, payload
from codegen.stamp import PYPROJECT

SERVER_NAME = "cdpilot"
INSTRUCTIONS = (
    "Drive and debug Chrome/Chromium/Electron, and debug Node.js programs, over CDP. The first page "
    "tool launches a headless Chromium when no browser is connected; breakpoints turn the debugger on "
    "by themselves. A selector inside an iframe of another origin names the iframe first (iframe#pay >> "
    "#card), as does evaluate_js (iframe#pay >> document.title)."
)


def server_version() -> str:
    """The package version, as ``serverInfo`` carries it (``cdpilot.__version__`` must agree)."""
    version: str = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    return version


def initialize_results(version: str) -> dict[str, str]:
    """The ``initialize`` result by negotiated protocol version, as compact JSON (both modes
    introduce themselves alike: the tools tell them apart)."""
    result = types.InitializeResult(
        protocol_version=HANDSHAKE_PROTOCOL_VERSIONS[-1],
        capabilities=types.ServerCapabilities(
            resources=types.ResourcesCapability(subscribe=False, list_changed=False),
            tools=types.ToolsCapability(list_changed=False),
        ),
        server_info=types.Implementation(name=SERVER_NAME, version=version),
        instructions=INSTRUCTIONS,
    )
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return {
        negotiated: compact(
            serialize_server_result("initialize", negotiated, {**dumped, "protocolVersion": negotiated})
        )
        for negotiated in HANDSHAKE_PROTOCOL_VERSIONS
    }


# A tools/call result of every kind cdpilot sends, in the shape its registry writes it
# (`cdpilot.server.call_results`): text, an image, a link to a written file, an error's _meta.
CALL_RESULT_SAMPLES: tuple[dict[str, Any], ...] = (
    {"content": [{"type": "text", "text": "Navigated."}], "isError": False},
    {
        "content": [
            {"type": "text", "text": "Screenshot."},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {
                "type": "resource_link",
                "uri": "cdpilot://files/a.png",
                "name": "a.png",
                "mimeType": "image/png",
                "size": 8,
            },
        ],
        "isError": False,
    },
    {
        "content": [{"type": "text", "text": "Error: no page."}],
        "isError": True,
        "_meta": {"cdpilot/toolName": "navigate", "cdpilot/errorType": "STATE", "cdpilot/recoverable": True},
    },
)


def called_as_is() -> tuple[str, ...]:
    """The versions whose shaping of a tools/call result leaves every kind the registry makes
    unchanged: the fast path writes those as they are, with no SDK loaded."""
    return tuple(
        v
        for v in HANDSHAKE_PROTOCOL_VERSIONS
        if all(serialize_server_result("tools/call", v, copy.deepcopy(s)) == s for s in CALL_RESULT_SAMPLES)
    )


def listed_as_is(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """The versions whose shaping of tools/list leaves a mode's manifest as serialised. Shaping
    works tool by tool, so what holds for the whole manifest holds for any filtered part of it."""
    found: dict[str, tuple[str, ...]] = {}
    for mode in MODES:
        listed: dict[str, Any] = json.loads(payload(catalog, mode))
        found[mode] = tuple(
            v
            for v in HANDSHAKE_PROTOCOL_VERSIONS
            if serialize_server_result("tools/list", v, copy.deepcopy(listed)) == listed
        )
    return found
