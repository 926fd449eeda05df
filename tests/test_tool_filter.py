"""`select_tools`: tool and group names, allow then deny, and the generated groups behind them."""

from __future__ import annotations

import json

import pytest
from cdpilot_generated import manifests

from cdpilot.server.tool_filter import select_tools, tools_list_json


def test_nothing_named_filters_nothing() -> None:
    assert select_tools("smart", [], []) is None
    assert select_tools("legacy", (), ()) is None


def test_naming_every_group_is_no_filter_either() -> None:
    assert select_tools("legacy", manifests.GROUPS, []) is None


def test_a_disabled_group_takes_out_every_tool_of_it_in_legacy_mode() -> None:
    served = select_tools("legacy", [], ["evaluate", "debugger"])
    assert served is not None
    assert served == {
        name for name, group in manifests.GRANULAR_TOOL_GROUP.items() if group not in ("evaluate", "debugger")
    }


def test_a_smart_tool_belongs_to_the_groups_of_every_tool_it_routes_to() -> None:
    assert manifests.SMART_TOOL_GROUPS["evaluate"] == ("debugger", "evaluate")
    without_debugger = select_tools("smart", [], ["debugger"])
    assert without_debugger is not None
    assert "evaluate" not in without_debugger and "breakpoint" not in without_debugger
    assert "navigate" in without_debugger
    only_debugger = select_tools("smart", ["debugger"], [])
    assert only_debugger is not None and "evaluate" in only_debugger and "chrome" not in only_debugger


def test_tools_and_groups_mix_and_deny_wins() -> None:
    # smart page is in the dom group too: its outline action is page_outline, a dom tool
    mixed = frozenset({"chrome", "navigate", "query_elements", "inspect_element", "page"})
    assert select_tools("smart", ["connection", "navigate", "dom"], ["wait_for"]) == mixed
    assert select_tools("legacy", ["navigation"], ["reload"]) == frozenset({"navigate", "go_back", "go_forward"})


def test_a_name_of_the_other_mode_is_unknown_and_the_message_lists_what_is_valid() -> None:
    with pytest.raises(ValueError, match=r"^unknown tool or group") as info:
        select_tools("legacy", ["chrome"], ["no_such", "chrome"])
    message = str(info.value)
    assert message.startswith(
        "unknown tool or group 'chrome', 'no_such' in legacy mode; tools: browser_emulate_media, "
    )
    assert "chrome_launch" in message
    assert message.endswith("groups: " + ", ".join(manifests.GROUPS))


def test_a_filter_that_leaves_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="no smart tool is left to serve"):
        select_tools("smart", ["connection"], ["chrome"])


@pytest.mark.parametrize("mode", manifests.MODES)
def test_the_generated_groups_cover_exactly_the_tools_of_each_mode(mode: manifests.Mode) -> None:
    payload = manifests.SMART_TOOLS_JSON if mode == "smart" else manifests.LEGACY_TOOLS_JSON
    listed = [tool["name"] for tool in json.loads(payload)["tools"]]
    assert list(manifests.TOOL_GROUPS[mode]) == listed == list(manifests.TOOL_JSON[mode])
    assert {group for groups in manifests.TOOL_GROUPS[mode].values() for group in groups} == set(manifests.GROUPS)
    assert set(manifests.GRANULAR_TOOL_GROUP.values()) == set(manifests.GROUPS)


@pytest.mark.parametrize("mode", manifests.MODES)
def test_the_filtered_tools_list_is_the_manifest_less_the_others(mode: manifests.Mode) -> None:
    payload = manifests.SMART_TOOLS_JSON if mode == "smart" else manifests.LEGACY_TOOLS_JSON
    assert tools_list_json(mode, None) == payload
    served = select_tools(mode, [], ["evaluate"])
    assert served is not None
    full = json.loads(payload)["tools"]
    assert json.loads(tools_list_json(mode, served)) == {"tools": [tool for tool in full if tool["name"] in served]}
