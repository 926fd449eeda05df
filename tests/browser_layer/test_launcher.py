"""How the launcher finds a browser and builds its command line and environment, without starting one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import (
    HEADLESS_FEATURES_OFF,
    LaunchPlan,
    args_from_env,
    browser_args,
    browser_env,
    find_browser,
    make_scratch_dir,
    option_args,
    require_display,
)
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
    with pytest.raises(BrowserConnectionError, match="given by the executable path"):
        find_browser(str(tmp_path / "missing"), {"PATH": str(tmp_path)})


def test_the_command_line_puts_user_flags_after_ours_and_the_url_last() -> None:
    args = browser_args(
        profile_dir="/tmp/p",
        headless=True,
        options=("--user-agent=ours",),
        env_args=args_from_env({"CDPILOT_CHROME_ARGS": "--lang=fr '--user-agent=theirs'"}),
        extra_args=("--mute-audio",),
        start_url="about:blank",
    )
    ours = ["--remote-debugging-pipe", "--user-data-dir=/tmp/p", "--headless", HEADLESS_FEATURES_OFF, "--no-first-run"]
    assert args[:5] == tuple(ours) and "--no-default-browser-check" in args
    assert args[-5:] == ("--user-agent=ours", "--lang=fr", "--user-agent=theirs", "--mute-audio", "about:blank")
    assert ("--no-sandbox" in args) == (os.geteuid() == 0)
    assert not any(a.startswith("--remote-debugging-port") for a in args)


def test_headful_leaves_out_headless() -> None:
    args = browser_args(
        profile_dir="/p", headless=False, options=(), env_args=(), extra_args=(), start_url="about:blank"
    )
    assert "--headless" not in args and HEADLESS_FEATURES_OFF not in args  # a window a user sees keeps its UI


def test_each_launch_option_becomes_a_flag_and_an_unset_one_none() -> None:
    assert option_args(LaunchOptions(viewport=None)) == ()
    every = option_args(
        LaunchOptions(
            viewport=(1024, 600),
            user_agent="Agent/1.0 (test)",
            proxy_server="http://127.0.0.1:3128",
            ignore_https_errors=True,
        )
    )
    assert every == (
        "--window-size=1024,600",  # grown by the browser's UI once it runs (fit_window)
        "--screen-info={1920x1080}",  # at least that, and room for the grown window
        "--user-agent=Agent/1.0 (test)",
        "--proxy-server=http://127.0.0.1:3128",
        "--ignore-certificate-errors",
    )
    headed = option_args(LaunchOptions(headless=False, viewport=(1024, 600)))
    assert headed == ("--window-size=1024,600",)


@pytest.mark.parametrize("display", ["DISPLAY", "WAYLAND_DISPLAY"])
def test_a_headed_launch_needs_a_display(display: str) -> None:
    with pytest.raises(BrowserConnectionError) as caught:
        require_display(False, (), {"PATH": "/usr/bin", display: ""})
    assert "no display was found" in caught.value.message
    assert "headless" in caught.value.suggestion and "xvfb-run" in caught.value.suggestion
    require_display(False, (), {display: ":99"})
    require_display(True, (), {})
    require_display(False, ("--headless=new",), {})  # the user's own flag makes it headless


@pytest.mark.parametrize("user_data_dir", [None, "/home/someone/profile"])
def test_chromium_gets_a_tmpdir_inside_the_scratch_dir(user_data_dir: str | None) -> None:
    scratch_dir = make_scratch_dir(user_data_dir)
    plan = LaunchPlan(
        "chromium", (), browser_env({"LANG": "C"}, scratch_dir), user_data_dir or scratch_dir, scratch_dir
    )
    try:
        assert plan.env == {"LANG": "C", "TMPDIR": f"{scratch_dir}/tmp"}
        assert os.path.isdir(plan.env["TMPDIR"])
        prefix = "cdpilot-profile-" if user_data_dir is None else "cdpilot-scratch-"
        assert os.path.basename(scratch_dir).startswith(prefix)
        assert plan.owns_profile == (user_data_dir is None)
    finally:
        plan.discard()
    assert not os.path.exists(scratch_dir)


def test_chromium_keeps_the_system_tmpdir_when_its_socket_path_would_not_fit_below_ours() -> None:
    """Chromium aborts at start when its singleton socket's path is longer than 107 bytes."""
    env = {"TMPDIR": "/tmp"}
    fits = "/tmp/" + "x" * (107 - len("/tmp//tmp/org.chromium.Chromium.XXXXXX/SingletonSocket"))
    assert browser_env(env, fits) == {"TMPDIR": f"{fits}/tmp"}
    assert browser_env(env, fits + "x") == env
