"""Every start-up setting, declared once: its flag, its environment variable, its config key.

`OPTIONS` is the one model. From it come the command line (`cdpilot --help` groups the
flags as the table does), the environment variables (``CDPILOT_<KEY>``), the keys of an
optional ``--config file.json``, and that file's JSON Schema (`config_schema`, also a page
of the docs site). A value is taken from the first of: flag, environment variable, config
file, default. Every value goes through its option's one parser, whatever its source, so
a flag, a variable and a key are refused alike, with a message that names where the bad
value came from.

Why no pydantic here: the server answers the MCP handshake before it imports anything
heavy (the SDK, pydantic), and these settings are read before that. So this module uses
the standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from cdpilot.errors import ConfigError

Kind = Literal["boolean", "string", "list", "integer"]
CONFIG_ENV = "CDPILOT_CONFIG"


@dataclass(frozen=True)
class Option:
    """One setting. `parse` turns the text of a flag or variable (or a config value) into its
    value, or raises ValueError saying what is expected."""

    key: str
    kind: Kind
    group: str
    help: str
    default: Any = None
    parse: Callable[[Any], Any] | None = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    schema: Mapping[str, Any] = field(default_factory=dict)  # extra JSON Schema keywords
    env: str | None = None  # when not CDPILOT_<KEY>
    flag: str | None = None  # when not --<key>
    flag_means: bool = True  # what a boolean flag sets (False for a --no-… flag)

    @property
    def env_name(self) -> str:
        return self.env or f"CDPILOT_{self.key.upper()}"

    @property
    def flag_name(self) -> str:
        return self.flag or "--" + self.key.replace("_", "-")


def _viewport(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", str(text))
    if match is None:
        raise ValueError("expected WIDTHxHEIGHT in pixels, such as 1280x720")
    width, height = int(match[1]), int(match[2])
    if not (100 <= width <= 10000 and 100 <= height <= 10000):
        raise ValueError("width and height must each be between 100 and 10000 pixels")
    return width, height


def _browser_url(text: str) -> str:
    parts = urlsplit(str(text).strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("expected http://host:port of a browser started with --remote-debugging-port")
    if parts.port is None:
        raise ValueError("the URL needs the debugging port, such as http://127.0.0.1:9222")
    return f"{parts.scheme}://{parts.netloc}"


def _ws_endpoint(text: str) -> str:
    parts = urlsplit(str(text).strip())
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError("expected a ws:// or wss:// URL, such as ws://127.0.0.1:9222/devtools/browser/<id>")
    return str(text).strip()


def _rate_limit(text: str) -> object:
    from cdpilot.call_rate import RateLimit

    try:
        return RateLimit.parse(str(text))
    except ValueError as exc:
        raise ValueError(f"expected CALLS/SECONDS such as 200/10, or 0 for no limit ({exc})") from exc


def _shell_words(text: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(str(text)))
    except ValueError as exc:
        raise ValueError(f"expected shell words, such as --lang=de --mute-audio ({exc})") from exc


def _directory(text: str) -> Path:
    return Path(_nonempty(text)).expanduser()


def _port(number: int) -> int:
    if not 1 <= number <= 65535:
        raise ValueError("expected a TCP port between 1 and 65535")
    return number


def _positive(number: int) -> int:
    if number < 1:
        raise ValueError("expected a positive whole number")
    return number


def _not_negative(number: int) -> int:
    if number < 0:
        raise ValueError("expected a whole number, 0 or more")
    return number


def _nonempty(text: str) -> str:
    if not str(text).strip():
        raise ValueError("expected a non-empty value")
    return str(text)


TOOLS = "Tools"
BROWSER = "Browser launch"
ATTACH = "Attach to a running browser"
SAFETY = "Safety"
SERVER = "Server"
HTTP = "HTTP transport (--transport http)"

OPTIONS: tuple[Option, ...] = (
    Option("mode", "string", TOOLS, "tool mode: smart (consolidated tools) or legacy (granular tools)",
           default="smart", choices=("smart", "legacy")),
    Option("tools", "list", TOOLS, "serve only these tools or groups (comma-separated)", default=(),
           metavar="NAMES"),
    Option("disable_tools", "list", TOOLS, "do not serve these tools or groups, e.g. evaluate (comma-separated)",
           default=(), metavar="NAMES"),
    Option("auto_launch", "boolean", BROWSER,
           "the first page tool launches a browser (or attaches, given where) when none is connected; "
           "off: it answers 'No browser is connected'", default=True, flag="--no-auto-launch", flag_means=False),
    Option("headed", "boolean", BROWSER, "show the browser window (needs a display); the default is headless",
           default=False),
    Option("executable_path", "string", BROWSER, "the Chrome/Chromium binary (default: chromium, "
           "chromium-browser or google-chrome on PATH)", parse=_nonempty, metavar="PATH", env="CDPILOT_CHROME_PATH"),
    Option("user_data_dir", "string", BROWSER, "a persistent profile, kept after exit (default: a temp profile, "
           "removed at exit)", parse=_nonempty, metavar="DIR"),
    Option("viewport", "string", BROWSER, "the window size of a launched browser", default="1280x720",
           parse=_viewport, metavar="WxH", schema={"pattern": r"^\s*[0-9]{2,5}\s*[xX×]\s*[0-9]{2,5}\s*$"}),
    Option("user_agent", "string", BROWSER, "the user agent of a launched browser", parse=_nonempty, metavar="UA"),
    Option("proxy_server", "string", BROWSER, "a proxy for a launched browser, such as http://127.0.0.1:3128",
           parse=_nonempty, metavar="URL"),
    Option("ignore_https_errors", "boolean", BROWSER, "accept invalid TLS certificates in a launched browser",
           default=False),
    Option("chrome_args", "string", BROWSER, "more Chromium flags for every launch, as shell words",
           default="", parse=_shell_words, metavar="ARGS"),
    Option("browser_url", "string", ATTACH, "attach to the browser at http://host:port instead of launching",
           parse=_browser_url, metavar="URL"),
    Option("ws_endpoint", "string", ATTACH, "attach to the browser at this ws:// endpoint instead of launching",
           parse=_ws_endpoint, metavar="URL"),
    Option("auto_connect", "boolean", ATTACH, "attach to a local Chrome started with remote debugging, found "
           "through its DevToolsActivePort file or port 9222", default=False),
    Option("allow_remote", "boolean", SAFETY, "allow attaching to browsers on non-loopback hosts", default=False),
    Option("allow_file_urls", "boolean", SAFETY, "allow navigation to file: URLs", default=False),
    Option("allowed_origins", "list", SAFETY, "only these origins may load, in navigation and in the page's "
           "requests (comma-separated, e.g. https://example.com,*.example.org)", default=(), metavar="ORIGINS"),
    Option("blocked_origins", "list", SAFETY, "these origins never load (comma-separated); wins over allowed",
           default=(), metavar="ORIGINS"),
    Option("upload_dir", "string", SAFETY, "the only directory whose files a page may be given by an upload "
           "(default: the output directory)", parse=_directory, metavar="DIR"),
    Option("rate_limit", "string", SAFETY, "calls allowed per tool: CALLS/SECONDS, or 0 for no limit",
           default="200/10", parse=_rate_limit, metavar="CALLS/SECONDS",
           schema={"pattern": r"^(0|[0-9]+(/[0-9]+(\.[0-9]+)?)?)$"}),
    Option("output_dir", "string", SERVER, "where screenshots, saved bodies and downloads are written (default: a "
           "temp dir)", parse=_directory, metavar="DIR"),
    Option("transport", "string", SERVER, "the MCP transport: stdio (one client that started cdpilot) or http "
           "(Streamable HTTP at /mcp, one isolated session per client)", default="stdio", choices=("stdio", "http")),
    Option("host", "string", HTTP, "the address to listen on; any but loopback needs --auth-token",
           default="127.0.0.1", parse=_nonempty, metavar="ADDR"),
    Option("port", "integer", HTTP, "the TCP port to listen on", default=8931, parse=_port, metavar="PORT",
           schema={"minimum": 1, "maximum": 65535}),
    Option("auth_token", "string", HTTP, "every request must carry 'Authorization: Bearer TOKEN' (never logged)",
           parse=_nonempty, metavar="TOKEN"),
    Option("allowed_hosts", "list", HTTP, "more Host header values to accept besides loopback names, such as "
           "mcp.example.com:8931 or mcp.example.com:* (comma-separated)", default=(), metavar="HOSTS"),
    Option("allowed_http_origins", "list", HTTP, "more Origin header values to accept besides loopback origins, "
           "such as https://app.example.com (comma-separated)", default=(), metavar="ORIGINS"),
    Option("max_sessions", "integer", HTTP, "at most this many MCP sessions at once; one more is refused with "
           "HTTP 503", default=16, parse=_positive, metavar="N", schema={"minimum": 1}),
    Option("session_idle_timeout", "integer", HTTP, "end a session, and close its browsers, after this many "
           "seconds without a request (a GET stream left open does not count)", default=600, parse=_positive,
           metavar="SECONDS", schema={"minimum": 1}),
    Option("session_files_retention", "integer", HTTP, "delete an ended session's files (its output subfolder: "
           "screenshots, downloads, saved bodies) this many seconds after it ends; 0: at once", default=3600,
           parse=_not_negative, metavar="SECONDS", schema={"minimum": 0}),
    Option("max_tabs_per_session", "integer", HTTP, "at most this many tabs open in one session's browsers; a "
           "launch or new tab past it is refused", default=20, parse=_positive, metavar="N", schema={"minimum": 1}),
    Option("browser_per_session", "boolean", HTTP, "give each session browser processes of its own (default: "
           "each session gets browser contexts in one shared Chromium)", default=False),
)  # fmt: skip
BY_KEY = {option.key: option for option in OPTIONS}

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _convert(option: Option, raw: Any, from_text: bool) -> Any:
    """`raw` as the option's value; text (flags, variables) and JSON (config keys) alike."""
    if option.kind == "boolean":
        if isinstance(raw, bool):
            return raw
        if from_text and isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise ValueError("expected true or false")
    if option.kind == "list":
        if from_text and isinstance(raw, str):
            items = [item.strip() for item in raw.split(",") if item.strip()]
        elif isinstance(raw, list) and all(isinstance(item, str) for item in raw):
            items = [item.strip() for item in raw if item.strip()]
        else:
            raise ValueError("expected a list of strings")
        return tuple(items)
    if option.kind == "integer":
        if from_text and isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError("expected a whole number")
        return option.parse(raw) if option.parse else raw
    if not isinstance(raw, str):
        raise ValueError("expected a string")
    if option.choices and raw.strip().lower() not in option.choices:
        raise ValueError(f"allowed values: {', '.join(option.choices)}")
    value = raw.strip().lower() if option.choices else raw
    return option.parse(value) if option.parse else value


