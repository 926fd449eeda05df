"""What the capture tools make, as plain data: screenshots (and the limits an inline one is
fitted to) and PDFs.

The modules that capture speak CDP; these facts do not, so the answer renderers can import
them without loading the protocol client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ImageFormat = Literal["jpeg", "png", "webp"]

ScreenshotArea = Literal["viewport", "full page", "element"]

PaperSize = Literal["letter", "a4", "legal"]


@dataclass(frozen=True)
class ImageLimits:
    """How large an image answered inline may be: pixels on its longest side, base64 characters."""

    max_side_px: int
    max_chars: int


@dataclass(frozen=True)
class ScreenshotCut:
    """A capture that could not cover its whole area: what the whole was, and what stopped it."""

    full_width: int  # CSS pixels of the whole area
    full_height: int
    by: Literal["format", "message"]  # the largest side the format can encode, or the largest CDP message
    limit: int  # pixels of that side, or bytes of that message


@dataclass(frozen=True)
class Screenshot:
    data_base64: str  # as Chrome sent it: handed on to the client without re-encoding
    format: ImageFormat
    quality: int | None  # jpeg and webp only: the quality it was encoded at
    width: int  # CSS pixels of the captured area
    height: int
    area: ScreenshotArea
    selector: str | None = None  # the element's selector, for an element
    image_width: int | None = None  # pixels of the image: CSS size × device pixel ratio × scale
    image_height: int | None = None
    scale: float = 1.0  # of the full resolution: below 1 when shrunk to fit `fitted_to`
    fitted_to: ImageLimits | None = None  # the inline limits it was shrunk (or its quality lowered) for
    asked_quality: int | None = None  # the quality asked for, when a lower one was used to fit
    cut: ScreenshotCut | None = None

    @property
    def mime_type(self) -> str:
        return f"image/{self.format}"

    @property
    def size_bytes(self) -> int:
        return len(self.data_base64) * 3 // 4 - self.data_base64[-2:].count("=")


@dataclass(frozen=True)
class PdfFile:
    """The page printed as a PDF: the file's bytes, and how many pages they hold."""

    data: bytes
    pages: int
