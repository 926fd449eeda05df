"""The accessibility trees page_outline reads: the page's, and each cross-origin iframe's from its own target.

One ``Accessibility.getFullAXTree`` per frame of a process: the target's own frame, then each
same-process iframe in it (``Page.getFrameTree`` lists exactly those; ``DOM.getFrameOwner``
says which iframe element holds each). With site isolation a cross-origin iframe is a target
of its own, which `ChildTargets` holds next to the session of its parent's document: its
trees are read the same way in its session, down through nested ones, under a short deadline
so one stuck frame cannot hold up the outline. A frame that cannot be read keeps the reason.

Backend node ids are only unique within one renderer, so an iframe element is known by its
session and its backend node id together (a `FrameKey`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cdpilot.browser.frames.frame_search import FRAME_FAILURES, frame_failure
from cdpilot.browser.observe.child_targets import ChildTargets
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpCommandError

# A cross-origin iframe's renderer answers in milliseconds unless it is stuck (a long script, a
# debugger pause); the outline is a quick look, so it waits less for one than the element tools
# do (`FRAME_TIMEOUT_S`), which must find the one element asked for.
FRAME_DEADLINE_S = 3.0
FrameKey = tuple[str, int]  # the session id holding an iframe element, and the element's backend node id


@dataclass
class OutlineTrees:
    """Every accessibility tree of the page, by frame id, with the session each was read in."""

    trees: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # frame id -> AX node id -> node
    sessions: dict[str, CdpSession] = field(default_factory=dict)  # frame id -> the session of its document
    frames: dict[FrameKey, str] = field(default_factory=dict)  # iframe element -> the frame id it holds
    urls: dict[str, str] = field(default_factory=dict)  # frame id -> its document's URL
    origins: dict[str, str] = field(default_factory=dict)  # frame id -> its document's security origin
    unread: dict[FrameKey, str] = field(default_factory=dict)  # iframe element -> why its frame was not read

    def parents(self) -> dict[str, str]:
        """The frame whose document holds each iframe element read, by the frame id it holds."""
        found = {}
        for tree, nodes in self.trees.items():
            for node in nodes.values():
                backend = node.get("backendDOMNodeId")
                inner = self.frames.get(frame_key(self.sessions[tree], backend)) if isinstance(backend, int) else None
                if inner is not None:
                    found[inner] = tree
        return found

    def foreign(self, frame_id: str, parent: str) -> bool:
        """The frame's document is of another origin than its parent's: the page's own search does not enter it."""
        other_target = self.sessions[frame_id] is not self.sessions[parent]
        return other_target or self.origins.get(frame_id) != self.origins.get(parent)

    def root_children(self, frame_id: str) -> list[str]:
        """The AX node ids just below the frame's root node."""
        root = next(iter(self.trees.get(frame_id, {}).values()), None)
        return [str(c) for c in root.get("childIds", ())] if root is not None else []


def frame_key(session: CdpSession, backend_id: int) -> FrameKey:
    return (session.session_id or "", backend_id)


async def read_trees(conn: Target, main_nodes: list[dict[str, Any]]) -> OutlineTrees:
    """The page's trees (its main frame's already read: `main_nodes`) and every iframe's it can reach."""
    found = OutlineTrees()
    await _read_target(conn, page_of(conn), main_nodes, found, None)
    return found


async def _read_target(
    conn: Target,
    session: CdpSession,
    main_nodes: list[dict[str, Any]],
    found: OutlineTrees,
    deadline: float | None,
) -> str:
    """Read one target's frames into `found`, then its cross-origin iframes'; its own frame id."""
    main_frame = str(main_nodes[0].get("frameId", "")) if main_nodes else ""
    found.trees[main_frame] = {str(n["nodeId"]): n for n in main_nodes}
    found.sessions[main_frame] = session
    frame_tree = (await session.send("Page.getFrameTree", timeout_s=deadline))["frameTree"]
    for described in _frames(frame_tree):
        found.urls[str(described["id"])] = str(described.get("url", ""))
        found.origins[str(described["id"])] = str(described.get("securityOrigin", ""))
    for frame_id in [str(described["id"]) for described in _frames(frame_tree)[1:]]:
        try:
            owner = await session.send("DOM.getFrameOwner", {"frameId": frame_id}, timeout_s=deadline)
            nodes = await session.send("Accessibility.getFullAXTree", {"frameId": frame_id}, timeout_s=deadline)
        except CdpCommandError:
            continue  # it went away meanwhile
        found.frames[frame_key(session, int(owner["backendNodeId"]))] = frame_id
        found.trees[frame_id] = {str(n["nodeId"]): n for n in nodes["nodes"]}
        found.sessions[frame_id] = session
    for frame in conn.features.get(ChildTargets).frames_in(session):
        try:
            owner = await session.send("DOM.getFrameOwner", {"frameId": frame.frame_id}, timeout_s=FRAME_DEADLINE_S)
        except FRAME_FAILURES:
            continue  # its iframe element went away: the walk says it was not outlined
        key = frame_key(session, int(owner["backendNodeId"]))
        try:
            reply = await frame.session.send("Accessibility.getFullAXTree", timeout_s=FRAME_DEADLINE_S)
            found.frames[key] = await _read_target(conn, frame.session, reply["nodes"], found, FRAME_DEADLINE_S)
        except FRAME_FAILURES as exc:
            found.unread[key] = frame_failure(exc)
    return main_frame


def _frames(frame_tree: dict[str, Any]) -> list[dict[str, Any]]:
    """The target's own frame, then every frame below it in its process, outer ones first."""
    found = [frame_tree["frame"]]
    for child in frame_tree.get("childFrames", ()):
        found += _frames(child)
    return found
