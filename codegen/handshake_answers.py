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
