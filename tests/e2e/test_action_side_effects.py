"""What an action causes outside its page, through the real server in both modes: a tab or
popup it opens is named with its index and the call that switches to it; a file chooser is
named, closed, and leaves the page usable; a download is named with where it was saved, and
never reads as a navigation that did not load.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import mcp_types as types
import pytest

from tests.e2e.harness import ModeClient, text_of
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

REPORT = b"quarter,total\n" + b"q1,10\n" * 2000

PAGES = {
    "/opener": (
        200,
        "text/html",
        html(
            "Opener",
            """<a id="summary" href="/summary" target="_blank">Open the summary</a>
<button id="popup" onclick="window.open('/summary?popup=1', 'details', 'width=400,height=300')">Details</button>
<input id="avatar" type="file">
<a id="report" href="/report">Get the report</a>
<form action="/summary" target="_blank"><input id="query" name="q"></form>
<a id="notes" href="/notes.txt" download="meeting notes.txt">Notes</a>
<button id="after" onclick="document.getElementById('result').textContent = 'still here'">After</button>
<div id="result"></div>
<script>document.getElementById("avatar").addEventListener("cancel", () => window.__cancelled = true)</script>""",
        ),
    ),
    "/summary": (200, "text/html", html("Summary", "<h1>Summary</h1>")),
    "/report": (200, "text/csv", REPORT, {"Content-Disposition": 'attachment; filename="report.csv"'}),
    "/notes.txt": (200, "text/plain", b"- ship it\n"),
}


@pytest.fixture
async def opener(client: ModeClient, site_url: str) -> AsyncIterator[ModeClient]:
    """The opener page current in the only tab; the tabs a test opens are closed afterwards."""
    await client.ok("navigate", url=site_url + "/opener")
    yield client
    while "[1]" in await client.ok("list_targets"):
        await client.ok("close_target", index=1)


async def test_a_blank_target_link_names_the_new_page_and_the_switch(opener: ModeClient, site_url: str) -> None:
    text = await opener.ok("click_element", selector="#summary")
    assert text.startswith('Clicked a#summary "Open the summary".'), text
    # The title is there only if the new page loaded before the answer: a race not worth a wait.
    opened = text.splitlines()[1]
    assert opened.startswith("Opened a new page [1] ") and f"at {site_url}/summary;" in opened, text
    assert opened.endswith(" with index=1 switches to it."), text
    assert "switch" in opened, text
    assert "Navigat" not in text, text
    assert await opener.js("location.pathname") == "/opener"  # the opener stays current
    switched = await opener.ok("switch_target", index=1)
    assert f"{site_url}/summary" in switched


async def test_a_window_open_popup_names_the_new_page(opener: ModeClient, site_url: str) -> None:
    text = await opener.ok("click_element", selector="#popup")
    assert "Opened a new page [1]" in text and f"at {site_url}/summary?popup=1;" in text, text
    assert "with index=1 switches to it." in text, text


async def test_a_file_input_click_names_the_chooser_and_leaves_the_page_usable(opener: ModeClient) -> None:
    text = await opener.ok("click_element", selector="#avatar")
    upload = 'interact(action="upload")' if opener.mode == "smart" else "upload_file()"
    assert text.splitlines()[1] == (
        f"Opened a file chooser for input#avatar (to pick a file); cdpilot closed it unanswered: "
        f"upload with {upload} into input#avatar."
    ), text
    assert await opener.js("window.__cancelled === true")
    await opener.ok("click_element", selector="#after")
    assert await opener.js("document.getElementById('result').textContent") == "still here"


async def test_a_click_that_downloads_says_so_and_where_the_file_went(
    opener: ModeClient, site_url: str, output_dir: Path
) -> None:
    result = await opener.call("click_element", selector="#report")
    text = text_of(result)
    lines = text.splitlines()
    assert lines[0] == 'Clicked a#report "Get the report".', text
    saved = output_dir / opener.mode / "downloads" / "report.csv"
    assert len(REPORT) == 12_014  # said to the byte, the rough size beside it
    assert lines[1] == f"Downloaded report.csv (12,014 bytes (12 KB)) from {site_url}/report: saved as {saved}.", text
    assert "avigat" not in text, text  # not "a navigation that did not load"
    assert saved.read_bytes() == REPORT
    assert await opener.js("location.pathname") == "/opener"
    (link,) = [block for block in result.content if isinstance(block, types.ResourceLink)]
    assert (link.uri, link.mime_type, link.size) == ("cdpilot://files/downloads/report.csv", "text/csv", len(REPORT))
    (contents,) = (await opener.client.read_resource(link.uri)).contents
    assert isinstance(contents, types.TextResourceContents) and contents.text.encode() == REPORT

    text = await opener.ok("click_element", selector="#report")  # the same name again: kept apart
    assert f"saved as {saved.with_name('report (2).csv')}." in text, text


async def test_a_download_link_saves_under_its_own_name(opener: ModeClient, site_url: str, output_dir: Path) -> None:
    text = await opener.ok("click_element", selector="#notes")
    saved = output_dir / opener.mode / "downloads" / "meeting notes.txt"
    assert f"Downloaded meeting notes.txt (10 B) from {site_url}/notes.txt: saved as {saved}." in text, text
    assert saved.read_bytes() == b"- ship it\n"


async def test_navigating_to_a_download_says_the_page_stayed(opener: ModeClient, site_url: str) -> None:
    result = await opener.call("navigate", url=f"{site_url}/report")
    text = text_of(result)
    (link,) = [block for block in result.content if isinstance(block, types.ResourceLink)]
    assert link.uri.startswith("cdpilot://files/downloads/report") and link.size == len(REPORT)
    assert text.startswith(f"Downloaded report.csv (12,014 bytes (12 KB)) from {site_url}/report: saved as "), text
    assert text.splitlines()[1] == f'The page stayed at {site_url}/opener ("Opener").', text


async def test_enter_that_submits_into_a_new_tab_names_the_new_page(opener: ModeClient, site_url: str) -> None:
    text = await opener.ok("fill_element", selector="#query", text="totals", submit=True)
    assert text.startswith('Filled input#query with "totals" and pressed Enter.'), text
    assert "Opened a new page [1] " in text and f"at {site_url}/summary?q=totals;" in text, text
    assert "Navigat" not in text, text
    assert await opener.js("location.pathname") == "/opener"