@dataclass(frozen=True)
class Config:
    """The resolved settings: each option's value and where it came from."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def given(self, key: str) -> bool:
        return self.sources[key] != "default"


def resolve(flags: Mapping[str, Any], env: Mapping[str, str], config_path: str | None = None) -> Config:
    """Each option from its flag, else its variable, else the config file, else its default.

    `flags` holds only the flags given on the command line, as text (booleans as True)."""
    path = config_path or env.get(CONFIG_ENV) or None
    file_values = load_config_file(Path(path)) if path else {}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for option in OPTIONS:
        if option.key in flags:
            raw, source, from_text = flags[option.key], option.flag_name, True
        elif option.env_name in env:
            raw, source, from_text = env[option.env_name], option.env_name, True
        elif option.key in file_values:
            raw, source, from_text = file_values[option.key], f"config key {option.key!r} in {path}", False
        else:
            values[option.key], sources[option.key] = _default(option), "default"
            continue
        try:
            values[option.key] = _convert(option, raw, from_text)
        except ValueError as exc:
            shown = raw if isinstance(raw, str) else json.dumps(raw)
            raise ConfigError(f"{source}={shown!r} is not valid: {exc}") from exc
        sources[option.key] = source
    attach = [key for key in ("browser_url", "ws_endpoint", "auto_connect") if values[key]]
    if len(attach) > 1:
        named = " and ".join(sources[key] for key in attach)
        raise ConfigError(f"{named} both say where to attach; give one of them")
    return Config(values, sources)


def _default(option: Option) -> Any:
    if option.default is None or option.parse is None:
        return option.default
    return option.parse(option.default)


def load_config_file(path: Path) -> dict[str, Any]:
    """The keys of a config file, checked against `OPTIONS` (unknown keys refused by name)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"the config file {path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"the config file {path} must hold a JSON object of settings")
    data.pop("$schema", None)  # editors put it there to find the schema
    unknown = sorted(set(data) - set(BY_KEY))
    if unknown:
        raise ConfigError(
            f"the config file {path} has unknown key(s) {', '.join(map(repr, unknown))}; "
            f"valid keys: {', '.join(BY_KEY)}"
        )
    return data


