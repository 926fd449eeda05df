"""How the launcher finds a browser and builds its command line, without starting one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cdpilot.browser.session.launcher import args_from_env, browser_args, find_browser
from cdpilot.errors import BrowserConnectionError


def executable(directory: Path, name: str) -> str:
    path = directory / name
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_the_browser_is_found_in_order_of_preference(tmp_path: Path) -> None:
    on_path = executable(tmp_path, "google-chrome")
    preferred = executable(tmp_path, "chromium-browser")
    env = {"PATH": str(tmp_path)}
    assert find_browser(None, env) == preferred  # chromium-browser comes before google-chrome
    assert find_browser(None, {**env, "CDPILOT_CHROME_PATH": on_path}) == on_path
    assert find_browser("google-chrome", {**env, "CDPILOT_CHROME_PATH": preferred}) == on_path


def test_a_missing_explicit_browser_is_not_replaced_by_another(tmp_path: Path) -> None:
    executable(tmp_path, "chromium")
    with pytest.raises(BrowserConnectionError, match="given by executable_path"):
        find_browser(str(tmp_path / "missing"), {"PATH": str(tmp_path)})


def test_the_command_line_puts_user_flags_after_ours_and_the_url_last() -> None:
    args = browser_args(
        profile_dir="/tmp/p",
        headless=True,
        env_args=args_from_env({"CDPILOT_CHROME_ARGS": "--lang=fr '--window-size=800,600'"}),
        extra_args=("--mute-audio",),
        start_url="about:blank",
    )
    ours = ["--remote-debugging-pipe", "--user-data-dir=/tmp/p", "--headless", "--no-first-run"]
    assert args[:4] == tuple(ours) and "--no-default-browser-check" in args
    assert args[-4:] == ("--lang=fr", "--window-size=800,600", "--mute-audio", "about:blank")
    assert ("--no-sandbox" in args) == (os.geteuid() == 0)
    assert not any(a.startswith("--remote-debugging-port") for a in args)


def test_headful_leaves_out_headless() -> None:
    args = browser_args(profile_dir="/p", headless=False, env_args=(), extra_args=(), start_url="about:blank")
    assert "--headless" not in args
