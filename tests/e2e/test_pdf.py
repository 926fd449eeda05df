"""Saving the page as a PDF in both modes, through the real server on a real Chromium; the
files are read back for their pages and their paper's orientation."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE, html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PROMPT_S = 3.0  # "answers promptly": far below any default timeout
MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]")
PAGES_SAID = re.compile(r": (\d+) pages?, ")
PAGES = {
    **SITE,
    "/tall": (200, "text/html", html("Tall", "<div style='height:5000px;background:linear-gradient(red,blue)'></div>")),
}


def media_boxes(data: bytes) -> list[tuple[float, float]]:
    """(width, height) in points of each page's paper."""
    return [(float(width), float(height)) for width, height in MEDIA_BOX.findall(data)]


def pages_said(answer: str) -> int:
    match = PAGES_SAID.search(answer)
    assert match is not None, answer
    return int(match[1])


async def test_a_tall_page_is_saved_as_a_pdf_of_several_pages(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    answer = await client.ok("save_pdf", path="docs/tall.pdf")
    saved = output_dir / client.mode / "docs" / "tall.pdf"
    match = re.fullmatch(
        rf"Saved a PDF of {site_url}/tall to {saved}: (\d+) pages, ([\d,]+) bytes \(\d+ KB\) \(letter, portrait\)\.",
        answer,
    )
    assert match is not None, answer
    data = saved.read_bytes()
    assert int(match[2].replace(",", "")) == len(data)  # to the byte
    assert data.startswith(b"%PDF-")
    boxes = media_boxes(data)
    assert len(boxes) == int(match[1]) > 1
    assert all(width < height for width, height in boxes)


async def test_landscape_turns_the_paper(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    portrait = await client.ok("save_pdf", path="portrait.pdf")
    answer = await client.ok("save_pdf", path="landscape.pdf", landscape=True)
    assert answer.endswith(" (letter, landscape).")
    boxes = media_boxes((output_dir / client.mode / "landscape.pdf").read_bytes())
    assert boxes and all(width > height for width, height in boxes)
    assert (
        pages_said(answer)
        > pages_said(portrait)
        == len(media_boxes((output_dir / client.mode / "portrait.pdf").read_bytes()))
    )


async def test_paper_landscape_and_scale_shape_the_pdf(client: ModeClient, site_url: str, output_dir: Path) -> None:
    """Both modes take them (smart's page(action="pdf") too); print_background stays legacy-only."""
    await client.ok("navigate", url=f"{site_url}/tall")
    full = await client.ok("save_pdf", path="a4-full.pdf", paper="a4", landscape=True)
    assert full.endswith(" (a4, landscape)."), full
    answer = await client.ok("save_pdf", path="a4.pdf", paper="a4", landscape=True, scale=0.5)
    assert answer.endswith(" (a4, landscape)."), answer
    boxes = media_boxes((output_dir / client.mode / "a4.pdf").read_bytes())
    assert boxes and all(abs(width - 11.69 * 72) < 1 and abs(height - 8.27 * 72) < 1 for width, height in boxes)
    assert len(boxes) == pages_said(answer) < pages_said(full)  # half the scale: fewer pages for the same page
    if await client.refused_in_smart("save_pdf", path="plain.pdf", print_background=False):
        return
    assert (await client.ok("save_pdf", path="plain.pdf", print_background=False)).endswith(" (letter, portrait).")


async def test_a_path_outside_the_output_dir_is_refused(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await client.ok("navigate", url=f"{site_url}/tall")
    before = sorted(output_dir.parent.rglob("*"))
    for path in ["../x.pdf", "a/../../x.pdf", "/tmp/x.pdf", str(output_dir.parent / "abs.pdf")]:
        kind, text = await client.error("save_pdf", path=path)
        assert kind == "VALIDATION" and "- path: expected a relative path inside the output directory" in text
    assert sorted(output_dir.parent.rglob("*")) == before
    assert not Path("/tmp/x.pdf").exists()


async def test_an_open_dialog_is_said_at_once(client: ModeClient, site_url: str, output_dir: Path) -> None:
    await client.ok("navigate", url=f"{site_url}/dialogs")
    await client.ok("click_element", selector="#alert-btn")
    started = time.monotonic()
    kind, text = await client.error("save_pdf", path="dialog.pdf")
    assert kind == "STATE" and 'An alert dialog is open: "Hello alert"' in text, text
    assert time.monotonic() - started < PROMPT_S
    assert not (output_dir / client.mode / "dialog.pdf").exists()
    assert "Accepted the alert" in await client.ok("handle_dialog")
