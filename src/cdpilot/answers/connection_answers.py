"""What the connection tools answer: launch, connect, list, switch, disconnect.

Every answer that names a connection shows it in the one-line form of `connection_line`,
followed by its current page: what an agent needs to pick one, nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot.browser.session.connection_facts import ConnectionInfo


def connection_line(info: ConnectionInfo) -> str:
    """``id [active] kind browser pid=… endpoint=…``, then the current page on a line of its own."""
    kind = "context of the shared browser" if info.kind == "context" else info.kind
    parts = [info.id, "[active]" if info.active else "", kind, info.browser]
    if info.pid is not None:
        parts.append(f"pid={info.pid}")
    if info.kind == "connected":
        parts.append(f"endpoint={info.endpoint}")
    line = " ".join(p for p in parts if p)
    if info.runtime == "node":
        return line + _node_text(info)
    if info.target_url is not None:
        title = f'"{info.target_title}" ' if info.target_title else ""
        line += f"\n  page: {title}{info.target_url}"
    return line


def _node_text(info: ConnectionInfo) -> str:
    """What a Node.js connection's line goes on with: its program, its processes and workers,
    or how it ended."""
    line = ""
    if info.command:
        line += f"\n  program: {info.command}"
    if info.threads:
        line += f"\n  processes: {'; '.join(info.threads)}"
    elif not info.alive:
        line += "\n  ended: " + (info.target_title or "its process has gone").replace("\n", "\n  ")
    return line


def node_started_answer(info: ConnectionInfo, *, paused: bool) -> str:
    """A program started under the inspector: what is debugged, and where its output goes."""
    then = "" if paused else " Breakpoints set now bind in every process as its files load."
    return (
        f"Started {info.command} under the Node.js inspector as connection '{info.id}' (now active). Its stdout "
        f"and stderr go to {{tool:get_console_logs}}; its process group ends on {{tool:chrome_disconnect}}.{then}\n"
        f"{connection_line(info)}"
    )


def launched_answer(info: ConnectionInfo, own_process: Sequence[str] = ()) -> str:
    """`own_process`: the options that kept a launch out of the shared browser, if any."""
    if info.kind == "context":
        head = (
            f"Opened a browser context of the shared {info.browser} as connection '{info.id}' (now active): "
            "its own tabs, cookies and storage."
        )
    else:
        head = f"Launched {info.browser} as connection '{info.id}' (now active)."
        if own_process:
            head += f" A process of its own: {', '.join(own_process)} cannot differ within the shared browser."
    return f"{head}\n{connection_line(info)}"


def connected_answer(info: ConnectionInfo) -> str:
    if info.runtime == "node":
        return (
            f"Attached to the Node.js process ({info.browser}) as connection '{info.id}' (now active): the "
            f"debugger tools, {{tool:evaluate_js}} and {{tool:get_console_logs}} work on it; it has no page.\n"
            f"{connection_line(info)}"
        )
    return f"Connected to {info.browser} as connection '{info.id}' (now active).\n{connection_line(info)}"


def connections_answer(infos: Sequence[ConnectionInfo]) -> str:
    if not infos:
        return "No connections. Launch a browser or connect to a running one."
    return f"{len(infos)} connection(s):\n" + "\n".join(connection_line(i) for i in infos)


def switched_answer(info: ConnectionInfo) -> str:
    return f"Active connection is now '{info.id}'.\n{connection_line(info)}"


def disconnected_answer(info: ConnectionInfo, active_id: str | None) -> str:
    """What letting go did (a launched browser is ended, a connected one left running) and
    which connection is active now (`active_id`, None when none is left)."""
    what = {
        "launched": "closed the browser and removed its temp profile",
        "context": "closed its browser context, with its tabs, cookies and storage",
        "connected": "detached",
    }[info.kind]
    if info.runtime == "node" and info.kind == "launched":
        what = "ended the program and its whole process group"
    tail = f" Active connection: '{active_id}'." if active_id else " No connections left."
    return f"Disconnected '{info.id}' ({what}).{tail}"
