"""Start a local Chromium that speaks CDP on a private pipe, and make sure it dies with us.

The browser must never outlive the server (no orphan process, no leftover profile), so there
are four belts:

1. ``--remote-debugging-pipe``: Chromium exits when its command pipe closes, which the
   kernel does for us even if the server is SIGKILLed.
2. ``PR_SET_PDEATHSIG`` (Linux): the kernel SIGKILLs the browser when the thread that
   started it ends. The event loop's thread starts it and lives as long as the server.
3. Its own process group (``start_new_session``): one ``killpg`` ends the browser and
   every helper process it forked (zygotes, renderers, GPU, network service).
4. Explicit shutdown: `LaunchedBrowser.stop` (graceful) and `LaunchedBrowser.kill_now`
   (synchronous, for atexit and signal handlers).

The leader is reaped only after the group has been killed: until then its pid (which is
the group id) cannot be reused, so ``killpg`` can never hit a stranger.

Nor may its temp files. Chromium makes its singleton socket directory
(``org.chromium.Chromium.*``) under $TMPDIR and removes it only when it exits cleanly, which
a killed browser never does. So every launch has a scratch directory of ours, which holds
Chromium's TMPDIR and is removed when the browser is gone: the temp profile itself, or, when
the user gave a profile (which is kept), a separate temp directory.

A SIGKILLed server cleans up nothing. So each launch also starts a tiny reaper
(`process_groups.start_reaper`, shared with the Node.js programs cdpilot runs) that kills
what is left of the group and removes the scratch directory once the server is gone,
however it went.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.process_groups import (
    arm_parent_death,
    kill_group,
    release_reaper,
    start_reaper,
    wait_group_gone,
)
from cdpilot.errors import BrowserConnectionError

if TYPE_CHECKING:
    from cdpilot.cdp.pipe import PipeTransport

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")
# Read by an agent that can install nothing itself: it says what its user can do, in the words of
# each place (a package, a server flag, a variable of the client's MCP config); the last sentence
# is left out in smart mode, whose chrome tool does not take executable_path.
INSTALL_HINT = (
    "Install one (Debian: `apt-get install chromium`; Ubuntu: `snap install chromium`), or name a Chrome, "
    "Chromium or Edge binary with the server's `--executable-path PATH` flag or its CDPILOT_CHROME_PATH "
    "variable (the `args` or `env` of the client's MCP server config). "
    "{tool:chrome_launch} also takes one as {param:chrome_launch.executable_path}."
)
GRACEFUL_EXIT_S = 5.0
SCREEN_MARGIN_PX = 400  # room above a headless viewport for the browser's UI (about 150 px today)
KILL_EXIT_S = 5.0
STDERR_TAIL_BYTES = 4096
# Headless Chromium still builds each window's omnibox popup, a WebUI with a renderer process
# of its own (about 45 MiB each) that nobody can ever open. Every browser context gets a window,
# so in a shared browser this was two thirds of what a session's context cost.
HEADLESS_FEATURES_OFF = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"

TMP_SUBDIR = "tmp"  # Chromium's TMPDIR, inside the scratch directory
# Chromium's singleton socket is $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket, and a Unix
# socket path holds at most 107 bytes on Linux: Chromium aborts at start on a longer one.
SOCKET_PATH_MAX = 107
SINGLETON_SOCKET_TAIL = len("/org.chromium.Chromium.XXXXXX/SingletonSocket")
NO_DISPLAY_HINT = (
    "Launch it headless (the default), or give the server a display: run it in a desktop session or under `xvfb-run`."
)


@dataclass(frozen=True)
class LaunchPlan:
    """Everything needed to start the browser, decided before anything is spawned."""

    executable: str
    args: tuple[str, ...]
    env: Mapping[str, str]  # the browser's environment, see `browser_env`
    profile_dir: str
    scratch_dir: str  # ours alone, removed when the browser is gone: see `make_scratch_dir`

    @property
    def owns_profile(self) -> bool:
        """A temp profile of ours (the scratch directory itself), not one the user keeps."""
        return self.profile_dir == self.scratch_dir

    def discard(self) -> None:
        """Remove the scratch directory of a browser that never started."""
        shutil.rmtree(self.scratch_dir, ignore_errors=True)


def make_scratch_dir(user_data_dir: str | None) -> str:
    """A new directory in the system temp dir, with Chromium's TMPDIR (`TMP_SUBDIR`) inside.

    Without a `user_data_dir` it is also the temp profile; with one, it is a directory of its
    own, so that the TMPDIR can be removed while the user's profile is kept."""
    scratch_dir = tempfile.mkdtemp(prefix="cdpilot-profile-" if user_data_dir is None else "cdpilot-scratch-")
    os.mkdir(os.path.join(scratch_dir, TMP_SUBDIR))
    return scratch_dir


