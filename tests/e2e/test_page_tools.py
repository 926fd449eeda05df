"""Screenshots, viewport and media emulation in both modes, through the real server on a real
Chromium; images are decoded and their sizes checked against the page's own measurements."""

from __future__ import annotations

import base64
import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import ModeClient, text_of
from tests.support.site import NOISE_PAGE, SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

JPEG_MAGIC, PNG_MAGIC = b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n"
INLINE_MAX_CHARS = 1_000_000
OVERVIEW_PX = 2000
UNREADABLE = " Details are unreadable at this scale: capture one element with selector=…, or the viewport."
READ_PIXELS = """(async (src, ys) => {
  const img = new Image(); img.src = src; await img.decode();
  const c = document.createElement("canvas").getContext("2d");
  return ys.map(y => { c.drawImage(img, 5, y, 1, 1, 0, 0, 1, 1); return [...c.getImageData(0, 0, 1, 1).data]; });
})"""


def tall_page(height: int) -> bytes:
    """A page `height` px tall in bands of 1,000 px (red, green, blue, again), one element as tall."""
    bands = "".join(
        f"<div style='height:1000px;background:{('red', 'lime', 'blue')[i % 3]}'></div>" for i in range(height // 1000)
    )
    return html(f"{height} px", f"<main id='bands'>{bands}</main>", "<style>body{margin:0}</style>")


PAGES = {
    **SITE,
    "/tall": (200, "text/html", tall_page(30_000)),
    "/taller": (200, "text/html", tall_page(100_000)),
    "/noise": NOISE_PAGE,
}


async def shot(client: ModeClient, **arguments: Any) -> tuple[str, bytes, str]:
    """(text, decoded image, mime type) of an inline screenshot."""
    result = await client.call("browser_screenshot", **arguments)
    assert not result.is_error, text_of(result)
    text, image = result.content
    return text.text, base64.b64decode(image.data), image.mime_type


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from the first start-of-frame segment."""
    assert data.startswith(JPEG_MAGIC)
    at = 2
    while data[at + 1] not in (0xC0, 0xC1, 0xC2):
        at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    height, width = struct.unpack(">HH", data[at + 5 : at + 9])
    return width, height


async def test_an_inline_screenshot_is_a_jpeg_of_quality_80(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    text, image, mime = await shot(client)
    width, height = await client.js("[visualViewport.width, visualViewport.height]")
    assert re.fullmatch(rf"Screenshot of the viewport, {width}×{height}, jpeg q80, \d+ KB", text)
    assert (mime, image[:3]) == ("image/jpeg", JPEG_MAGIC)
    if await client.refused_in_smart("browser_screenshot", quality=10):
        return
    _, rough, _ = await shot(client, quality=10)
    _, fine, _ = await shot(client, quality=100)
    assert len(rough) < len(image) < len(fine)


async def test_a_png_covers_the_viewport(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/table")
    text, image, mime = await shot(client, format="png")
    assert mime == "image/png" and text.startswith("Screenshot of the viewport, ") and ", png, " in text
    assert list(png_size(image)) == await client.js("[visualViewport.width, visualViewport.height]")


async def test_a_full_page_is_taller_than_the_viewport(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/welcome")
    await client.js("document.body.style.height = '1500px'")
    text, image, _ = await shot(client, format="png", full_page=True)
    width, height = png_size(image)
    inner_height, scroll_height = await client.js("[innerHeight, document.documentElement.scrollHeight]")
    assert height > inner_height and abs(height - scroll_height) <= 1
    assert re.fullmatch(rf"Screenshot of full page, {width}×{height}, png, \d+ KB", text)


async def test_a_tall_page_is_scaled_to_an_inline_image_a_model_accepts(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    width = await client.js("document.documentElement.scrollWidth")
    result = await client.call("browser_screenshot", full_page=True)
    text, image = text_of(result), result.content[1]
    scale = OVERVIEW_PX / 30_000
    shown = (round(width * scale), OVERVIEW_PX)
    assert jpeg_size(base64.b64decode(image.data)) == shown and len(image.data) <= INLINE_MAX_CHARS
    assert text == (
        f"Screenshot of full page, {width}×30000 scaled to {shown[0]}×{shown[1]} (scale {scale:.3g}), jpeg q80, "
        f"{text.split(', jpeg q80, ')[1].split('.')[0]}. Scaled down to fit an inline image (at most 2,000 px a side "
        "and 1,000,000 base64 characters); path=… saves it as asked, at full resolution." + UNREADABLE
    )


async def test_a_tall_page_is_saved_at_full_resolution(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    width = await client.js("document.documentElement.scrollWidth")
    answer = await client.ok("browser_screenshot", full_page=True, path="tall.png")
    saved = output_dir / client.mode / "tall.png"
    said = re.fullmatch(
        rf"Saved screenshot of full page, {width}×30000, png, ([\d,]+) bytes \([\d.]+ [KM]B\) to {saved}", answer
    )
    assert said is not None and int(said[1].replace(",", "")) == saved.stat().st_size, answer
    assert png_size(saved.read_bytes()) == (width, 30_000)
    # Past 16,384 px too: the bands are all there, as the browser reads them back from the file.
    data_url = "data:image/png;base64," + base64.b64encode(saved.read_bytes()).decode()
    colors = await client.js(f"{READ_PIXELS}({json.dumps(data_url)}, [500, 16500, 29500])")
    assert colors == [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]


async def test_a_page_too_tall_for_the_format_is_cut_and_says_so(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/taller")
    width = await client.js("document.documentElement.scrollWidth")
    answer = await client.ok("browser_screenshot", full_page=True, path="taller.webp")
    assert answer.startswith(
        f"Saved screenshot of full page, {width}×16383 (cut from {width}×100000: a webp image is at most 16,383 px "
        "a side; format=png goes further), webp q80, "
    )
    webp = (output_dir / client.mode / "taller.webp").read_bytes()
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    result = await client.call("browser_screenshot", full_page=True)  # inline: scaled, never cut
    assert len(result.content[1].data) <= INLINE_MAX_CHARS
    image = base64.b64decode(result.content[1].data)
    assert jpeg_size(image)[1] == OVERVIEW_PX and "(scale 0.02)" in text_of(result) and "cut" not in text_of(result)


async def test_a_huge_element_is_scaled_like_a_full_page(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    text, image, _ = await shot(client, selector="#bands", format="png")
    assert png_size(image)[1] == OVERVIEW_PX
    assert text.startswith("Screenshot of #bands, ") and " (scale 0.0667), png, " in text


async def test_a_heavy_viewport_is_shrunk_to_the_character_limit(client: ModeClient, site_url: str) -> None:
    """Noise compresses to nothing: the jpeg's quality is lowered, then it is scaled down."""
    await client.ok("browser_set_viewport", width=1600, height=1600)
    try:
        await client.ok("navigate", url=f"{site_url}/noise")
        side = await client.js("visualViewport.width")  # 1600 less the scrollbar
        result = await client.call("browser_screenshot")
        text, image = text_of(result), result.content[1]
        assert len(image.data) <= INLINE_MAX_CHARS
        width, height = jpeg_size(base64.b64decode(image.data))
        assert width == height < side
        assert re.fullmatch(
            rf"Screenshot of the viewport, {side}×{side} scaled to {width}×{height} \(scale 0\.\d+\), "
            r"jpeg q40 \(asked q80\), \d+ KB\. Scaled down and quality lowered to fit an inline image \(at most "
            r"8,000 px a side and 1,000,000 base64 characters\); path=… saves it as asked, at full resolution\.",
            text,
        )
        _, png, _ = await shot(client, format="png")
        assert png_size(png)[0] < side
    finally:
        await client.ok("browser_set_viewport", width=1280, height=720)


async def test_an_element_screenshot_is_the_size_of_the_element(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/table")
    selector = "#users tr[data-row='150']"
    text, image, _ = await shot(client, format="png", selector=selector)
    box = await client.js(f"(r => [r.width, r.height])(document.querySelector({selector!r}).getBoundingClientRect())")
    width, height = png_size(image)
    assert abs(width - box[0]) <= 1 and abs(height - box[1]) <= 1
    assert text.startswith(f"Screenshot of {selector}, {width}×{height}, png")
    assert await client.js("scrollY") > 0  # scrolled into view to be captured


async def test_a_screenshot_is_saved_under_the_output_dir(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    result = await client.call("browser_screenshot", path="shots/home.png")
    saved = output_dir / client.mode / "shots" / "home.png"
    assert [block.type for block in result.content] == ["text", "resource_link"]  # a path and a link, no image
    said = re.fullmatch(
        rf"Saved screenshot of the viewport, \d+×\d+, png, ([\d,]+) bytes \(\d+ KB\) to {saved}", text_of(result)
    )
    assert said is not None, text_of(result)
    assert saved.read_bytes().startswith(PNG_MAGIC)
    assert int(said[1].replace(",", "")) == saved.stat().st_size  # to the byte
    await client.ok("browser_screenshot", path="home.webp")
    webp = (output_dir / client.mode / "home.webp").read_bytes()
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"


async def test_a_path_outside_the_output_dir_is_refused(client: ModeClient, output_dir: Path) -> None:
    before = sorted(output_dir.parent.rglob("*"))
    for path in ["../x.png", "a/../../x.png", "..", "/tmp/x.png", str(output_dir.parent / "abs.png")]:
        kind, text = await client.error("browser_screenshot", path=path)
        assert kind == "VALIDATION" and "- path: expected a relative path inside the output directory" in text
    assert sorted(output_dir.parent.rglob("*")) == before
    assert not Path("/tmp/x.png").exists()


async def test_no_visible_match_is_a_state_error(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/hidden")
    suggestion = "Suggestion: Find a selector that matches a visible element with query_elements()."
    kind, text = await client.error("browser_screenshot", selector="#nothing-here")
    assert kind == "STATE" and "No visible element to screenshot: nothing matches it." in text and suggestion in text
    kind, text = await client.error("browser_screenshot", selector=".action[style], [hidden]")
    assert kind == "STATE" and "all 4 matches are hidden or empty" in text
    kind, text = await client.error("browser_screenshot", selector="##")
    assert kind == "VALIDATION" and "- selector: expected a valid CSS selector" in text
    _, image, _ = await shot(client, selector="#visible-btn")
    assert image.startswith(JPEG_MAGIC)


async def test_the_viewport_can_be_resized(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    if client.mode == "smart":  # smart mode omits device_scale_factor (x-cdpilot.omit): refused by name
        kind, text = await client.error("browser_set_viewport", width=500, height=400, device_scale_factor=2)
        assert kind == "VALIDATION" and "- device_scale_factor: expected no such parameter in smart mode" in text
    ratio = 2 if client.mode == "legacy" else 1
    scale = {"device_scale_factor": ratio} if client.mode == "legacy" else {}
    answer = await client.ok("browser_set_viewport", width=500, height=400, **scale)
    assert answer == (
        f"Viewport set to 500×400 (desktop, pixel ratio {ratio}); the page now sees innerWidth 500, innerHeight 400."
    )
    assert await client.js("[innerWidth, innerHeight, devicePixelRatio]") == [500, 400, ratio]
    _, image, _ = await shot(client, format="png")
    assert png_size(image)[1] == 400 * ratio  # device pixels
    await client.ok("browser_set_viewport", width=800, height=600)
    assert await client.js("[innerWidth, devicePixelRatio]") == [800, 1]


async def test_media_can_be_emulated_and_reset(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    queries = (
        "['(prefers-color-scheme: dark)', 'print', '(prefers-reduced-motion: reduce)'].map(q => matchMedia(q).matches)"
    )
    assert await client.js(queries) == [False, False, False]
    reduced = not await client.refused_in_smart("browser_emulate_media", reduced_motion="reduce")
    motion = {"reduced_motion": "reduce"} if reduced else {}
    answer = await client.ok("browser_emulate_media", color_scheme="dark", media="print", **motion)
    said = "reduce" if reduced else "as the browser has it"
    assert answer == f"Emulating media: print, prefers-color-scheme: dark, prefers-reduced-motion: {said}"
    assert await client.js(queries) == [True, True, reduced]
    await client.ok("browser_emulate_media", color_scheme="dark")
    assert await client.js(queries) == [True, False, False]
    reset = await client.ok("browser_emulate_media")
    assert reset.endswith("prefers-reduced-motion: as the browser has it")
    assert await client.js(queries) == [False, False, False]
