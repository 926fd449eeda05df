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

from cdpilot.browser.page import capture
from cdpilot.context import Image, ToolContext, ToolResult
from cdpilot.errors import ArgumentError, FieldProblem
from cdpilot.output_files import write_output
from cdpilot.text import human_size

FORMAT_OF_SUFFIX: dict[str, capture.ImageFormat] = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


def _image_format(args: BrowserScreenshotArgs) -> capture.ImageFormat:
    """The format asked for; when only a path is given, the one its extension names."""
    if "format" not in args.model_fields_set and args.path is not None:
        return FORMAT_OF_SUFFIX.get(PurePosixPath(args.path).suffix.lower(), args.format)
    return args.format


async def browser_screenshot(args: BrowserScreenshotArgs, ctx: ToolContext) -> ToolResult:
    image_format = _image_format(args)
    shot = await capture.screenshot(
        ctx.connections.get(args.connection_id),
        image_format=image_format,
        quality=args.quality,
        full_page=args.full_page,
        selector=args.selector,
    )
    quality = "" if image_format == "png" else f" q{args.quality}"
    subject = "the viewport" if shot.subject == "viewport" else shot.subject
    description = f"{subject}, {shot.width}×{shot.height}, {image_format}{quality}, {human_size(shot.size_bytes)}"
    if shot.cut:
        description += f" (cut at {capture.MAX_FULL_PAGE_PX} px: the page is taller)"
    if args.path is not None:
        data = base64.b64decode(shot.data_base64)
        path = await asyncio.to_thread(write_output, ctx.settings.output_dir, args.path, data, field="path")
        return ToolResult(f"Saved screenshot of {description} to {path}")
    limit = ctx.settings.max_inline_image_bytes
    if shot.size_bytes > limit:
        raise ArgumentError(
            f"The screenshot of {description} is too large to answer inline (limit {human_size(limit)}).",
            problems=[FieldProblem("path", f"a file to write it to (images over {human_size(limit)})", "nothing")],
            suggestion="Save it with path=… (under the output directory), or make it smaller: format=jpeg with "
            "a lower quality, no full_page, or one element with selector=….",
        )
    return ToolResult(f"Screenshot of {description}", images=(Image(shot.data_base64, shot.mime_type),))


async def browser_set_viewport(args: BrowserSetViewportArgs, ctx: ToolContext) -> ToolResult:
    inner_width, inner_height = await capture.set_viewport(
        ctx.connections.get(args.connection_id),
        width=args.width,
        height=args.height,
        device_scale_factor=args.device_scale_factor,
        mobile=args.mobile,
    )
    kind = "mobile" if args.mobile else "desktop"
    return ToolResult(
        f"Viewport set to {args.width}×{args.height} ({kind}, pixel ratio {args.device_scale_factor:g}); "
        f"the page now sees innerWidth {inner_width}, innerHeight {inner_height}."
    )


async def browser_emulate_media(args: BrowserEmulateMediaArgs, ctx: ToolContext) -> ToolResult:
    await capture.emulate_media(
        ctx.connections.get(args.connection_id),
        media=args.media,
        color_scheme=args.color_scheme,
        reduced_motion=args.reduced_motion,
    )
    shown = (
        ("media", args.media),
        ("prefers-color-scheme", args.color_scheme),
        ("prefers-reduced-motion", args.reduced_motion),
    )
    return ToolResult("Emulating " + ", ".join(f"{name}: {value or 'as the browser has it'}" for name, value in shown))
