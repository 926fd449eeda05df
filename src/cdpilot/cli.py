"""cdpilot: an MCP server that lets an AI agent drive and debug Chrome, Chromium or Electron.

It speaks the Chrome DevTools Protocol: open pages, query and act on them by CSS selector,
read the console and the network, take screenshots, and debug JavaScript (breakpoints,
stepping, call stacks, source maps). An MCP client starts it and talks to it on stdio; the
first page tool launches a headless Chromium unless told otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from cdpilot_generated import manifests
from cdpilot_generated.manifests import Mode

from cdpilot import __version__
from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.config import (
    OPTIONS,
    Config,
    add_flags,
    config_schema,
    environment_lines,
    given_flags,
    resolve,
)
from cdpilot.context import AttachTarget, Settings
from cdpilot.errors import ConfigError

if TYPE_CHECKING:
    from cdpilot.server.http_settings import HttpSettings

_LEGACY_FLAG = {"true": True, "1": True, "false": False, "0": False, "": False}

CLIENT_EXAMPLE = """\
An MCP client configuration (e.g. .mcp.json, claude_desktop_config.json):
  {"mcpServers": {"cdpilot": {"command": "cdpilot",
                              "args": ["--viewport", "1440x900", "--disable-tools", "evaluate"]}}}
"""


def select_mode(config: Config, env: Mapping[str, str]) -> tuple[Mode, str]:
    """The active mode and where it came from: the mode setting, else USE_LEGACY_TOOLS."""
    if config.given("mode"):
        return ("legacy" if config["mode"] == "legacy" else "smart"), config.sources["mode"]
    raw = env.get("USE_LEGACY_TOOLS")
    if raw is None:
        return "smart", "default"
    legacy = _LEGACY_FLAG.get(raw.strip().lower())
    if legacy is None:
        raise ConfigError(
            f"USE_LEGACY_TOOLS={raw!r} is not valid; allowed values: true, 1 (legacy), false, 0 (smart), or unset"
        )
    return ("legacy" if legacy else "smart"), "USE_LEGACY_TOOLS"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cdpilot",
        description=__doc__,
        epilog="\n".join(
            [
                f"Tool modes: smart serves {manifests.SMART_TOOL_COUNT} consolidated tools, legacy "
                f"{manifests.LEGACY_TOOL_COUNT} granular ones.",
                "",
                "Every flag is also an environment variable and a key of --config FILE (a JSON object;",
                "cdpilot --config-schema prints its JSON Schema). A flag wins over a variable, a variable",
                "over the file.",
                "",
                "Environment variables:",
                *environment_lines(),
                "  CDPILOT_CONFIG" + " " * (max(len(o.env_name) for o in OPTIONS) - 12) + "--config",
                "",
                CLIENT_EXAMPLE,
            ]
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", metavar="FILE", help="read settings from this JSON file [CDPILOT_CONFIG]")
    add_flags(parser)
    parser.add_argument("--version", action="version", version=f"cdpilot {__version__}")
    parser.add_argument("--config-schema", action="store_true", help="print the config file's JSON Schema and exit")
    parser.add_argument(
        "--check-handlers", action="store_true", help="verify the handler table against the tool catalog and exit"
    )
    return parser


def build_settings(config: Config, mode: Mode) -> Settings:
    """The resolved config as the server uses it; refuses what only makes sense together."""
    from cdpilot.server.tool_filter import select_tools

    try:
        tools = select_tools(mode, config["tools"], config["disable_tools"])
    except ValueError as exc:
        where = " / ".join(config.sources[key] for key in ("tools", "disable_tools") if config.given(key))
        raise ConfigError(f"{where}: {exc}") from exc
    attach = _attach_target(config)
    return Settings(
        auto_launch=config["auto_launch"],
        launch=LaunchOptions(
            headless=not config["headed"],
            executable_path=config["executable_path"],
            user_data_dir=config["user_data_dir"],
            viewport=config["viewport"],
            user_agent=config["user_agent"],
            proxy_server=config["proxy_server"],
            ignore_https_errors=config["ignore_https_errors"],
            extra_args=config["chrome_args"],
        ),
        attach=attach,
        origins=_origin_policy(config),
        tools=tools,
        allow_remote=config["allow_remote"],
        allow_file_urls=config["allow_file_urls"],
        output_dir=config["output_dir"],
        upload_dir=config["upload_dir"],
        rate_limit=config["rate_limit"],
    )


def _origin_policy(config: Config) -> OriginPolicy:
    try:
        return OriginPolicy(config["allowed_origins"], config["blocked_origins"])
    except ValueError as exc:
        where = " / ".join(config.sources[key] for key in ("allowed_origins", "blocked_origins") if config.given(key))
        raise ConfigError(f"{where}: {exc}") from exc


def _attach_target(config: Config) -> AttachTarget | None:
    """Where to attach instead of launching, refused at start if the remote-host rules forbid it."""
    from cdpilot.browser.session.endpoints import check_host_and_port, check_websocket_url
    from cdpilot.errors import ArgumentError

    url, endpoint = config["browser_url"], config["ws_endpoint"]
    try:
        if url:
            parts = urlsplit(url)
            check_host_and_port(parts.hostname or "", parts.port or 0, allow_remote=config["allow_remote"])
        if endpoint:
            check_websocket_url(endpoint, allow_remote=config["allow_remote"])
    except ArgumentError as exc:
        key = "browser_url" if url else "ws_endpoint"
        problems = "; ".join(problem.render() for problem in exc.problems)
        raise ConfigError(f"{config.sources[key]}: {exc.message} ({problems})") from exc
    if url or endpoint or config["auto_connect"]:
        return AttachTarget(url, endpoint, config["auto_connect"])
    return None


def http_settings(config: Config) -> HttpSettings | None:
    """The HTTP transport's settings, or None for stdio (whose start-up never imports them)."""
    if config["transport"] != "http":
        return None
    from cdpilot.server.http_settings import HttpSettings

    return HttpSettings.from_config(config)


def check_handlers() -> int:
    from cdpilot.handlers.table import HANDLERS
    from cdpilot.server.registry import handler_problems

    problems = handler_problems(HANDLERS, placed=True)
    for problem in problems:
        print(f"handler check: {problem}", file=sys.stderr)
    if not problems:
        print(f"handler check: all {len(HANDLERS)} tools have a handler of the right type, in their group's module")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.check_handlers:
        return check_handlers()
    if args.config_schema:
        print(json.dumps(config_schema(), indent=2, ensure_ascii=False))
        return 0
    try:
        config = resolve(given_flags(args), os.environ, args.config)
        mode, source = select_mode(config, os.environ)
        settings = build_settings(config, mode)
        http = http_settings(config)
    except ConfigError as exc:
        print(f"cdpilot: {exc}", file=sys.stderr)
        return 2

    count = manifests.SMART_TOOL_COUNT if mode == "smart" else manifests.LEGACY_TOOL_COUNT
    served = f"{len(settings.tools)} of {count} tools" if settings.tools is not None else f"{count} tools"
    started = f"cdpilot {__version__}: mode={mode} ({source}), {served}"
    if http is not None:
        import asyncio

        from cdpilot.log_setup import configure_logging
        from cdpilot.server.http_app import serve_http

        configure_logging()
        print(started, file=sys.stderr)
        return asyncio.run(serve_http(mode, settings, http))
    from cdpilot.server.startup import serve_stdio

    return serve_stdio(mode, settings, started)


if __name__ == "__main__":
    sys.exit(main())
