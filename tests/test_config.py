"""The one settings model: precedence, parsing from every source, and the config file's schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cdpilot.call_rate import RateLimit
from cdpilot.config import BY_KEY, OPTIONS, config_schema, resolve
from cdpilot.errors import ConfigError


def write_config(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "cdpilot.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_defaults_when_nothing_is_given() -> None:
    config = resolve({}, {})
    assert config["viewport"] == (1280, 720)
    assert config["auto_launch"] is True
    assert config["headed"] is False
    assert config["rate_limit"] == RateLimit(200, 10.0)
    assert config["tools"] == ()
    assert config["chrome_args"] == ()
    assert not any(config.given(option.key) for option in OPTIONS)


def test_a_flag_wins_over_a_variable_which_wins_over_the_file(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"viewport": "800x600", "user_agent": "file-ua", "proxy_server": "http://f:1"})
    env = {"CDPILOT_VIEWPORT": "1024x768", "CDPILOT_USER_AGENT": "env-ua"}
    config = resolve({"viewport": "1440x900"}, env, path)
    assert config["viewport"] == (1440, 900)
    assert config.sources["viewport"] == "--viewport"
    assert config["user_agent"] == "env-ua"
    assert config.sources["user_agent"] == "CDPILOT_USER_AGENT"
    assert config["proxy_server"] == "http://f:1"
    assert config.sources["proxy_server"] == f"config key 'proxy_server' in {path}"


def test_the_config_file_can_come_from_the_environment(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"headed": True, "disable_tools": ["evaluate"]})
    config = resolve({}, {"CDPILOT_CONFIG": path})
    assert config["headed"] is True
    assert config["disable_tools"] == ("evaluate",)


def test_no_auto_launch_flag_and_its_other_forms(tmp_path: Path) -> None:
    assert resolve({"auto_launch": "false"}, {})["auto_launch"] is False
    assert resolve({}, {"CDPILOT_AUTO_LAUNCH": "0"})["auto_launch"] is False
    assert resolve({}, {}, write_config(tmp_path, {"auto_launch": False}))["auto_launch"] is False


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("viewport", "1280x720", (1280, 720)),
        ("viewport", " 800 X 600 ", (800, 600)),
        ("headed", "yes", True),
        ("ignore_https_errors", "1", True),
        ("allowed_origins", "https://a.test, *.b.test,", ("https://a.test", "*.b.test")),
        ("chrome_args", "--lang=de '--user-agent=a b'", ("--lang=de", "--user-agent=a b")),
        ("rate_limit", "0", None),
        ("browser_url", "http://127.0.0.1:9222/", "http://127.0.0.1:9222"),
        ("mode", "Legacy", "legacy"),
        ("transport", "HTTP", "http"),
        ("port", " 8000 ", 8000),
        ("max_sessions", "4", 4),
        ("allowed_hosts", "mcp.example.com:*", ("mcp.example.com:*",)),
    ],
)
def test_text_forms_parse(key: str, text: str, expected: object) -> None:
    option = BY_KEY[key]
    assert resolve({key: text}, {})[key] == expected
    assert resolve({}, {option.env_name: text})[key] == expected


@pytest.mark.parametrize(
    ("key", "text", "says"),
    [
        ("viewport", "big", "expected WIDTHxHEIGHT"),
        ("viewport", "50x50", "between 100 and 10000"),
        ("headed", "maybe", "expected true or false"),
        ("rate_limit", "lots", "expected CALLS/SECONDS"),
        ("browser_url", "127.0.0.1:9222", "expected http://host:port"),
        ("browser_url", "http://127.0.0.1", "needs the debugging port"),
        ("ws_endpoint", "http://127.0.0.1:9222", "expected a ws:// or wss:// URL"),
        ("mode", "turbo", "allowed values: smart, legacy"),
        ("transport", "carrier-pigeon", "allowed values: stdio, http"),
        ("chrome_args", "'unclosed", "expected shell words"),
        ("user_agent", "  ", "expected a non-empty value"),
    ],
)
def test_bad_values_name_their_source_and_what_is_allowed(key: str, text: str, says: str, tmp_path: Path) -> None:
    option = BY_KEY[key]
    with pytest.raises(ConfigError, match=f"^{option.flag_name}=.*{says}"):
        resolve({key: text}, {})
    with pytest.raises(ConfigError, match=f"^{option.env_name}=.*{says}"):
        resolve({}, {option.env_name: text})
    path = write_config(tmp_path, {key: text})
    with pytest.raises(ConfigError, match=f"^config key '{key}' in .*{says}"):
        resolve({}, {}, path)


def test_config_values_must_have_their_json_type(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^config key 'headed' in .*='yes'.*expected true or false"):
        resolve({}, {}, write_config(tmp_path, {"headed": "yes"}))
    with pytest.raises(ConfigError, match=r"^config key 'tools' in .*expected a list of strings"):
        resolve({}, {}, write_config(tmp_path, {"tools": "evaluate"}))


def test_a_bad_config_file_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key\\(s\\) 'viewprot'; valid keys: mode, tools"):
        resolve({}, {}, write_config(tmp_path, {"viewprot": "800x600"}))
    with pytest.raises(ConfigError, match="must hold a JSON object"):
        resolve({}, {}, write_config(tmp_path, ["headed"]))
    (tmp_path / "broken.json").write_text("{headed: true}")
    with pytest.raises(ConfigError, match="is not valid JSON"):
        resolve({}, {}, str(tmp_path / "broken.json"))
    with pytest.raises(ConfigError, match="cannot read the config file"):
        resolve({}, {}, str(tmp_path / "missing.json"))


def test_two_ways_to_attach_are_refused() -> None:
    with pytest.raises(ConfigError, match="--browser-url and CDPILOT_AUTO_CONNECT both say where to attach"):
        resolve({"browser_url": "http://127.0.0.1:9222"}, {"CDPILOT_AUTO_CONNECT": "true"})


GOOD_FILES: list[dict[str, Any]] = [
    {},
    {"$schema": "https://example.test/config.schema.json", "mode": "legacy", "headed": True},
    {"viewport": "800x600", "tools": ["navigate", "page"], "rate_limit": "50/5", "allowed_origins": []},
    {"browser_url": "http://127.0.0.1:9222", "allow_remote": False, "output_dir": "out"},
    {"transport": "http", "host": "0.0.0.0", "port": 8000, "max_sessions": 2, "session_idle_timeout": 60},
]
BAD_FILES: list[dict[str, Any]] = [
    {"headed": "true"},
    {"mode": "turbo"},
    {"viewport": "wide"},
    {"tools": "evaluate"},
    {"tools": [1]},
    {"rate_limit": "many"},
    {"port": "8000"},
    {"port": 0},
    {"max_sessions": 0},
    {"no_such_key": 1},
]


@pytest.mark.parametrize("data", GOOD_FILES)
def test_files_the_schema_accepts_are_accepted(data: dict[str, Any], tmp_path: Path) -> None:
    jsonschema.validate(data, config_schema())
    resolve({}, {}, write_config(tmp_path, data))


@pytest.mark.parametrize("data", BAD_FILES)
def test_files_the_schema_refuses_are_refused(data: dict[str, Any], tmp_path: Path) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, config_schema())
    with pytest.raises(ConfigError):
        resolve({}, {}, write_config(tmp_path, data))


def test_the_schema_lists_every_option_with_its_flag_and_variable() -> None:
    schema = config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    properties = schema["properties"]
    assert set(properties) == {"$schema", *BY_KEY}
    for option in OPTIONS:
        assert properties[option.key]["x-cdpilot-flag"] == option.flag_name
        assert properties[option.key]["x-cdpilot-env"] == option.env_name
        assert properties[option.key]["description"]


def test_the_output_dir_is_a_path() -> None:
    assert resolve({"output_dir": "shots"}, {})["output_dir"] == Path("shots")


@pytest.mark.parametrize(
    ("key", "text", "says"),
    [
        ("port", "0", "between 1 and 65535"),
        ("port", "http", "expected a whole number"),
        ("port", "80.5", "expected a whole number"),
        ("max_sessions", "0", "expected a positive whole number"),
        ("session_idle_timeout", "-5", "expected a whole number"),
    ],
)
def test_bad_whole_numbers_are_refused_from_flags_and_variables(key: str, text: str, says: str) -> None:
    option = BY_KEY[key]
    with pytest.raises(ConfigError, match=f"^{option.flag_name}=.*{says}"):
        resolve({key: text}, {})
    with pytest.raises(ConfigError, match=f"^{option.env_name}=.*{says}"):
        resolve({}, {option.env_name: text})


def test_a_whole_number_in_a_config_file_is_a_json_number(tmp_path: Path) -> None:
    assert resolve({}, {}, write_config(tmp_path, {"port": 9000}))["port"] == 9000
    with pytest.raises(ConfigError, match=r"^config key 'port' in .*='9000'.*expected a whole number"):
        resolve({}, {}, write_config(tmp_path, {"port": "9000"}))
    with pytest.raises(ConfigError, match=r"expected a whole number"):
        resolve({}, {}, write_config(tmp_path, {"max_sessions": True}))
