"""Which browser context each frame belongs to, in a browser that several connections share.

Why: the browser reports a held request (``Fetch.requestPaused``) and a download
(``Browser.downloadWillBegin``) with the id of the frame that made it, and nothing about
its browser context. A page's main frame has the id of its target, and so has an
out-of-process iframe, so the targets the browser announces (with their context) name most
frames; the frames inside a page are added by the connection that has the page open, from
its frame events. A frame named by neither is nobody's: no context's routes meet its
requests and no connection reports its downloads.
"""

from __future__ import annotations

from cdpilot.cdp import CdpEvent, CdpSession, Subscriptions


class FrameOwners:
    """Frame or target id -> the browser context id it belongs to."""

    def __init__(self) -> None:
        self._owner: dict[str, str] = {}
        self._subscriptions = Subscriptions()

    def follow(self, browser: CdpSession) -> None:
        """Learn every target's context from the browser's announcements (discovery must be on)."""
        self._subscriptions.add(
            browser,
            {
                "Target.targetCreated": self._on_target,
                "Target.targetInfoChanged": self._on_target,
                "Target.targetDestroyed": lambda event: self.forget(str(event.params["targetId"])),
            },
        )

    def stop(self) -> None:
        self._subscriptions.clear()

    def owner(self, frame_id: str) -> str | None:
        return self._owner.get(frame_id)

    def note(self, frame_id: str, context_id: str) -> None:
        self._owner[frame_id] = context_id

    def forget(self, frame_id: str) -> None:
        self._owner.pop(frame_id, None)

    def forget_context(self, context_id: str) -> None:
        """Every frame of a context that closed."""
        self._owner = {frame: owner for frame, owner in self._owner.items() if owner != context_id}

    def _on_target(self, event: CdpEvent) -> None:
        info = event.params["targetInfo"]
        if info.get("browserContextId"):
            self._owner[str(info["targetId"])] = str(info["browserContextId"])
