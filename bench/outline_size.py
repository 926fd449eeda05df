"""`python -m bench.outline_size`: how big cdpilot's page outline is next to the peers' snapshots.

The same pages are read by cdpilot (``page_outline``, legacy, default ``max_chars``; a fresh
server and headless Chromium with the test flags) and by two peer MCP servers whose snapshot
tools answer with the page's accessibility tree: playwright-mcp's ``browser_snapshot`` and
chrome-devtools-mcp's ``take_snapshot``. The peers run on node, which neither the product nor
the bench needs: their answers are committed fixtures, captured by
``tests/fixtures/peer_snapshots/rebuild.sh`` (its README names the versions and the date).
The figure is characters of answer text per page, what an agent reads, and the ratios.

Pages: the test site's login page (the one the browser scenario uses), a realistic shop page
and a page of 500 links (`tests.support.outline_pages`; there the outline stops at its
``max_chars`` and says how to see the rest), served on 127.0.0.1.

Also the time to render a cut outline of about 2,200 entries (a 120-link nav, a table of
1,000 rows with a link each): the size search that fits the map into ``max_chars`` renders it
several times, so it is given as a ratio to rendering every line of that outline once, a
figure this machine's load does not move.
"""

from __future__ import annotations

import time
from typing import Any

from bench import ROOT
from bench.overhead import CDPILOT_LEGACY
from bench.pipe import PipeServer
from bench.scenario import text_of
from cdpilot.answers.outline_answers import entry_line, outline_answer
from cdpilot.browser.outline.outline_facts import OutlineEntry, PageOutline
from tests.support.outline_pages import OUTLINE_PAGES
from tests.support.pages import PageSpec, serve_pages
from tests.support.site import PAGES as SITE_PAGES

OUTLINED = ("/login", "/outline/shop", "/outline/links")
PAGES: dict[str, PageSpec] = {"/login": SITE_PAGES["/login"], **OUTLINE_PAGES}  # the shop's iframe too
SNAPSHOTS = ROOT / "tests" / "fixtures" / "peer_snapshots"
PEERS = ("playwright-mcp", "chrome-devtools-mcp")
TABLE_ROWS = 1000
RENDER_RUNS = 5


def fixture(peer: str, page: str) -> str | None:
    """A peer's committed snapshot answer for `page`, or None when it was not captured."""
    path = SNAPSHOTS / peer / (page.strip("/").replace("/", "-") + ".txt")
    return path.read_text(encoding="utf-8") if path.exists() else None


def big_outline() -> PageOutline:
    """An outline of about 2,200 entries, shaped like the end-to-end tests' big shop page."""
    nav = [OutlineEntry("control", "link", f"Category {i}", 1, f'a[href="/c/{i}"]') for i in range(120)]
    rows = []
    for i in range(TABLE_ROWS):
        rows.append(OutlineEntry("row", "row", "", 2, "", cells=(f"A-{i}", f"Customer {i}", f"${i}.00"), inside=1))
        rows.append(OutlineEntry("control", "link", f"A-{i}", 3, f'a[href="/orders/{i}"]'))
    entries = (
        OutlineEntry("landmark", "navigation", "Catalogue", 0, 'nav[aria-label="Catalogue"]', inside=len(nav)),
        *nav,
        OutlineEntry("landmark", "main", "", 0, "#main", inside=len(rows) + 2),
        OutlineEntry("heading", "h1", "Your orders", 1, ""),
        OutlineEntry("table", "table", "Orders", 1, "#orders", inside=len(rows), cells=("Order", "Customer", "Total"),
                     rows=TABLE_ROWS),
        *rows,
    )  # fmt: skip
    return PageOutline("Big shop", "", 0, entries)


def render_ratio() -> dict[str, Any]:
    """Seconds to render the big outline cut to the default size, and to render its every line once."""
    outline = big_outline()

    def best(render: Any) -> float:
        times = []
        for _ in range(RENDER_RUNS):
            start = time.perf_counter()
            render()
            times.append(time.perf_counter() - start)
        return min(times)

    cut = best(lambda: outline_answer(outline, max_chars=4000))
    whole = best(lambda: "\n".join(entry_line(entry) for entry in outline.entries))
    return {"entries": len(outline.entries), "cut_s": cut, "whole_s": whole}


def measure() -> dict[str, Any]:
    pages: dict[str, Any] = {}
    with serve_pages(PAGES) as base_url, PipeServer(CDPILOT_LEGACY.argv) as server:
        server.initialize()
        server.call_tool("chrome_launch", {})
        for page in OUTLINED:
            server.call_tool("navigate", {"url": base_url + page})
            result, _ = server.call_tool("page_outline", {})
            outline = text_of(result)
            peers = {peer: len(text) for peer in PEERS if (text := fixture(peer, page)) is not None}
            cut = outline.splitlines()[-1].startswith("…")
            pages[page] = {"cdpilot_outline_chars": len(outline), "cut": cut, "peer_chars": peers, "outline": outline}
    return {"pages": pages, "render": render_ratio()}


def report_lines(figures: dict[str, Any]) -> list[str]:
    rows = []
    for page, found in figures["pages"].items():
        ours = found["cdpilot_outline_chars"]
        cut = " (cut at max_chars, with the count and the parts to outline alone)" if found["cut"] else ""
        cells = [f"{page}: cdpilot page_outline {ours:,} chars{cut}"]
        for peer in PEERS:
            theirs = found["peer_chars"].get(peer)
            cells.append(
                f"{peer} {theirs:,} ({ours / theirs:.2f}× theirs)" if theirs else f"{peer}: no fixture captured"
            )
        rows.append("  " + "; ".join(cells))
    render = figures["render"]
    return [
        "page outline vs the peers' snapshots (characters of answer text per page; peers' from committed fixtures)",
        *rows,
        f"  a cut outline of {render['entries']:,} entries renders in {render['cut_s'] * 1000:.1f} ms, "
        f"{render['cut_s'] / render['whole_s']:.1f}× the time of writing its every line once",
    ]


def main() -> None:
    print("\n".join(report_lines(measure())))


if __name__ == "__main__":
    main()
