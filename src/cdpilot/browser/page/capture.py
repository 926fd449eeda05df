"""What the page looks like: screenshots, and the viewport and media it is rendered for.

A screenshot covers the viewport (without scrollbars), the whole page (``captureBeyondViewport`` with a clip of
the content size, so Chrome renders past the window instead of us scrolling and stitching)
or one element (the first visible match, scrolled into view, clipped to its box in
document coordinates). Emulation overrides last as long as the page session.
"""

from __future__ import annotations

import json
import math
from typing import Any

from cdpilot import progress
from cdpilot.browser.own_scripts import own_expression, page_script
from cdpilot.browser.page.page_facts import ImageFormat, MediaEmulation, Screenshot, ScreenshotArea, ViewportSet
from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.errors import ArgumentError, ExecutionError, FieldProblem, StateError

MAX_FULL_PAGE_PX = 16384  # Chrome's largest texture: taller pages are cut here
MEDIA_FEATURES = ("prefers-color-scheme", "prefers-reduced-motion")


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
    found = await _evaluate(conn, f"(\n{page_script('visible_element_box')}\n)({json.dumps(selector)})")
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
    kept_quality = None if image_format == "png" else quality  # png is lossless: Chrome takes no quality
    cut_at: int | None = None
    area: ScreenshotArea
    if selector is not None:
        clip, area = await _element_clip(conn, selector), "element"
    else:
        metrics = await conn.page.send("Page.getLayoutMetrics")
        if full_page:
            content = metrics["cssContentSize"]
            clip, area = _full_page_clip(content), "full page"
            await progress.report(f"Capturing the full page ({math.ceil(content['height'])} px tall)")
            cut_at = MAX_FULL_PAGE_PX if math.ceil(content["height"]) > MAX_FULL_PAGE_PX else None
        else:
            view = metrics["cssVisualViewport"]
            clip = {
                "x": view["pageX"],
                "y": view["pageY"],
                "width": view["clientWidth"],
                "height": view["clientHeight"],
            }
            area = "viewport"
    params: dict[str, Any] = {"format": image_format, "clip": {**clip, "scale": 1}}
    if kept_quality is not None:
        params["quality"] = kept_quality
    params["captureBeyondViewport"] = area != "viewport"
    reply = await conn.features.unless_blocked(conn.page.send("Page.captureScreenshot", params))
    return Screenshot(
        data_base64=reply["data"],
        format=image_format,
        quality=kept_quality,
        width=round(clip["width"]),
        height=round(clip["height"]),
        area=area,
        selector=selector,
        cut_at_px=cut_at,
    )


def _full_page_clip(content: dict[str, float]) -> dict[str, float]:
    """The whole content, no taller than Chrome can capture."""
    height = math.ceil(content["height"])
    return {"x": 0.0, "y": 0.0, "width": math.ceil(content["width"]), "height": min(height, MAX_FULL_PAGE_PX)}


async def set_viewport(
    conn: BrowserConnection, *, width: int, height: int, device_scale_factor: float, mobile: bool
) -> ViewportSet:
    """Override the viewport; answers with the page's innerWidth and innerHeight afterwards."""
    await conn.page.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": device_scale_factor, "mobile": mobile},
    )
    inner = await _evaluate(conn, "[innerWidth, innerHeight]")
    return ViewportSet(width, height, device_scale_factor, mobile, int(inner[0]), int(inner[1]))


async def emulate_media(
    conn: BrowserConnection, *, media: str | None, color_scheme: str | None, reduced_motion: str | None
) -> MediaEmulation:
    """Emulate a CSS media type and media features; an omitted one is reset to the real value."""
    values = (color_scheme, reduced_motion)
    features = [{"name": name, "value": value or ""} for name, value in zip(MEDIA_FEATURES, values, strict=True)]
    await conn.page.send("Emulation.setEmulatedMedia", {"media": media or "", "features": features})
    return MediaEmulation(media or None, color_scheme or None, reduced_motion or None)