def browser_env(env: Mapping[str, str], scratch_dir: str) -> dict[str, str]:
    """`env` with TMPDIR in our scratch directory: whatever Chromium leaves there (its
    singleton socket directory after a kill) goes with the directory, not into the system's.

    Unless the system temp dir's path is so long that the socket's would not fit below ours:
    then Chromium keeps the system's TMPDIR, as it could not start at all with ours."""
    tmp_dir = os.path.join(scratch_dir, TMP_SUBDIR)
    if len(os.fsencode(tmp_dir)) + SINGLETON_SOCKET_TAIL > SOCKET_PATH_MAX:
        return dict(env)
    return {**env, "TMPDIR": tmp_dir}


def find_browser(executable_path: str | None, env: Mapping[str, str]) -> str:
    """The browser binary: `executable_path`, else $CDPILOT_CHROME_PATH, else one on PATH."""
    search_path = env.get("PATH", os.defpath)
    for source, candidate in (
        ("the executable path", executable_path),
        ("CDPILOT_CHROME_PATH", env.get("CDPILOT_CHROME_PATH")),
    ):
        if candidate:
            found = shutil.which(candidate, path=search_path)
            if found is None:
                raise BrowserConnectionError(
                    f"The browser given by {source} ({candidate}) is not an executable file.", suggestion=INSTALL_HINT
                )
            return found
    for name in BROWSER_NAMES:
        found = shutil.which(name, path=search_path)
        if found is not None:
            return found
    raise BrowserConnectionError(
        f"No Chrome or Chromium found: none of {', '.join(BROWSER_NAMES)} is on PATH.", suggestion=INSTALL_HINT
    )


def args_from_env(env: Mapping[str, str]) -> tuple[str, ...]:
    """The shell-style words of $CDPILOT_CHROME_ARGS, added to every launch."""
    try:
        return tuple(shlex.split(env.get("CDPILOT_CHROME_ARGS", "")))
    except ValueError as exc:
        raise BrowserConnectionError(f"CDPILOT_CHROME_ARGS is not valid shell words ({exc}).") from exc


def require_display(headless: bool, user_args: tuple[str, ...], env: Mapping[str, str]) -> None:
    """Refuse a headed launch on Linux without a display before spawning anything: Chromium
    would die at start with "Missing X server or $DISPLAY" amid other noise. A ``--headless``
    among the user's own flags makes the launch headless after all."""
    if headless or not sys.platform.startswith("linux") or any(arg.startswith("--headless") for arg in user_args):
        return
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        raise BrowserConnectionError(
            "Cannot start a headed browser: no display was found (neither DISPLAY nor WAYLAND_DISPLAY is set).",
            suggestion=NO_DISPLAY_HINT,
        )


def option_args(options: LaunchOptions) -> tuple[str, ...]:
    """The flags of the launch options, each left out when its option is.

    The window starts at `viewport`; once the browser answers, `fit_window` grows it by the
    height of the browser's own UI, which headless Chromium draws inside the window too (its
    height varies with the version), so the page gets exactly `viewport`. Headless, the
    screen is made at least 1920×1080 and taller than that window: the default 800×600
    screen would be smaller than the page, and would clamp the grown window."""
    args: list[str] = []
    if options.viewport is not None:
        width, height = options.viewport
        args.append(f"--window-size={width},{height}")
        if options.headless:
            args.append(f"--screen-info={{{max(1920, width)}x{max(1080, height + SCREEN_MARGIN_PX)}}}")
    if options.user_agent:
        args.append(f"--user-agent={options.user_agent}")
    if options.proxy_server:
        args.append(f"--proxy-server={options.proxy_server}")
    if options.ignore_https_errors:
        args.append("--ignore-certificate-errors")
    return tuple(args)


