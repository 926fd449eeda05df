"""A tools/call result as the registry makes it: MCP's ``CallToolResult`` in its wire shape,
built without the SDK.

Why not the SDK's models: on stdio the first call is served before the SDK is imported
(importing it costs more than a browser's start), so what the registry returns must be
plain data that the fast path writes as JSON as it is. The SDK's side turns it into its own
``CallToolResult`` (`sdk_result`, over HTTP and for the calls the SDK serves), so both
paths send the same result; codegen checks, with the SDK's own per-version shaping, which
protocol versions take this shape unchanged (`cdpilot_generated.manifests.CALLED_AS_IS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TextBlock:
    text: str
    type: str = "text"

    def wire(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text}


@dataclass(frozen=True)
class ImageBlock:
    data: str
    """Base64."""
    mime_type: str
    type: str = "image"

    def wire(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "mimeType": self.mime_type}


@dataclass(frozen=True)
class LinkBlock:
    """A ``resource_link`` to a file the call wrote (`cdpilot.server.file_links`)."""

    uri: str
    name: str
    mime_type: str
    size: int
    type: str = "resource_link"

    def wire(self) -> dict[str, Any]:
        return {"type": self.type, "uri": self.uri, "name": self.name, "mimeType": self.mime_type, "size": self.size}


ContentBlock = TextBlock | ImageBlock | LinkBlock


@dataclass(frozen=True)
class CallResult:
    """What one tools/call answers; ``meta`` is the result's ``_meta`` (an error's tool, type, recoverability)."""

    content: list[ContentBlock]
    is_error: bool = False
    meta: dict[str, Any] | None = field(default=None)

    def wire(self) -> dict[str, Any]:
        """The result as the JSON-RPC reply carries it (what the SDK's ``model_dump(by_alias=True,
        exclude_none=True)`` gives for the same result, less its in-process ``resultType``)."""
        found: dict[str, Any] = {"content": [block.wire() for block in self.content], "isError": self.is_error}
        if self.meta is not None:
            found["_meta"] = self.meta
        return found
