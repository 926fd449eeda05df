"""What the page looks like: screenshots, and the viewport and media it is rendered for.

A screenshot covers the viewport (without scrollbars), the whole page (``captureBeyondViewport``
with a clip of the content size, so Chrome renders past the window instead of us scrolling and
stitching) or one element (the first visible match, scrolled into view, clipped to its box in
document coordinates). The viewport and media overrides are kept with the tab's other emulation (`page_emulation`),
which puts them back when cdpilot attaches to the tab again.

An image answered inline must be one a model accepts: it is shrunk to its `ImageLimits` with
the clip's ``scale`` (Chrome renders it smaller: nothing is resized here) and, for the character
limit, a lower jpeg/webp quality first. A saved image keeps full resolution and is cut only where
it cannot be had: past the largest side its format can encode, or past what one CDP message
can carry. Either way the `Screenshot` says what was done, so the answer can.
"""

from __future__ import annotations

import json
import math
from typing import Any

from cdpilot import progress
from cdpilot.browser.emulation import page_emulation
from cdpilot.browser.emulation.emulation_facts import MediaEmulation, Viewport, ViewportSet
from cdpilot.browser.own_scripts import own_expression, page_script
from cdpilot.browser.page.capture_facts import ImageFormat, ImageLimits, Screenshot, ScreenshotArea, ScreenshotCut
from cdpilot.browser.target import Target, page_of
from cdpilot.cdp import MAX_MESSAGE_BYTES
from cdpilot.errors import ArgumentError, ExecutionError, FieldProblem, StateError

MODEL_MAX_SIDE_PX = 8000
"""Model APIs refuse an image longer than this on either side (Anthropic's 8,000 px; the others
shrink well before), so no inline image is larger."""
MODEL_MAX_BASE64_CHARS = 1_000_000
"""An inline image stays in the conversation for every later turn: about 730 KB is plenty for a
sharp 2,000 px image and keeps a busy page from weighing megabytes in each request."""
OVERVIEW_SIDE_PX = 2000
"""The longest side of an inline full-page or element shot. Model vendors shrink anything larger
before the model sees it (Anthropic to 1,568 px, OpenAI to fit 2,048 px) and Anthropic refuses
images over 2,000 px in requests that carry many of them: more pixels would cost bytes, not detail."""
SIDE_LIMIT_PX: dict[ImageFormat, int | None] = {"jpeg": 65_500, "webp": 16_383, "png": None}
"""The largest side each format can encode (libjpeg's and libwebp's limits): past it Chrome answers
an empty image. PNG has none."""
WORST_CHARS_PER_PIXEL = 4  # noise, which nothing compresses: 3 bytes a pixel, as base64
MESSAGE_ROOM = 64 * 1024  # the JSON around the image in its message
MAX_CAPTURE_PIXELS = (MAX_MESSAGE_BYTES - MESSAGE_ROOM) // WORST_CHARS_PER_PIXEL
"""The most pixels a full-resolution capture may have: a reply larger than one CDP message would
end the connection, not just the call. An inline image (8,000² px at most) is always below."""
FIT_QUALITIES = (60, 40)  # tried in turn, when below the quality asked, before shrinking further
FIT_MARGIN = 0.9  # a shrink aims this much below the character limit: size does not follow area exactly
MAX_FIT_ATTEMPTS = 6  # captures to fit the character limit; one or two shrinks usually do it


async def _evaluate(conn: Target, expression: str) -> Any:
    reply = await conn.features.unless_blocked(
        page_of(conn).send(
            "Runtime.evaluate", {"expression": own_expression(expression), "returnByValue": True, "silent": True}
        )
    )
    if "exceptionDetails" in reply:
        raise ExecutionError(f"The page failed to evaluate a helper: {reply['exceptionDetails'].get('text')}")
    return reply["result"].get("value")


async def _element_clip(conn: Target, selector: str) -> dict[str, float]:
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


async def _area(conn: Target, *, full_page: bool, selector: str | None) -> tuple[dict[str, float], ScreenshotArea]:
    """The clip of what is to be captured, in CSS pixels of the document."""
    if selector is not None:
        return await _element_clip(conn, selector), "element"
    metrics = await conn.features.unless_blocked(page_of(conn).send("Page.getLayoutMetrics"))
    if full_page:
        content = metrics["cssContentSize"]
        width, height = math.ceil(content["width"]), math.ceil(content["height"])
        await progress.report(f"Capturing the full page ({height} px tall)")
        return {"x": 0.0, "y": 0.0, "width": width, "height": height}, "full page"
    view = metrics["cssVisualViewport"]
    clip = {"x": view["pageX"], "y": view["pageY"], "width": view["clientWidth"], "height": view["clientHeight"]}
    return clip, "viewport"


