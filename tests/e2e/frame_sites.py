"""Pages with frames of every origin, for the frame tests of the element tools and the outline.

A page is served twice: on the site's own server (127.0.0.1, one port) and on a second server of
the same pages (127.0.0.1, another port: another origin of the same site, which Chromium keeps in
the page's process). A page learns the second server's port from its `?other=` query, and reaches
another site as `localhost` on its own port (a target of its own).
"""

from __future__ import annotations

from tests.e2e.harness import ModeClient
from tests.support.pages import PageSpec
from tests.support.site import html

LOADED = "new Promise(done => document.readyState === 'complete' ? done(1) : addEventListener('load', done))"


def nested_frame_pages(*, before: str, outer: str, middle: str, inner: str) -> dict[str, PageSpec]:
    """`/nest`: `before`, then iframe#outer (the `outer` attributes), a same-site frame of another
    origin at `/middle.html` (`middle`, then iframe#inner with the `inner` attributes), which holds a
    cross-site one at `/card.html?in=inner`."""
    nest = html(
        "Nest",
        f"""{before}<iframe id="outer" {outer}></iframe>
<script>
const other = new URLSearchParams(location.search).get("other");
document.getElementById("outer").src = "http://127.0.0.1:" + other + "/middle.html?top=" + location.port;
</script>""",
    )
    middle_page = html(
        "Middle",
        f"""{middle}<iframe id="inner" {inner}></iframe>
<script>
const topPort = new URLSearchParams(location.search).get("top");
document.getElementById("inner").src = "http://localhost:" + topPort + "/card.html?in=inner";
</script>""",
    )
    return {"/nest": (200, "text/html", nest), "/middle.html": (200, "text/html", middle_page)}


async def open_with_frames(client: ModeClient, site_url: str, other_url: str, path: str) -> None:
    """Load `path` of the site, told the second server's port; its load event waits for every frame's."""
    await client.ok("navigate", url=f"{site_url}{path}?other={other_url.rsplit(':', 1)[1]}")
    await client.ok("evaluate_js", expression=LOADED)
