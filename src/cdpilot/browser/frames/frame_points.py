"""Where a point of a cross-origin iframe is in the page, and whether the page lets it through.

An in-process iframe of another origin (same site) shares its page's coordinates: only its
offset is needed, for its own scripts' hit test (`frame_origin`).

In an out-of-process frame ``DOM.getContentQuads`` answers in the frame's own viewport, but
input goes to the page (``Input.dispatchMouseEvent`` on the page's session), and the browser
routes it into whatever frame is under the point, typing to the focused element wherever it
is. So the point is carried out through each iframe on the way, adding the iframe's content
box (``DOM.getBoxModel`` of its element, in its parent's viewport). On the way out each iframe
element must be what its parent hits at that point: an overlay over the iframe would take
the click instead.
"""

from __future__ import annotations

from cdpilot.browser.frames.frame_search import FrameHop
from cdpilot.browser.own_scripts import own_function, page_script
from cdpilot.browser.target import Target


async def scroll_frames_into_view(conn: Target, hops: tuple[FrameHop, ...]) -> None:
    """Scroll each iframe on the way into its parent's view, outermost first."""
    for hop in hops:
        node = await _owner(conn, hop)
        await conn.features.unless_blocked(hop.parent.send("DOM.scrollIntoViewIfNeeded", node))


async def frame_origin(conn: Target, hops: tuple[FrameHop, ...]) -> tuple[float, float]:
    """Where the innermost frame's viewport starts in its process's: an in-process frame of
    another origin shares its process's coordinates, which its own scripts cannot convert
    (the frames around it are not theirs to read); (0, 0) for any other frame."""
    if not hops or not hops[-1].local:
        return 0.0, 0.0
    node = await _owner(conn, hops[-1])
    content = (await conn.features.unless_blocked(hops[-1].parent.send("DOM.getBoxModel", node)))["model"]["content"]
    return float(content[0]), float(content[1])


async def page_point(conn: Target, hops: tuple[FrameHop, ...], x: float, y: float) -> tuple[float, float, str]:
    """(`x`, `y`) in the innermost out-of-process frame's viewport, in the page's; and what
    covers an iframe on the way there ("" when nothing does). An in-process iframe's box is in
    its process's coordinates already; each iframe element is hit-tested in the viewport of the
    document holding it."""
    blocked = conn.features.unless_blocked
    for at in reversed(range(len(hops))):
        hop = hops[at]
        node = await _owner(conn, hop)
        if not hop.local:
            content = (await blocked(hop.parent.send("DOM.getBoxModel", node)))["model"]["content"]
            x, y = x + content[0], y + content[1]
        left, top = await frame_origin(conn, hops[:at])  # of the document holding the iframe element
        object_id = (await blocked(hop.parent.send("DOM.resolveNode", node)))["object"]["objectId"]
        params = {
            "functionDeclaration": own_function(page_script("hit_target")),
            "objectId": object_id,
            "arguments": [{"value": x - left}, {"value": y - top}],
            "returnByValue": True,
            "silent": True,
        }
        try:
            covering = (await blocked(hop.parent.send("Runtime.callFunctionOn", params)))["result"].get("value")
        finally:
            await hop.parent.send("Runtime.releaseObject", {"objectId": object_id})
        if covering:
            return x, y, str(covering)
    return x, y, ""


async def _owner(conn: Target, hop: FrameHop) -> dict[str, int]:
    """The iframe element of `hop`, as DOM commands of its parent's session take it."""
    owner = await conn.features.unless_blocked(hop.parent.send("DOM.getFrameOwner", {"frameId": hop.frame_id}))
    return {"backendNodeId": int(owner["backendNodeId"])}
