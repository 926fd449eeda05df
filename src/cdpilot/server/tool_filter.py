"""Which tools a server serves: every tool of its mode, or those named at start.

A name is a tool of the active mode or a group (the folder a granular tool's schema lives
in: ``connection``, ``evaluate``, …). A group stands for every tool that belongs to it, and a
smart tool belongs to the group of each granular tool it routes to: leaving out ``evaluate``
must leave out the smart ``evaluate`` tool, although it also routes to the debugger. A name
that is both a tool and a group names both.

Standard library and the generated manifest only: the command line settles this before the
server imports anything heavy.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdpilot_generated.manifests import GROUPS, TOOL_GROUPS, TOOL_JSON, Mode


def select_tools(mode: Mode, allow: Sequence[str], deny: Sequence[str]) -> frozenset[str] | None:
    """The tools to serve: those `allow` names (all when it is empty) less those `deny` names;
    None when that is every tool of the mode. ValueError for an unknown name (the message lists
    the valid ones) and for a filter that leaves nothing to serve."""
    groups_of = TOOL_GROUPS[mode]
    unknown = [name for name in (*allow, *deny) if name not in groups_of and name not in GROUPS]
    if unknown:
        raise ValueError(
            f"unknown tool or group {', '.join(map(repr, dict.fromkeys(unknown)))} in {mode} mode; "
            f"tools: {', '.join(groups_of)}; groups: {', '.join(GROUPS)}"
        )
    selected = set(_named(mode, allow)) if allow else set(groups_of)
    selected -= _named(mode, deny)
    if not selected:
        raise ValueError(f"no {mode} tool is left to serve once the disabled ones are taken out")
    return None if len(selected) == len(groups_of) else frozenset(selected)


def _named(mode: Mode, names: Sequence[str]) -> set[str]:
    """The tools that `names` stand for, tools and groups alike."""
    wanted = set(names)
    return {tool for tool, groups in TOOL_GROUPS[mode].items() if tool in wanted or not wanted.isdisjoint(groups)}


def tools_list_json(mode: Mode, tools: frozenset[str] | None) -> str:
    """The tools/list result serving `tools` (None: all of the mode), cut from the manifest as
    serialised, so a filtered list is the full one minus the others, byte for byte."""
    listed = (text for name, text in TOOL_JSON[mode].items() if tools is None or name in tools)
    return '{"tools":[' + ",".join(listed) + "]}"