async def screenshot(
    conn: Target,
    *,
    image_format: ImageFormat = "jpeg",
    quality: int = 80,
    full_page: bool = False,
    selector: str | None = None,
    limits: ImageLimits | None = None,
) -> Screenshot:
    """Capture the viewport, the whole page or the first visible element matching `selector`:
    shrunk to `limits` for an inline answer, else at full resolution, cut only where it must be."""
    asked_quality = None if image_format == "png" else quality  # png is lossless: Chrome takes no quality
    clip, area = await _area(conn, full_page=full_page, selector=selector)
    ratio = float(await _evaluate(conn, "devicePixelRatio"))  # a capture is in device pixels
    cut = None
    if limits is None:
        clip, cut = _capturable(clip, ratio, image_format)
        scale = 1.0
    else:
        scale = min(1.0, limits.max_side_px / (max(clip["width"], clip["height"]) * ratio))
    used_quality = asked_quality
    data = await _capture(conn, clip, scale, image_format, used_quality, beyond_viewport=area != "viewport")
    for _ in range(MAX_FIT_ATTEMPTS - 1):
        if limits is None or len(data) <= limits.max_chars:
            break
        lower = next((q for q in FIT_QUALITIES if used_quality is not None and q < used_quality), None)
        if lower is not None:
            used_quality = lower
        else:
            scale *= math.sqrt(limits.max_chars / len(data)) * FIT_MARGIN
        data = await _capture(conn, clip, scale, image_format, used_quality, beyond_viewport=area != "viewport")
    if limits is not None and len(data) > limits.max_chars:
        raise ArgumentError(
            f"The screenshot cannot be made to fit {limits.max_chars:,} base64 characters inline.",
            problems=[FieldProblem("path", "a file to write it to", "nothing")],
            suggestion="Save it with {param:browser_screenshot.path}=… (under the output directory), or capture less: "
            "no {param:browser_screenshot.full_page}, or one element with {param:browser_screenshot.selector}=….",
        )
    shrunk = scale < 1 or used_quality != asked_quality
    return Screenshot(
        data_base64=data,
        format=image_format,
        quality=used_quality,
        width=round(clip["width"]),
        height=round(clip["height"]),
        area=area,
        selector=selector,
        image_width=_pixels(clip["width"] * ratio * scale),
        image_height=_pixels(clip["height"] * ratio * scale),
        scale=scale,
        fitted_to=limits if shrunk else None,
        asked_quality=asked_quality if used_quality != asked_quality else None,
        cut=cut,
    )


async def _capture(
    conn: Target,
    clip: dict[str, float],
    scale: float,
    image_format: ImageFormat,
    quality: int | None,
    *,
    beyond_viewport: bool,
) -> str:
    """One ``Page.captureScreenshot``: the image as base64."""
    params: dict[str, Any] = {"format": image_format, "clip": {**clip, "scale": scale}}
    if quality is not None:
        params["quality"] = quality
    params["captureBeyondViewport"] = beyond_viewport
    reply = await conn.features.unless_blocked(page_of(conn).send("Page.captureScreenshot", params))
    data = str(reply["data"])
    if not data:  # what Chrome answers when it cannot encode the image: never pass it on as one
        raise ExecutionError(f"Chrome answered an empty {image_format} image for a capture of {_size(clip)} CSS px.")
    return data


def _capturable(
    clip: dict[str, float], ratio: float, image_format: ImageFormat
) -> tuple[dict[str, float], ScreenshotCut | None]:
    """The part of `clip` that one capture at full resolution can hold (from its top left), and
    what cut it, if anything did: the format's largest side, then the largest CDP message."""
    width, height = clip["width"], clip["height"]
    cut: ScreenshotCut | None = None
    side = SIDE_LIMIT_PX[image_format]
    if side is not None and max(width, height) * ratio > side:
        width, height = min(width, math.floor(side / ratio)), min(height, math.floor(side / ratio))
        cut = ScreenshotCut(round(clip["width"]), round(clip["height"]), "format", side)
    if width * height * ratio**2 > MAX_CAPTURE_PIXELS:
        height = math.floor(MAX_CAPTURE_PIXELS / (width * ratio**2))
        cut = ScreenshotCut(round(clip["width"]), round(clip["height"]), "message", MAX_MESSAGE_BYTES)
    return {**clip, "width": width, "height": height}, cut


def _pixels(length: float) -> int:
    """Pixels of an image side, rounded as Chrome rounds a scaled clip (halves up)."""
    return math.floor(length + 0.5)


def _size(clip: dict[str, float]) -> str:
    return f"{round(clip['width'])}×{round(clip['height'])}"


async def set_viewport(
    conn: page_emulation.EmulatedTab, *, width: int, height: int, device_scale_factor: float, mobile: bool
) -> ViewportSet:
    """Override the viewport (kept with the tab's other emulation); answers with the page's
    innerWidth and innerHeight afterwards."""
    await page_emulation.set_viewport(conn, Viewport(width, height, device_scale_factor, mobile))
    inner = await _evaluate(conn, "[innerWidth, innerHeight]")
    return ViewportSet(width, height, device_scale_factor, mobile, int(inner[0]), int(inner[1]))


async def emulate_media(
    conn: page_emulation.EmulatedTab, *, media: str | None, color_scheme: str | None, reduced_motion: str | None
) -> MediaEmulation:
    """Emulate a CSS media type and media features; an omitted one is reset to the real value."""
    emulation = MediaEmulation(media or None, color_scheme or None, reduced_motion or None)
    await page_emulation.set_media(conn, emulation)
    return emulation
