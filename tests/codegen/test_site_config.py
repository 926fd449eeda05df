"""The configuration page and the schema file next to it, from `cdpilot.config`: every setting with
its three spellings, the schema exactly as the server has it, and examples that really start."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from markupsafe import escape

from cdpilot import cli
from cdpilot.config import BY_KEY, OPTIONS, config_schema, given_flags, resolve
from cdpilot.errors import ConfigError
from codegen.site import render_configuration, site_environment, write_site
from codegen.site_pages import BOOLEAN_WORDS, EXAMPLE_CLIENT, EXAMPLE_CONFIG, SCHEMA_FILE, refusal

ROW = re.compile(r'<tr id="([^"]+)">\n(.*?)\n    </tr>', re.S)


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return render_configuration(site_environment(), {"generator": "codegen test", "root": ""})


@pytest.fixture(scope="module")
def page(files: dict[str, str]) -> str:
    return files["configuration.html"]


def as_html(text: str) -> str:
    """As the templates escape it."""
    return str(escape(text))


def rows(page: str) -> dict[str, str]:
    return dict(ROW.findall(page))


def test_every_setting_has_a_row_with_its_key_flag_variable_and_help_in_the_models_order(page: str) -> None:
    found = rows(page)
    assert list(found) == [option.key for option in OPTIONS]
    for option in OPTIONS:
        row = found[option.key]
        assert f'<a href="#{option.key}"><code>{option.key}</code></a>' in row
        assert f"<code>{option.flag_name}" in row
        assert f"<td><code>{option.env_name}</code></td>" in row
        assert f"<td>{as_html(option.help)}</td>" in row


def test_the_groups_are_the_models_groups_in_order(page: str) -> None:
    groups = list(dict.fromkeys(option.group for option in OPTIONS))
    assert re.findall(r'<th colspan="6" scope="rowgroup">(.*?)</th>', page) == groups
    for group in groups:
        section = page.split(f'scope="rowgroup">{group}</th>', 1)[1].split("</tbody>", 1)[0]
        assert list(rows(section)) == [option.key for option in OPTIONS if option.group == group]


def test_type_values_pattern_and_default_are_spelled_as_the_schema_says(page: str) -> None:
    found = rows(page)
    assert found["mode"] == (
        '      <td><a href="#mode"><code>mode</code></a></td>\n'
        "      <td><code>--mode MODE</code></td>\n"
        "      <td><code>CDPILOT_MODE</code></td>\n"
        "      <td>string: one of <code>smart</code>, <code>legacy</code></td>\n"
        "      <td><code>&#34;smart&#34;</code></td>\n"
        f"      <td>{as_html(BY_KEY['mode'].help)}</td>"
    )
    pattern = as_html(config_schema()["properties"]["viewport"]["pattern"])
    assert f"<td>string, matching <code>{pattern}</code></td>" in found["viewport"]
    assert "<td><code>&#34;1280x720&#34;</code></td>" in found["viewport"]
    assert "<td>list of strings</td>" in found["allowed_origins"]
    assert "<td><code>[]</code></td>" in found["allowed_origins"]
    assert "<td>boolean</td>" in found["headed"] and "<td><code>false</code></td>" in found["headed"]
    assert "<td><code>--no-auto-launch</code> (sets false)</td>" in found["auto_launch"]
    assert "<td><code>--headed</code></td>" in found["headed"]  # a boolean flag takes no value
    assert '<td><span class="none">none</span></td>' in found["executable_path"]


def test_the_intro_gives_the_precedence_and_quotes_the_resolvers_own_refusal(page: str) -> None:
    precedence = re.search(r'<ol id="precedence">(.*?)</ol>', page, re.S)
    assert precedence is not None
    assert re.findall(r"<li>(.*?),?</li>", precedence[1]) == [
        "its flag",
        "its environment variable",
        "its key in the config file",
        "its default.",
    ]
    with pytest.raises(ConfigError) as refused:
        resolve({}, {BY_KEY["viewport"].env_name: "large"})
    assert refusal() == str(refused.value)
    assert refusal().startswith("CDPILOT_VIEWPORT='large' is not valid")  # it names its source
    assert f"<pre><code>cdpilot: {as_html(refusal())}</code></pre>" in page


def test_the_boolean_words_the_page_lists_are_those_the_resolver_takes() -> None:
    variable = BY_KEY["headed"].env_name
    for expected, words in zip((True, False), BOOLEAN_WORDS, strict=True):
        for word in words:
            assert resolve({}, {variable: word})["headed"] is expected, word
    with pytest.raises(ConfigError):
        resolve({}, {variable: "maybe"})


def test_the_schema_file_is_config_schema_as_the_server_prints_it(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert json.loads(files[SCHEMA_FILE]) == config_schema()
    assert cli.main(["--config-schema"]) == 0
    assert files[SCHEMA_FILE] == capsys.readouterr().out
    assert f'<a href="{SCHEMA_FILE}"><code>{SCHEMA_FILE}</code></a>' in files["configuration.html"]


def test_the_examples_are_on_the_page_and_really_configure_the_server(page: str, tmp_path: Path) -> None:
    for example in (EXAMPLE_CONFIG, EXAMPLE_CLIENT):
        assert as_html(json.dumps(example, indent=2, ensure_ascii=False)) in page
    jsonschema.validate(EXAMPLE_CONFIG, config_schema())
    config_file = tmp_path / "cdpilot.json"
    config_file.write_text(json.dumps(EXAMPLE_CONFIG), encoding="utf-8")
    entry = EXAMPLE_CLIENT["mcpServers"]["cdpilot"]
    assert entry["command"] == "cdpilot"
    args = cli.build_parser().parse_args(entry["args"])  # unknown flags would exit here
    assert set(entry["env"]) <= {option.env_name for option in OPTIONS}
    config = resolve(given_flags(args), entry["env"], str(config_file))
    assert args.config == "/path/to/cdpilot.json"
    assert config.sources["headed"] == "--headed" and config["headed"] is True
    assert config.sources["viewport"] == "CDPILOT_VIEWPORT" and config["viewport"] == (1920, 1080)  # over the file
    assert config["disable_tools"] == ("evaluate",)
    assert config.sources["allowed_origins"] == f"config key 'allowed_origins' in {config_file}"


def test_no_internal_document_is_named(files: dict[str, str]) -> None:
    for name, text in files.items():
        assert re.search(r"\b(?:spec|architecture)\b|\.md\b|\bdocs/", text, re.I) is None, name


def test_ids_are_unique_so_every_row_can_be_linked(page: str) -> None:
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_write_site_puts_the_schema_next_to_the_pages_and_removes_only_stale_site_files(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    for stale in ("old.html", "tools/gone.html", "old.schema.json", "notes.txt"):
        (tmp_path / stale).write_text("from an earlier build", encoding="utf-8")
    write_site(tmp_path, {"index.html": "<p>index</p>", SCHEMA_FILE: "{}\n"})
    assert sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file()) == [
        SCHEMA_FILE,
        "index.html",
        "notes.txt",
    ]
    assert (tmp_path / SCHEMA_FILE).read_text(encoding="utf-8") == "{}\n"
