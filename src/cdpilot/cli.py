"""Command line: flags, mode selection, logging set-up, then serve."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from cdpilot_generated.manifests import MODES, Mode

from cdpilot import __version__
from cdpilot.context import Settings
from cdpilot.server.rate_limit import DEFAULT_RATE_LIMIT, RateLimit

_LEGACY_FLAG = {"true": True, "1": True, "false": False, "0": False, "": False}


class StartupError(Exception):
    """A start-up setting that cannot be honoured; the message names it and what is allowed."""


def select_mode(flag: str | None, env: Mapping[str, str]) -> tuple[Mode, str]:
    """The active mode and where it came from: --mode, CDPILOT_MODE, then USE_LEGACY_TOOLS."""
    if flag is not None:
        return ("legacy" if flag == "legacy" else "smart"), "--mode"
    if "CDPILOT_MODE" in env:
        value = env["CDPILOT_MODE"].strip().lower()
        if value == "smart":
            return "smart", "CDPILOT_MODE"
        if value == "legacy":
            return "legacy", "CDPILOT_MODE"
        raise StartupError(f"CDPILOT_MODE={env['CDPILOT_MODE']!r} is not valid; allowed values: smart, legacy")
    raw = env.get("USE_LEGACY_TOOLS")
    if raw is None:
        return "smart", "default"
    legacy = _LEGACY_FLAG.get(raw.strip().lower())
    if legacy is None:
        raise StartupError(
            f"USE_LEGACY_TOOLS={raw!r} is not valid; allowed values: true, 1 (legacy), false, 0 (smart), or unset"
        )
    return ("legacy" if legacy else "smart"), "USE_LEGACY_TOOLS"


def _rate_limit(text: str) -> RateLimit | None:
    try:
        return RateLimit.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected CALLS/SECONDS such as 200/10, or 0 ({exc})") from exc


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cdpilot", description=__doc__)
    parser.add_argument("--mode", choices=MODES, help="tool mode (default: $CDPILOT_MODE, else smart)")
    parser.add_argument("--allow-remote", action="store_true", help="allow chrome_connect to non-loopback hosts")
    parser.add_argument("--allow-file-urls", action="store_true", help="allow navigation to file: URLs")
    parser.add_argument("--output-dir", type=Path, help="where screenshots and bodies are written")
    parser.add_argument(
        "--rate-limit",
        type=_rate_limit,
        default=DEFAULT_RATE_LIMIT,
        metavar="CALLS/SECONDS",
        help=f"per-tool call limit (default: {DEFAULT_RATE_LIMIT.calls}/{DEFAULT_RATE_LIMIT.per_s:g}; 0: none)",
    )
    parser.add_argument("--transport", choices=["stdio"], default="stdio", help="MCP transport (stdio only)")
    parser.add_argument(
        "--check-handlers",
        action="store_true",
        help="verify the handler table against the tool catalog and exit",
    )
    parser.add_argument("--version", action="version", version=f"cdpilot {__version__}")
    return parser


def check_handlers() -> int:
    from cdpilot.handlers import HANDLERS
    from cdpilot.server.registry import handler_problems

    problems = handler_problems(HANDLERS)
    for problem in problems:
        print(f"handler check: {problem}", file=sys.stderr)
    if not problems:
        print(f"handler check: all {len(HANDLERS)} tools have a handler of the right type")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.check_handlers:
        return check_handlers()
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        mode, source = select_mode(args.mode, os.environ)
    except StartupError as exc:
        print(f"cdpilot: {exc}", file=sys.stderr)
        return 2

    from cdpilot_generated import manifests

    from cdpilot.server.app import serve

    count = manifests.SMART_TOOL_COUNT if mode == "smart" else manifests.LEGACY_TOOL_COUNT
    print(f"cdpilot {__version__}: mode={mode} ({source}), {count} tools", file=sys.stderr)
    settings = Settings(
        allow_remote=args.allow_remote,
        allow_file_urls=args.allow_file_urls,
        output_dir=args.output_dir,
        rate_limit=args.rate_limit,
    )
    return asyncio.run(serve(mode, settings))


if __name__ == "__main__":
    sys.exit(main())
