"""Rendering tools (smart: `page`): screenshots, viewport size and media emulation.

A screenshot answers as MCP image content by default; with `path` it is written under the
output directory instead and only the path comes back, which keeps large images out of
the conversation.
"""

from __future__ import annotations

import asyncio
import base64
from pathlib import PurePosixPath

from cdpilot_generated.models import BrowserEmulateMediaArgs, BrowserScreenshotArgs, BrowserSetViewportArgs

from cdpilot.answers.pages import (
    media_answer,
    saved_screenshot_answer,
    screenshot_answer,
    screenshot_description,
    viewport_answer,
)
from cdpilot.browser.page import capture
from cdpilot.browser.page.page_facts import ImageFormat
from cdpilot.context import Image, ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem
from cdpilot.handlers.common import browser
from cdpilot.output_files import check_output_path, write_output
from cdpilot.text import human_size

FORMAT_OF_SUFFIX: dict[str, ImageFormat] = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


def _image_format(args: BrowserScreenshotArgs) -> ImageFormat:
    """The format asked for; when only a path is given, the one its extension names."""
    if "format" not in args.model_fields_set and args.path is not None:
        return FORMAT_OF_SUFFIX.get(PurePosixPath(args.path).suffix.lower(), args.format)
    return args.format


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
    )
    if args.path is not None:
        data = base64.b64decode(shot.data_base64)
        path = await asyncio.to_thread(write_output, ctx.settings.output_dir, args.path, data, field="path")
        return ToolResult(saved_screenshot_answer(shot, str(path)))
    limit = ctx.settings.max_inline_image_bytes
    if shot.size_bytes > limit:
        raise ArgumentError(
            f"The screenshot of {screenshot_description(shot)} is too large to answer inline "
            f"(limit {human_size(limit)}).",
            problems=[FieldProblem("path", f"a file to write it to (images over {human_size(limit)})", "nothing")],
            suggestion="Save it with path=… (under the output directory), or make it smaller: format=jpeg with "
            "a lower quality, no full_page, or one element with selector=….",
        )
    return ToolResult(screenshot_answer(shot), images=(Image(shot.data_base64, shot.mime_type),))


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
