"""Mode selection and start-up failures."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cdpilot.cli import StartupError, select_mode


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [
        (None, {}, ("smart", "default")),
        ("legacy", {"CDPILOT_MODE": "smart"}, ("legacy", "--mode")),
        (None, {"CDPILOT_MODE": "legacy", "USE_LEGACY_TOOLS": "false"}, ("legacy", "CDPILOT_MODE")),
        (None, {"CDPILOT_MODE": "Smart"}, ("smart", "CDPILOT_MODE")),
        (None, {"USE_LEGACY_TOOLS": "true"}, ("legacy", "USE_LEGACY_TOOLS")),
        (None, {"USE_LEGACY_TOOLS": "1"}, ("legacy", "USE_LEGACY_TOOLS")),
        (None, {"USE_LEGACY_TOOLS": "0"}, ("smart", "USE_LEGACY_TOOLS")),
        (None, {"USE_LEGACY_TOOLS": "false"}, ("smart", "USE_LEGACY_TOOLS")),
    ],
)
def test_mode_selection_order(flag: str | None, env: dict[str, str], expected: tuple[str, str]) -> None:
    assert select_mode(flag, env) == expected


@pytest.mark.parametrize(
    ("env", "named"),
    [({"CDPILOT_MODE": "turbo"}, "CDPILOT_MODE"), ({"USE_LEGACY_TOOLS": "yes"}, "USE_LEGACY_TOOLS")],
)
def test_bad_mode_values_name_the_variable_and_the_allowed_values(env: dict[str, str], named: str) -> None:
    with pytest.raises(StartupError, match=f"^{named}=.*allowed values"):
        select_mode(None, env)


def test_a_bad_mode_stops_the_server_at_start_up() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cdpilot.cli"],
        env={"USE_LEGACY_TOOLS": "maybe", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "USE_LEGACY_TOOLS='maybe' is not valid; allowed values: true, 1 (legacy), false, 0 (smart)" in proc.stderr
