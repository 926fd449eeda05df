"""Files a tool writes come back to the client as resource links, in both modes over stdio, and
resources/read serves them, byte for byte, only from the session's own output directory."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

from tests.e2e.harness import ModeClient, text_of
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BINARY = bytes(range(256))
PAGES = {
    "/": (200, "text/html", html("Linked", "<h1 style='color:teal'>Linked</h1>")),
    "/blob.bin": (200, "application/octet-stream", BINARY),
}
REFUSED = "No file of this session at"


def links_of(result: types.CallToolResult) -> list[types.ResourceLink]:
    assert not result.is_error, text_of(result)
    return [block for block in result.content if isinstance(block, types.ResourceLink)]


async def bytes_read(client: ModeClient, uri: str) -> bytes:
    read = await client.client.read_resource(uri)
    (contents,) = read.contents
    assert contents.uri == uri
    if isinstance(contents, types.BlobResourceContents):
        return base64.b64decode(contents.blob)
    return contents.text.encode()


async def test_a_saved_screenshot_is_linked_and_read_back_byte_for_byte(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    assert await client.js("document.title") == "Linked"
    (link,) = links_of(await client.call("browser_screenshot", path="shots/page one.png"))
    saved = output_dir / client.mode / "shots" / "page one.png"
    assert (link.uri, link.name, link.mime_type, link.size) == (
        "cdpilot://files/shots/page%20one.png",
        "shots/page one.png",
        "image/png",
        saved.stat().st_size,
    )
    data = await bytes_read(client, link.uri)
    assert data == saved.read_bytes() and data.startswith(b"\x89PNG")


async def test_a_saved_pdf_is_linked_and_read_back_byte_for_byte(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    (link,) = links_of(await client.call("save_pdf", path="docs/page.pdf"))
    assert (link.uri, link.mime_type) == ("cdpilot://files/docs/page.pdf", "application/pdf")
    data = await bytes_read(client, link.uri)
    assert data == (output_dir / client.mode / "docs" / "page.pdf").read_bytes() and data.startswith(b"%PDF-")


async def test_a_saved_value_is_read_back_as_text_and_listed(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    (link,) = links_of(await client.call("evaluate_js", expression="({title: document.title})", save_to="v.json"))
    read = await client.client.read_resource(link.uri)
    (contents,) = read.contents
    assert isinstance(contents, types.TextResourceContents) and contents.mime_type == "application/json"
    assert json.loads(contents.text) == {"title": "Linked"}
    listed = await client.client.list_resources(cache_mode="refresh")
    assert link.uri in [resource.uri for resource in listed.resources]


async def test_a_saved_body_a_storage_state_and_a_trace_are_linked(
    client: ModeClient, site_url: str, output_dir: Path
) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    await client.ok("evaluate_js", expression="fetch('/blob.bin').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    await client.ok("evaluate_js", expression="localStorage.setItem('linked', 'yes'), 1")
    listing = await client.ok("list_network_requests")
    [line] = [line for line in listing.splitlines() if "/blob.bin" in line]
    calls: list[tuple[str, dict[str, Any], str]] = [
        ("get_network_request", {"request_id": line.split()[0], "save_body_to": "body.bin"}, "body.bin"),
        ("save_storage_state", {"path": "state.json"}, "state.json"),
        ("record_trace", {"path": "trace.json", "duration_ms": 100}, "trace.json"),
    ]
    for tool, arguments, name in calls:
        (link,) = links_of(await client.call(tool, **arguments))
        assert link.uri == f"cdpilot://files/{name}"
        assert await bytes_read(client, link.uri) == (output_dir / client.mode / name).read_bytes()
    assert await bytes_read(client, "cdpilot://files/body.bin") == BINARY
    assert json.loads(await bytes_read(client, "cdpilot://files/state.json"))["origins"][0]["localStorage"] == [
        {"name": "linked", "value": "yes"}
    ]


async def test_an_answer_without_a_file_has_no_link(client: ModeClient, site_url: str) -> None:
    await client.ok("navigate", url=f"{site_url}/")
    assert links_of(await client.call("evaluate_js", expression="1 + 1")) == []


@pytest.mark.parametrize(
    "uri",
    [
        "cdpilot://files/missing.png",
        "cdpilot://files/../outside.txt",
        "cdpilot://files/%2E%2E/outside.txt",
        "cdpilot://files//etc/passwd",
        "cdpilot://files/",
        "file:///etc/passwd",
        "cdpilot://files/escape/outside.txt",
    ],
)
async def test_a_uri_for_anything_but_a_file_of_the_session_is_refused_alike(
    client: ModeClient, output_dir: Path, uri: str
) -> None:
    (output_dir / "outside.txt").write_text("another session's")  # beside this server's own directory
    own = output_dir / client.mode
    own.mkdir(exist_ok=True)
    if not (own / "escape").is_symlink():
        (own / "escape").symlink_to(output_dir, target_is_directory=True)
    with pytest.raises(MCPError) as refused:
        await client.client.read_resource(uri)
    assert refused.value.error.code == types.INVALID_PARAMS
    assert refused.value.error.message.startswith(f"{REFUSED} {uri!r}.")
    assert "another session's" not in refused.value.error.message


async def test_a_file_past_the_limit_is_refused_with_the_limit_and_its_path(
    client: ModeClient, output_dir: Path
) -> None:
    big = output_dir / client.mode / "big.bin"
    big.parent.mkdir(exist_ok=True)
    with big.open("wb") as file:
        file.truncate(20 * 1024 * 1024 + 1)
    with pytest.raises(MCPError) as refused:
        await client.client.read_resource("cdpilot://files/big.bin")
    message = refused.value.error.message
    assert "20 MiB" in message and str(big.resolve()) in message, message
