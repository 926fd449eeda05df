"""Rendering tools (smart: `page`): screenshots, PDFs, viewport size and media emulation.

A screenshot answers as MCP image content by default, shrunk to what a model accepts (a
full page or an element to an overview size); with `path` it is written under the output
directory at full resolution instead and only the path comes back. A PDF is always written
to a file: a model cannot read one inline.
"""

from __future__ import annotations

import asyncio
import base64
import math
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from cdpilot.answers.page_answers import (
    media_answer,
    saved_pdf_answer,
    saved_screenshot_answer,
    screenshot_answer,
    viewport_answer,
)
from cdpilot.browser.page import capture, pdf
from cdpilot.browser.page.capture_facts import ImageFormat, ImageLimits
from cdpilot.context import Image, Settings, ToolContext, ToolResult
from cdpilot.handlers.common import browser
from cdpilot.output_files import check_output_path, write_output

if TYPE_CHECKING:
    from cdpilot_generated.models import (
        BrowserEmulateMediaArgs,
        BrowserScreenshotArgs,
        BrowserSetViewportArgs,
        SavePdfArgs,
    )

FORMAT_OF_SUFFIX: dict[str, ImageFormat] = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


def _image_format(args: BrowserScreenshotArgs) -> ImageFormat:
    """The format asked for; when only a path is given, the one its extension names."""
    if "format" not in args.model_fields_set and args.path is not None:
        return FORMAT_OF_SUFFIX.get(PurePosixPath(args.path).suffix.lower(), args.format)
    return args.format


def _inline_limits(args: BrowserScreenshotArgs, settings: Settings) -> ImageLimits:
    """What an inline image may be: an overview for a full page or an element (which can be any
    size), the model's limit for the viewport; never more characters than the settings allow."""
    side = capture.OVERVIEW_SIDE_PX if args.full_page or args.selector is not None else capture.MODEL_MAX_SIDE_PX
    allowed_chars = 4 * math.ceil(settings.max_inline_image_bytes / 3)  # base64 of that many bytes
    return ImageLimits(side, min(capture.MODEL_MAX_BASE64_CHARS, allowed_chars))


async def browser_screenshot(args: BrowserScreenshotArgs, ctx: ToolContext) -> ToolResult:
    image_format = _image_format(args)
    if args.path is not None:
        check_output_path(args.path, field="path")
    shot = await capture.screenshot(
        await browser(ctx, args.connection_id),
        image_format=image_format,
        quality=args.quality,
        full_page=args.full_page,
        selector=args.selector,
        limits=None if args.path is not None else _inline_limits(args, ctx.settings),
    )
    if args.path is not None:
        data = base64.b64decode(shot.data_base64)
        path = await asyncio.to_thread(write_output, ctx.settings.output_dir, args.path, data, field="path")
        return ToolResult(saved_screenshot_answer(shot, str(path)), files=(path,))
    return ToolResult(screenshot_answer(shot), images=(Image(shot.data_base64, shot.mime_type),))


async def save_pdf(args: SavePdfArgs, ctx: ToolContext) -> ToolResult:
    check_output_path(args.path, field="path")
    conn = await browser(ctx, args.connection_id)
    printed = await pdf.print_pdf(
        conn, landscape=args.landscape, print_background=args.print_background, scale=args.scale, paper=args.paper
    )
    path = await asyncio.to_thread(write_output, ctx.settings.output_dir, args.path, printed.data, field="path")
    answer = saved_pdf_answer(
        printed, url=conn.target_url or "", path=str(path), paper=args.paper, landscape=args.landscape
    )
    return ToolResult(answer, files=(path,))


async def browser_set_viewport(args: BrowserSetViewportArgs, ctx: ToolContext) -> ToolResult:
    viewport = await capture.set_viewport(
        await browser(ctx, args.connection_id),
        width=args.width,
        height=args.height,
        device_scale_factor=args.device_scale_factor,
        mobile=args.mobile,
    )
    return ToolResult(viewport_answer(viewport))


async def browser_emulate_media(args: BrowserEmulateMediaArgs, ctx: ToolContext) -> ToolResult:
    emulation = await capture.emulate_media(
        await browser(ctx, args.connection_id),
        media=args.media,
        color_scheme=args.color_scheme,
        reduced_motion=args.reduced_motion,
    )
    return ToolResult(media_answer(emulation))
