"""The command line: mode selection, --help and --version, and start-up refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cdpilot_generated import manifests

from cdpilot import __version__
from cdpilot.cli import select_mode
from cdpilot.config import OPTIONS, resolve
from cdpilot.errors import ConfigError


@pytest.mark.parametrize(
    ("flags", "env", "expected"),
    [
        ({}, {}, ("smart", "default")),
        ({"mode": "legacy"}, {"CDPILOT_MODE": "smart"}, ("legacy", "--mode")),
        ({}, {"CDPILOT_MODE": "legacy", "USE_LEGACY_TOOLS": "false"}, ("legacy", "CDPILOT_MODE")),
        ({}, {"CDPILOT_MODE": "Smart"}, ("smart", "CDPILOT_MODE")),
        ({}, {"USE_LEGACY_TOOLS": "true"}, ("legacy", "USE_LEGACY_TOOLS")),
        ({}, {"USE_LEGACY_TOOLS": "1"}, ("legacy", "USE_LEGACY_TOOLS")),
        ({}, {"USE_LEGACY_TOOLS": "0"}, ("smart", "USE_LEGACY_TOOLS")),
        ({}, {"USE_LEGACY_TOOLS": "false"}, ("smart", "USE_LEGACY_TOOLS")),
    ],
)
def test_mode_selection_order(flags: dict[str, str], env: dict[str, str], expected: tuple[str, str]) -> None:
    assert select_mode(resolve(flags, env), env) == expected


def test_a_bad_legacy_variable_names_itself_and_the_allowed_values() -> None:
    with pytest.raises(ConfigError, match=r"^USE_LEGACY_TOOLS=.*allowed values"):
        select_mode(resolve({}, {}), {"USE_LEGACY_TOOLS": "yes"})


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cdpilot.cli", *args],
        env={"PATH": "/usr/bin:/bin", **(env or {})},
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        ((), {"USE_LEGACY_TOOLS": "maybe"}, "USE_LEGACY_TOOLS='maybe' is not valid; allowed values: true, 1 (legacy)"),
        (("--viewport", "wide"), {}, "--viewport='wide' is not valid: expected WIDTHxHEIGHT"),
        ((), {"CDPILOT_HEADED": "perhaps"}, "CDPILOT_HEADED='perhaps' is not valid: expected true or false"),
        (("--disable-tools", "evaluat"), {}, "--disable-tools: unknown"),
        (("--browser-url", "http://example.com:9222"), {}, "--browser-url: "),
        (("--config", "/nonexistent/cdpilot.json"), {}, "cannot read the config file /nonexistent/cdpilot.json"),
    ],
)
def test_a_bad_setting_stops_start_up_with_a_clear_message(
    args: tuple[str, ...], env: dict[str, str], says: str
) -> None:
    proc = run_cli(*args, env=env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert f"cdpilot: {says}" in proc.stderr


def test_a_bad_config_key_stops_start_up(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"viewport": "1x1"}))
    proc = run_cli("--config", str(path))
    assert proc.returncode == 2
    assert f"cdpilot: config key 'viewport' in {path}='1x1' is not valid" in proc.stderr


def test_help_is_written_for_users() -> None:
    proc = run_cli("--help")
    assert proc.returncode == 0
    text = proc.stdout
    assert text.startswith("usage: cdpilot")
    assert "an MCP server that lets an AI agent drive and debug Chrome" in text
    for group in ("Tools:", "Browser launch:", "Attach to a running browser:", "Safety:", "Server:"):
        assert group in text
    for option in OPTIONS:
        assert option.flag_name in text
        assert option.env_name in text
    assert '"mcpServers"' in text
    # Counted from the generated catalog, so they never go stale.
    smart, legacy = manifests.SMART_TOOL_COUNT, manifests.LEGACY_TOOL_COUNT
    assert f"Tool modes: smart serves {smart} consolidated tools, legacy {legacy} granular ones." in text
    for internal in ("SPEC", "ARCHITECTURE", "§"):
        assert internal not in text


def test_version_and_the_config_schema() -> None:
    version = run_cli("--version")
    assert (version.returncode, version.stdout.strip()) == (0, f"cdpilot {__version__}")
    schema = json.loads(run_cli("--config-schema").stdout)
    assert schema["title"] == "cdpilot configuration"
    assert set(schema["properties"]) >= {option.key for option in OPTIONS}
