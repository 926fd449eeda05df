"""The console's bounds through the real server in both modes: an error followed by a burst of
logging is still there for ``filter_level="error"``, and every answer says what the bounds
dropped, at the level asked for or per bucket.

Console calls made by an evaluation are recorded before its answer. The /console page logs
one info line as it loads, so the burst below leaves 1 + 1,500 log/info/debug entries, of
which the newest 1,000 are kept."""

from __future__ import annotations

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import SITE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = SITE
BURST = "console.error('ROOT CAUSE: config missing'); for (let i = 0; i < 1500; i++) console.log('noise ' + i)"
LOGS_DROPPED = "501 older log/info/debug entries were dropped (the log keeps the newest 1,000)"


async def test_an_error_before_a_burst_of_logs_is_found_and_the_drops_are_told(
    client: ModeClient, site_url: str
) -> None:
    page = f"{site_url}/console"
    await client.ok("navigate", url=page)
    await client.ok("evaluate_js", expression=BURST)

    assert await client.ok("get_console_logs", filter_level="error") == (
        f"Console at level error on the current page ({page}): 1 entry; "
        "no error entry was dropped (501 older entries at other levels were)\n"
        "[error] ROOT CAUSE: config missing"
    )
    assert await client.ok("get_console_logs", limit=2) == (
        f"Console on the current page ({page}): 1,001 entries, last 2 shown; "
        f"999 older omitted (raise limit, max 100); {LOGS_DROPPED}\n"
        "[log] noise 1498\n"
        "[log] noise 1499"
    )
    assert await client.ok("get_console_logs", filter_level="info") == (
        f"Console at level info on the current page ({page}): none held; "
        "1 older info entry was dropped (the log keeps the newest 1,000 log/info/debug entries)."
    )

    await client.ok("navigate", url=f"{site_url}/welcome")  # the drops belong to the page before
    assert await client.ok("get_console_logs") == (
        f"No console messages on the current page ({site_url}/welcome). "
        "Earlier pages logged 1,001 (include_previous_pages=true)."
    )
    every_page = await client.ok("get_console_logs", include_previous_pages=True, filter_level="error")
    assert every_page.splitlines()[0].endswith(
        "1 entry; no error entry was dropped (501 older entries at other levels were)"
    )