def browser_args(
    *,
    profile_dir: str,
    headless: bool,
    options: tuple[str, ...],
    env_args: tuple[str, ...],
    extra_args: tuple[str, ...],
    start_url: str,
) -> tuple[str, ...]:
    """Chromium's command line: ours, then the `options` (`option_args`), then the user's.
    Chromium takes the last of a repeated flag, so $CDPILOT_CHROME_ARGS and `extra_args`
    override everything before them."""
    args = ["--remote-debugging-pipe", f"--user-data-dir={profile_dir}"]
    if headless:
        args += ["--headless", HEADLESS_FEATURES_OFF]
    args += ["--no-first-run", "--no-default-browser-check"]
    if os.geteuid() == 0:
        # Chromium refuses to start as root with its sandbox on ("Running as root without
        # --no-sandbox is not supported"); containers and CI commonly run as root.
        args.append("--no-sandbox")
    return (*args, *options, *env_args, *extra_args, start_url)


def _child_setup(command_read: int, event_write: int, parent_pid: int) -> Callable[[], None]:
    """Runs in the forked child before exec: put the pipe ends on fds 3 and 4, arm PDEATHSIG."""

    def setup() -> None:
        # Copy both ends above 4 first: one of them may already sit on 3 or 4, and
        # dup2(fd, fd) would leave its close-on-exec flag set.
        high_read = fcntl.fcntl(command_read, fcntl.F_DUPFD_CLOEXEC, 10)
        high_write = fcntl.fcntl(event_write, fcntl.F_DUPFD_CLOEXEC, 10)
        os.dup2(high_read, 3)
        os.dup2(high_write, 4)
        arm_parent_death(parent_pid)

    return setup


class LaunchedBrowser:
    """A browser process we started: its pipe, its profile, its stderr, and its end."""

    def __init__(
        self, plan: LaunchPlan, process: subprocess.Popen[bytes], stderr: IO[bytes], pipe_ends: tuple[int, int]
    ) -> None:
        self.plan = plan
        self.process = process
        self.pid = process.pid
        self._stderr = stderr
        self._pipe_ends: tuple[int, int] | None = pipe_ends
        self._cleaned = False
        self._reaper: subprocess.Popen[bytes] | None = start_reaper(self.pid, plan.scratch_dir)

    @classmethod
    def spawn(cls, plan: LaunchPlan) -> LaunchedBrowser:
        """Start the process. Synchronous, so the caller can register it for `kill_now`
        before anything else can run.

        Only inheritable descriptors cross the exec: Python creates every descriptor
        non-inheritable (PEP 446), so Chromium gets stdin/stdout/stderr and fds 3 and 4 only.
        Its stdout goes nowhere (ours is the JSON-RPC wire); stderr goes to an anonymous
        temp file, read back when start-up fails and gone with the last descriptor.
        """
        command_read, command_write = os.pipe()
        event_read, event_write = os.pipe()
        stderr = tempfile.TemporaryFile(prefix="cdpilot-browser-stderr-")  # noqa: SIM115 (lives with the browser)
        try:
            process = subprocess.Popen(
                (plan.executable, *plan.args),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=plan.env,
                close_fds=False,
                start_new_session=True,
                preexec_fn=_child_setup(command_read, event_write, os.getpid()),
            )
        except BaseException as exc:
            for fd in (command_write, event_read):
                os.close(fd)
            stderr.close()
            if isinstance(exc, OSError):  # no such binary, not executable: worded as a CDP failure is
                reason = (exc.strerror or str(exc)).lower()
                raise BrowserConnectionError(f"Cannot start the browser {plan.executable} ({reason})") from exc
            raise
        finally:
            os.close(command_read)
            os.close(event_write)
        return cls(plan, process, stderr, (event_read, command_write))

    async def open_pipe(self) -> PipeTransport:
        """The CDP transport over the browser's pipes (once: it takes over our pipe ends).

        Imported here, not with the module: the head start (`spawn_ahead`) spawns a browser
        before the CDP client is loaded, and must not wait for it."""
        from cdpilot.cdp.pipe import PipeTransport

        assert self._pipe_ends is not None, "the pipe was already opened or the browser killed"
        event_read, command_write = self._pipe_ends
        self._pipe_ends = None
        return await PipeTransport.open(event_read, command_write)

    def stderr_tail(self, max_lines: int = 12) -> str:
        """The last lines the browser wrote to stderr, for start-up failure messages.

        `os.pread` leaves the file offset alone: Chromium shares it and may still write."""
        if self._stderr.closed:  # cleaned up already, e.g. by `kill_now` during the start-up
            return ""
        fd = self._stderr.fileno()
        size = os.fstat(fd).st_size
        start = max(0, size - STDERR_TAIL_BYTES)
        lines = os.pread(fd, size - start, start).decode(errors="replace").splitlines()
        return "\n".join(line for line in lines[-max_lines:] if line.strip())

    async def stop(self) -> None:
        """End the browser once its pipe is closed, then clean up. A browser on the user's own
        profile gets time to exit by itself (it flushes cookies and history to disk); one on
        our temp profile has nothing worth saving and is killed at once."""
        if self.process.returncode is None:
            if not self.plan.owns_profile:
                await self.wait_exited(GRACEFUL_EXIT_S)
            self._kill_group()
            await self.wait_exited(KILL_EXIT_S)
        self.kill_now()

    def kill_now(self) -> None:
        """Synchronous last resort (atexit, signal handlers): SIGKILL the group, reap, clean up."""
        if self.process.returncode is None:
            self._kill_group()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(KILL_EXIT_S)
        if not self._cleaned:
            self._cleaned = True
            self._stderr.close()
            for fd in self._pipe_ends or ():
                os.close(fd)
            self._pipe_ends = None
            wait_group_gone(self.pid)  # a helper still dying could write into it
            shutil.rmtree(self.plan.scratch_dir, ignore_errors=True)
            if self._reaper is not None:  # its work is done: end-of-file lets it exit
                reaper, self._reaper = self._reaper, None
                release_reaper(reaper)

    def _kill_group(self) -> None:
        kill_group(self.pid)

    async def wait_exited(self, timeout_s: float) -> None:
        """Wait (at most `timeout_s`) until the process has exited, without reaping it: see the
        module docstring for why the reaping waits until the group is killed."""
        if self.process.returncode is not None:
            return
        import asyncio  # here, not at the top: a head start spawns before asyncio is imported

        loop = asyncio.get_running_loop()
        exited: asyncio.Future[None] = loop.create_future()

        def on_exit() -> None:
            if not exited.done():
                exited.set_result(None)

        try:
            pidfd = os.pidfd_open(self.pid)
        except ProcessLookupError:
            return  # already reaped, by something that waits for any child
        loop.add_reader(pidfd, on_exit)
        try:
            async with asyncio.timeout(timeout_s):
                await exited
        except TimeoutError:
            pass
        finally:
            loop.remove_reader(pidfd)
            os.close(pidfd)


