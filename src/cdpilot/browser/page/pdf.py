"""The page printed as a PDF (``Page.printToPDF``), as Chrome's print preview would lay it out.

Chrome does not say how many pages it printed, so they are counted in the file itself: each
page is a ``/Type /Page`` object (the page tree's nodes are ``/Type /Pages``). Chrome writes
these objects uncompressed, so a match on the raw bytes finds them all.
"""

from __future__ import annotations

import base64
import re

from cdpilot.browser.page.capture_facts import PaperSize, PdfFile
from cdpilot.browser.target import Target, page_of

PAPER_INCHES: dict[PaperSize, tuple[float, float]] = {"letter": (8.5, 11), "a4": (8.27, 11.69), "legal": (8.5, 14)}
"""Width and height in portrait, as ``Page.printToPDF`` takes them."""
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![^\s()<>\[\]{}/%])")
"""``/Type /Page`` where the name ends: a PDF name runs until whitespace or a delimiter, so
``/Pages`` does not match."""


def count_pages(data: bytes) -> int:
    """The page objects in a PDF's bytes."""
    return len(PAGE_OBJECT.findall(data))


async def print_pdf(
    conn: Target, *, landscape: bool, print_background: bool, scale: float, paper: PaperSize
) -> PdfFile:
    """Print the current page; an open dialog or a new pause answers at once instead of a hang
    (printing lays the page out on its main thread)."""
    width, height = PAPER_INCHES[paper]
    params = {
        "landscape": landscape,
        "printBackground": print_background,
        "scale": scale,
        "paperWidth": width,
        "paperHeight": height,
        "transferMode": "ReturnAsBase64",
    }
    reply = await conn.features.unless_blocked(page_of(conn).send("Page.printToPDF", params))
    data = base64.b64decode(reply["data"])
    return PdfFile(data, count_pages(data))
