"""What the page looks like: screenshots, and the viewport and media it is rendered for.

A screenshot covers the viewport (without scrollbars), the whole page (``captureBeyondViewport`` with a clip of
the content size, so Chrome renders past the window instead of us scrolling and stitching)
or one element (the first visible match, scrolled into view, clipped to its box in
document coordinates). Emulation overrides last as long as the page session.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Literal

from cdpilot.browser.own_scripts import own_expression
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, ExecutionError, FieldProblem, StateError

ImageFormat = Literal["jpeg", "png", "webp"]
MAX_FULL_PAGE_PX = 16384  # Chrome's largest texture: taller pages are cut here
MEDIA_FEATURES = ("prefers-color-scheme", "prefers-reduced-motion")

# The first visible match of a selector, scrolled into view; its box in document coordinates.
_FIND_ELEMENT = """(() => {
  let all;
  try { all = document.querySelectorAll(%s); } catch (e) { return {invalid: String(e.message)}; }
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !el.checkVisibility({visibilityProperty: true})) continue;
    el.scrollIntoView({block: "center", inline: "center"});
    const b = el.getBoundingClientRect();
    return {x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height};
  }
  return {matched: all.length};
})()"""


@dataclass(frozen=True)
class Screenshot:
    data_base64: str  # as Chrome sent it: handed on to the client without re-encoding
    format: ImageFormat
    width: int  # CSS pixels of the captured area
    height: int
    subject: str  # viewport | full page | the element's selector
    cut: bool = False  # a full page taller than MAX_FULL_PAGE_PX

    @property
    def mime_type(self) -> str:
        return f"image/{self.format}"

    @property
    def size_bytes(self) -> int:
        return len(self.data_base64) * 3 // 4 - self.data_base64[-2:].count("=")


async def _evaluate(conn: BrowserConnection, expression: str) -> Any:
    reply = await conn.features.unless_blocked(
        conn.page.send(
            "Runtime.evaluate", {"expression": own_expression(expression), "returnByValue": True, "silent": True}
        )
    )
    if "exceptionDetails" in reply:
        raise ExecutionError(f"The page failed to evaluate a helper: {reply['exceptionDetails'].get('text')}")
    return reply["result"].get("value")


async def _element_clip(conn: BrowserConnection, selector: str) -> dict[str, float]:
    found = await _evaluate(conn, _FIND_ELEMENT % json.dumps(selector))
    if "invalid" in found:
        raise ArgumentError(
            "The selector is not valid CSS.",
            problems=[FieldProblem("selector", "a valid CSS selector", found["invalid"])],
        )
    if "matched" in found:
        matched = found["matched"]
        detail = "nothing matches it" if matched == 0 else f"all {matched} matches are hidden or empty"
        raise StateError(
            f"No visible element to screenshot: {detail}.",
            suggestion="Find a selector that matches a visible element with {tool:query_elements}.",
        )
    return {key: float(found[key]) for key in ("x", "y", "width", "height")}


async def screenshot(
    conn: BrowserConnection,
    *,
    image_format: ImageFormat = "jpeg",
    quality: int = 80,
    full_page: bool = False,
    selector: str | None = None,
) -> Screenshot:
    """Capture the viewport, the whole page or the first visible element matching `selector`."""
    params: dict[str, Any] = {"format": image_format}
    if image_format != "png":
        params["quality"] = quality
    cut = False
    if selector is not None:
        clip = await _element_clip(conn, selector)
        subject = selector
    else:
        metrics = await conn.page.send("Page.getLayoutMetrics")
        if full_page:
            content = metrics["cssContentSize"]
            height = math.ceil(content["height"])
            cut = height > MAX_FULL_PAGE_PX
            clip = {"x": 0.0, "y": 0.0, "width": math.ceil(content["width"]), "height": min(height, MAX_FULL_PAGE_PX)}
            subject = "full page"
        else:
            view = metrics["cssVisualViewport"]
            clip = {
                "x": view["pageX"],
                "y": view["pageY"],
                "width": view["clientWidth"],
                "height": view["clientHeight"],
            }
            subject = "viewport"
    params.update(clip={**clip, "scale": 1}, captureBeyondViewport=subject != "viewport")
    reply = await conn.features.unless_blocked(conn.page.send("Page.captureScreenshot", params))
    return Screenshot(reply["data"], image_format, round(clip["width"]), round(clip["height"]), subject, cut)


async def set_viewport(
    conn: BrowserConnection, *, width: int, height: int, device_scale_factor: float, mobile: bool
) -> tuple[int, int]:
    """Override the viewport; returns the page's innerWidth and innerHeight afterwards."""
    await conn.page.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": device_scale_factor, "mobile": mobile},
    )
    inner = await _evaluate(conn, "[innerWidth, innerHeight]")
    return int(inner[0]), int(inner[1])


async def emulate_media(
    conn: BrowserConnection, *, media: str | None, color_scheme: str | None, reduced_motion: str | None
) -> None:
    """Emulate a CSS media type and media features; an omitted one is reset to the real value."""
    values = (color_scheme, reduced_motion)
    features = [{"name": name, "value": value or ""} for name, value in zip(MEDIA_FEATURES, values, strict=True)]
    await conn.page.send("Emulation.setEmulatedMedia", {"media": media or "", "features": features})