def launchable(options: LaunchOptions, env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """The browser binary and the flags from the environment; raises if it cannot start here
    (no binary, a headed browser and no display)."""
    executable = find_browser(options.executable_path, env)
    env_args = args_from_env(env)
    require_display(options.headless, (*env_args, *options.extra_args), env)
    return executable, env_args


def spawn_browser(
    options: LaunchOptions,
    env: Mapping[str, str],
    executable: str,
    env_args: tuple[str, ...],
    start_url: str,
    origins_enforced: bool,
) -> LaunchedBrowser:
    """The browser process `options` ask for, spawned; with origin lists enforced it starts on
    about:blank (`browser_launch` sends it on once they are)."""
    scratch_dir = make_scratch_dir(options.user_data_dir)
    profile_dir = options.user_data_dir or scratch_dir
    args = browser_args(
        profile_dir=profile_dir,
        headless=options.headless,
        options=option_args(options),
        env_args=env_args,
        extra_args=options.extra_args,
        start_url="about:blank" if origins_enforced else start_url,
    )
    plan = LaunchPlan(executable, args, browser_env(env, scratch_dir), profile_dir, scratch_dir)
    try:
        return LaunchedBrowser.spawn(plan)
    except BaseException:
        plan.discard()
        raise


@dataclass(frozen=True)
class HeadStart:
    """A browser process started before the call that needs it could be served, and what for."""

    options: LaunchOptions
    process: LaunchedBrowser


def spawn_ahead(options: LaunchOptions, env: Mapping[str, str]) -> HeadStart:
    """Start the browser a first page tool will launch, on about:blank, before that call can run.

    Why: a fresh stdio server imports the MCP SDK and its handlers after the handshake; a page
    tool that arrives meanwhile waited for that, then for Chromium's start-up, one after the
    other. Spawned here (synchronously, from the standard library and the launcher only), the
    browser starts up while the modules load; `browser_launch.launch_browser` then connects to it."""
    executable, env_args = launchable(options, env)
    return HeadStart(options, spawn_browser(options, env, executable, env_args, "about:blank", origins_enforced=False))
