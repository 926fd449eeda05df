"""Launching a browser and connecting to it: the one way cdpilot starts a browser.

`ConnectionManager.launch` calls `launch_browser` for a browser of the caller's own, and
`SharedBrowser` for the browser whose contexts the HTTP sessions share. The process side
(finding the binary, the command line, the belts that end it with us) is `launcher`'s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from cdpilot.browser.page.origin_policy import OriginPolicy
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.connection_facts import ConnectionKind
from cdpilot.browser.session.frame_owners import FrameOwners
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.launcher import LaunchedBrowser, launchable, spawn_browser
from cdpilot.cdp import CdpConnection, Transport
from cdpilot.errors import BrowserConnectionError, CdpTimeoutError

EXIT_REPORT_WAIT_S = 2.0  # a browser that hung up its pipe is about to exit: let it report its code


async def launch_browser(
    options: LaunchOptions,
    start_url: str,
    *,
    claim_id: Callable[[], Awaitable[str]],
    env: Mapping[str, str],
    origins: OriginPolicy,
    output_dir: Path | None,
    launched: set[LaunchedBrowser],
    frames: FrameOwners | None = None,
    spawned: LaunchedBrowser | None = None,
) -> BrowserConnection:
    """A browser started as `options` say, connected on its pipe, its page at `start_url`
    (checked by the caller) and sized to the viewport. `spawned`: its process, started ahead
    by `launcher.spawn_ahead` for these `options` and `start_url`.

    `claim_id` names the connection once the launch can go ahead (the binary found, a display
    there if needed): a launch refused before that frees no id in use. The process is in
    `launched` from the moment it exists, so the caller's last resort can kill it even
    mid-launch; a launch that fails takes it out again, ended. `frames`: for the shared
    browser, where its frames' contexts are kept."""
    if spawned is None:
        executable, env_args = launchable(options, env)
        connection_id = await claim_id()
        process = spawn_browser(options, env, executable, env_args, start_url, origins.enforced)
    else:
        process = spawned
        connection_id = await claim_id()
    launched.add(process)
    try:
        connection = await _connect_launched(
            connection_id, process, options.timeout_ms / 1000, origins, output_dir, frames
        )
        connection.viewport = options.viewport
        await connection.fit_window()
        await _open_start_url(connection, start_url, origins)
    except BaseException:
        await process.stop()
        launched.discard(process)
        raise
    return connection


async def open_connection(
    connection_id: str,
    kind: ConnectionKind,
    transport: Transport,
    process: LaunchedBrowser | None,
    timeout_s: float,
    origins: OriginPolicy,
    output_dir: Path | None,
    frames: FrameOwners | None = None,
) -> BrowserConnection:
    """A `BrowserConnection` over `transport`, launched or attached; the transport is closed if it fails."""
    cdp = await CdpConnection.open(transport)
    try:
        return await BrowserConnection.start(
            connection_id,
            kind,
            cdp,
            process=process,
            timeout_s=timeout_s,
            origins=origins,
            output_dir=output_dir,
            frames=frames,
        )
    except BaseException:
        await cdp.close()
        raise


async def _connect_launched(
    connection_id: str,
    process: LaunchedBrowser,
    timeout_s: float,
    origins: OriginPolicy,
    output_dir: Path | None,
    frames: FrameOwners | None,
) -> BrowserConnection:
    """Start-up failures name what happened: the browser's exit code and last words."""
    try:
        pipe = await process.open_pipe()
        return await open_connection(connection_id, "launched", pipe, process, timeout_s, origins, output_dir, frames)
    except BrowserConnectionError as exc:
        await process.wait_exited(EXIT_REPORT_WAIT_S)
        last_words = process.stderr_tail() or "(nothing)"
        await process.stop()
        raise BrowserConnectionError(
            f"The browser stopped during start-up (exit code {process.process.returncode}). "
            f"Its last output:\n{last_words}"
        ) from exc
    except CdpTimeoutError as exc:
        last_words = process.stderr_tail() or "(nothing)"
        raise BrowserConnectionError(
            f"The browser did not answer within {timeout_s:g} s of starting: the machine may be overloaded. "
            f"Its last output:\n{last_words}"
        ) from exc


async def _open_start_url(connection: BrowserConnection, start_url: str, origins: OriginPolicy) -> None:
    """With origin lists, the browser starts on about:blank and is sent to `start_url` only
    once it enforces them: a page given on the command line starts loading at once, and its
    first requests could reach a blocked origin before the interception is on."""
    if origins.enforced and start_url != "about:blank":
        await connection.page.send("Page.navigate", {"url": start_url})