def config_schema() -> dict[str, Any]:
    """The JSON Schema of a config file, from `OPTIONS` (shown on the docs site)."""
    properties: dict[str, Any] = {"$schema": {"type": "string", "description": "the URL of this schema"}}
    for option in OPTIONS:
        entry: dict[str, Any] = {"description": option.help, "x-cdpilot-flag": option.flag_name,
                                 "x-cdpilot-env": option.env_name, "x-cdpilot-group": option.group}  # fmt: skip
        if option.kind == "list":
            entry.update(type="array", items={"type": "string", "minLength": 1})
        else:
            entry["type"] = option.kind
        if option.choices:
            entry["enum"] = list(option.choices)
        if option.default not in (None, ()):
            entry["default"] = option.default
        elif option.default == ():
            entry["default"] = []
        entry.update(option.schema)
        properties[option.key] = entry
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "cdpilot configuration",
        "description": "Settings for `cdpilot --config FILE`; a flag or a CDPILOT_* variable overrides a key.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
    }


def add_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per option, grouped as in `OPTIONS`; given flags land in the namespace as text."""
    groups: dict[str, argparse._ArgumentGroup] = {}
    for option in OPTIONS:
        group = groups.get(option.group) or groups.setdefault(option.group, parser.add_argument_group(option.group))
        help_text = f"{option.help} [{option.env_name}]"
        if option.kind == "boolean":
            const = str(option.flag_means).lower()
            group.add_argument(
                option.flag_name,
                dest=option.key,
                action="store_const",
                const=const,
                default=argparse.SUPPRESS,
                help=help_text,
            )
        else:
            default = option.default if option.default not in (None, (), "") else None
            if default is not None:
                help_text = f"{option.help} (default: {default}) [{option.env_name}]"
            metavar = option.metavar or option.key.upper()
            group.add_argument(
                option.flag_name, dest=option.key, default=argparse.SUPPRESS, metavar=metavar, help=help_text
            )


def environment_lines(options: Sequence[Option] = OPTIONS) -> list[str]:
    """The variables `cdpilot --help` lists, one per option."""
    width = max(len(option.env_name) for option in options)
    return [f"  {option.env_name:<{width}}  {option.flag_name}" for option in options]


def given_flags(namespace: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (argparse leaves the others out)."""
    return {key: value for key, value in vars(namespace).items() if key in BY_KEY}
