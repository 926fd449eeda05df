"""Where a full-resolution screenshot must be cut: past the largest side its format can encode,
or past the pixels whose image could overflow one CDP message; nowhere else."""

from __future__ import annotations

import math

from cdpilot.browser.page.capture import MAX_CAPTURE_PIXELS, _capturable
from cdpilot.browser.page.capture_facts import ScreenshotCut
from cdpilot.cdp import MAX_MESSAGE_BYTES


def page(width: float, height: float) -> dict[str, float]:
    return {"x": 0.0, "y": 0.0, "width": width, "height": height}


def test_a_page_every_format_can_hold_is_not_cut() -> None:
    for image_format in ("jpeg", "webp", "png"):
        assert _capturable(page(1265, 16_000), 1.0, image_format) == (page(1265, 16_000), None)
    assert _capturable(page(1265, 30_000), 1.0, "png") == (page(1265, 30_000), None)


def test_a_format_cuts_at_its_largest_side_in_device_pixels() -> None:
    assert _capturable(page(1265, 30_000), 1.0, "webp") == (
        page(1265, 16_383),
        ScreenshotCut(1265, 30_000, "format", 16_383),
    )
    assert _capturable(page(400, 40_000), 2.0, "jpeg") == (
        page(400, 32_750),  # 65,500 device pixels at a pixel ratio of 2
        ScreenshotCut(400, 40_000, "format", 65_500),
    )


def test_what_could_overflow_a_message_is_cut_even_where_the_format_would_go_on() -> None:
    clip, cut = _capturable(page(1265, 100_000), 1.0, "png")
    assert clip == page(1265, math.floor(MAX_CAPTURE_PIXELS / 1265))
    assert cut == ScreenshotCut(1265, 100_000, "message", MAX_MESSAGE_BYTES)
    assert clip["width"] * clip["height"] * 4 < MAX_MESSAGE_BYTES  # noise: 4 base64 characters a pixel
    clip, cut = _capturable(page(1265, 100_000), 1.0, "jpeg")  # cut to 65,500 first, then to the message
    assert clip["height"] == math.floor(MAX_CAPTURE_PIXELS / 1265) and cut is not None and cut.by == "message"
