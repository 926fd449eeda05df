"""The launcher's reaper (the profile's last line of defence when the server dies), against a
stand-in browser group whose helper outlives it on purpose: the race that left a real
profile behind, made certain instead of likely. No Chromium needed."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

from cdpilot.browser.session.process_groups import start_reaper

# A "browser" whose helper outlives it, as Chromium's network service does when the browser is
# SIGKILLed: it keeps writing its cache index into the profile until it is killed itself.
# It prints the helper's pid, then the leader becomes `sleep` (same pid, same group).
BROWSER_WITH_HELPER = (
    '(while :; do mkdir -p "$1/Default/Cache" && : > "$1/Default/Cache/the-real-index"; sleep 0.01; done) '
    ">/dev/null & echo $!; exec sleep 300 >/dev/null"
)


@contextlib.contextmanager
def reaper_of(group: int, profile: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The reaper for this group and profile; ended (by its pid) if a test leaves it running."""
    reaper = start_reaper(group, str(profile))
    try:
        yield reaper
    finally:
        if reaper.poll() is None:
            reaper.kill()
        reaper.wait()


def exited(pidfd: int, timeout_s: float) -> bool:
    return bool(select.select([pidfd], [], [], timeout_s)[0])


def server_dies(reaper: subprocess.Popen[bytes]) -> None:
    """What the reaper sees when the server is gone, however it went: end-of-file."""
    assert reaper.stdin is not None
    reaper.stdin.close()


def test_the_reaper_kills_a_helper_that_outlives_the_browser_before_removing_the_profile(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    browser = subprocess.Popen(
        ("/bin/sh", "-c", BROWSER_WITH_HELPER, "browser", str(profile)),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert browser.stdout is not None
    helper = os.pidfd_open(int(browser.stdout.readline()))  # a pidfd: the pid may be reused later
    browser.stdout.close()
    try:
        with reaper_of(browser.pid, profile) as reaper:
            browser.kill()  # the browser dies first (PDEATHSIG); its helper lives on
            browser.wait()
            server_dies(reaper)
            reaper.wait(10)
        assert exited(helper, timeout_s=2), "the reaper left the browser's helper running"
        assert not profile.exists(), "the temp profile was left behind"
    finally:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(helper, signal.SIGKILL)
        os.close(helper)


def test_the_reaper_does_not_wait_for_zombies(tmp_path: Path) -> None:
    """A dead helper may stay a zombie until init reaps it: that must not hold up the removal
    (nor `kill_now`, which waits for the reaper to exit)."""
    profile = tmp_path / "profile"
    profile.mkdir()
    browser = subprocess.Popen(("sleep", "300"), start_new_session=True)
    try:
        with reaper_of(browser.pid, profile) as reaper:
            browser.kill()  # not reaped: a zombie in its group until the end of the test
            server_dies(reaper)
            reaper.wait(1.5)  # it gives a live group 2 s
        assert not profile.exists()
    finally:
        browser.kill()
        browser.wait()
