"""File upload through the real server in both modes: files from the upload directory (here the
output directory, the default) reach the page as a user's pick would, or dropped onto a drop zone
as a user's drag from the desktop would, and every path that is not a readable file inside it is
refused before anything is sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import ModeClient
from tests.support.site import html

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PAGES = {
    "/upload": (
        200,
        "text/html",
        html(
            "Upload",
            """<input id="one" type="file">
<input id="many" type="file" multiple>
<input id="hidden" type="file" style="display: none">
<input id="reset" type="file">
<button id="pick" onclick="document.getElementById('hidden').click()">Pick a photo</button>
<div id="result"></div>
<script>
for (const input of document.querySelectorAll("input[type=file]")) {
  input.addEventListener("change", async () => {
    const files = Array.from(input.files);
    if (input.id === "reset") input.value = "";  // as pages that upload at once and start over do
    const read = await Promise.all(files.map(async (f) => `${f.name}:${f.size}:${await f.text()}`));
    document.getElementById("result").textContent = `${input.id}=` + read.join("|");
  });
}
</script>""",
        ),
    ),
    "/drop": (
        200,
        "text/html",
        html(
            "Drop",
            """<div style="height: 1500px">Scroll down to drop</div>
<div id="zone" style="width: 300px; height: 120px; border: 2px dashed">Drop files here</div>
<div id="inert" style="width: 300px; height: 120px">Just text</div>
<div id="result"></div>
<script>
const zone = document.getElementById("zone");
zone.addEventListener("dragover", (event) => event.preventDefault());
zone.addEventListener("drop", async (event) => {
  event.preventDefault();
  const files = Array.from(event.dataTransfer.files);
  zone.textContent = files.map((f) => `${f.name} ${f.size} B`).join(", ");
  const read = await Promise.all(files.map(async (f) => `${f.name}:${f.size}:${await f.text()}`));
  document.getElementById("result").textContent = "zone=" + read.join("|");
});
document.getElementById("inert").addEventListener("drop", () => {
  document.getElementById("result").textContent = "inert=dropped";
});
</script>""",
        ),
    ),
}


@pytest.fixture
async def upload_page(client: ModeClient, site_url: str, output_dir: Path) -> Path:
    """The upload page, and the folder its files come from (the server's output directory)."""
    folder = output_dir / client.mode
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text("- ship it\n")
    (folder / "docs").mkdir(exist_ok=True)
    (folder / "docs" / "a.csv").write_text("x,y\n")
    await client.ok("navigate", url=site_url + "/upload")
    return folder


async def result(client: ModeClient) -> str:
    await client.ok("wait_for", texts=["="])
    return str(await client.js("document.getElementById('result').textContent"))


async def test_one_file_reaches_the_page(client: ModeClient, upload_page: Path) -> None:
    text = await client.ok("upload_file", selector="#one", files=["notes.txt"])
    assert text.startswith("Uploaded 1 file into input#one: notes.txt (10 B)."), text
    assert await result(client) == "one=notes.txt:10:- ship it\n"


async def test_several_files_into_a_multiple_input_and_an_absolute_path_inside(
    client: ModeClient, upload_page: Path
) -> None:
    files = ["notes.txt", str(upload_page / "docs" / "a.csv")]
    text = await client.ok("upload_file", selector="#many", files=files)
    assert text.startswith("Uploaded 2 files into input#many: notes.txt (10 B), a.csv (4 B)."), text
    assert await result(client) == "many=notes.txt:10:- ship it\n|a.csv:4:x,y\n"


async def test_a_hidden_input_behind_a_button_is_named_by_the_chooser_and_takes_the_upload(
    client: ModeClient, upload_page: Path
) -> None:
    text = await client.ok("click_element", selector="#pick")
    assert "Opened a file chooser for input#hidden" in text, text
    text = await client.ok("upload_file", selector="input#hidden", files=["docs/a.csv"])
    assert text.startswith("Uploaded 1 file into input#hidden: a.csv (4 B)."), text
    assert await result(client) == "hidden=a.csv:4:x,y\n"


async def test_a_page_that_empties_the_input_is_said(client: ModeClient, upload_page: Path) -> None:
    text = await client.ok("upload_file", selector="#reset", files=["notes.txt"])
    assert text.startswith(
        "Uploaded 1 file into input#reset: notes.txt (10 B). The page emptied the input afterwards."
    ), text
    assert await result(client) == "reset=notes.txt:10:- ship it\n"


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        (["../outside.txt"], "outside it"),
        (["/etc/hostname"], "outside it"),
        (["missing.txt"], "no such file"),
        (["docs"], "a directory"),
        (["notes.txt", "nope.txt"], "files[1]"),
    ],
)
async def test_paths_that_are_not_readable_files_inside_the_upload_directory_are_refused(
    client: ModeClient, upload_page: Path, files: list[str], problem: str
) -> None:
    kind, text = await client.error("upload_file", selector="#many", files=files)
    assert kind == "VALIDATION" and "files[" in text and problem in text, text
    assert str(upload_page) in text, text  # says where files may come from
    assert await client.js("document.getElementById('result').textContent") == ""


async def test_an_input_that_takes_one_file_refuses_two(client: ModeClient, upload_page: Path) -> None:
    kind, text = await client.error("upload_file", selector="#one", files=["notes.txt", "docs/a.csv"])
    assert kind == "VALIDATION" and "takes one file, not 2" in text, text


async def test_files_dropped_on_a_drop_zone_arrive_with_their_contents(
    client: ModeClient, upload_page: Path, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/drop")
    text = await client.ok("upload_file", selector="#zone", files=["notes.txt", "docs/a.csv"])
    assert text.startswith(
        'Dropped 2 files onto div#zone "Drop files here": notes.txt (10 B), a.csv (4 B); the page took the drop. '
        'Now it reads "notes.txt 10 B, a.csv 4 B".'
    ), text
    assert await result(client) == "zone=notes.txt:10:- ship it\n|a.csv:4:x,y\n"


async def test_an_element_that_takes_no_drop_is_said_to_have_refused_it(
    client: ModeClient, upload_page: Path, site_url: str
) -> None:
    await client.ok("navigate", url=site_url + "/drop")
    kind, text = await client.error("upload_file", selector="#inert", files=["notes.txt"])
    assert kind == "STATE" and "div#inert" in text and "did not take the files" in text, text
    assert "no dragover handler there accepted the drag, so the page got no drop event" in text, text
    assert await client.js("document.getElementById('result').textContent") == ""
    kind, text = await client.error("upload_file", selector="#zone", files=["missing.txt"])
    assert kind == "VALIDATION" and "no such file" in text, text  # paths are checked for drops too
    assert await client.js("document.getElementById('zone').textContent") == "Drop files here"
