"""File upload through the real server in both modes: files from the upload directory (here the
output directory, the default) reach the page as a user's pick would, and every path that is not
a readable file inside it is refused before anything is sent.
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


async def test_an_element_that_is_not_a_file_input_or_takes_one_file_is_refused(
    client: ModeClient, upload_page: Path
) -> None:
    kind, text = await client.error("upload_file", selector="#pick", files=["notes.txt"])
    assert kind == "VALIDATION" and "button#pick" in text and "is not a file input" in text, text
    kind, text = await client.error("upload_file", selector="#one", files=["notes.txt", "docs/a.csv"])
    assert kind == "VALIDATION" and "takes one file, not 2" in text, text
