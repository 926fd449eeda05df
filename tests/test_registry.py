"""The call pipeline and the error boundary, with stub handlers (no browser, no MCP transport)."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
from cdpilot_generated.catalog import DISPATCH, TOOLS, Rule, RuleRoute
from cdpilot_generated.manifests import Mode
from cdpilot_generated.models import EnableDebugToolsRouting

import cdpilot.handlers.storage
from cdpilot.context import Settings, ToolContext, ToolResult
from cdpilot.errors import BrowserConnectionError, ErrorLog, InvalidParamsError, StateError
from cdpilot.handlers.table import HANDLERS
from cdpilot.server.registry import Registry, handler_problems

if TYPE_CHECKING:
    from cdpilot_generated.models import NavigateArgs

pytestmark = pytest.mark.anyio


class FakeConnections:
    def __init__(self, active_id: str | None) -> None:
        self.active_id = active_id

    def ended_news(self) -> list[str]:
        return []

    def request_marks(self) -> dict[str, int]:
        return {}

    async def settle_requests(self, marks: Any) -> None:
        return None

    async def pause_news(self) -> list[Any]:
        return []


class Recorder:
    """Stands in for every handler of the generated catalog; remembers the validated model it was given.

    Built from the catalog, not from the shipped table, so the pipeline is tested on its own.
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.answer = "ok"
        self.raise_: Exception | None = None

    def table(self) -> dict[str, Any]:
        return {name: self._make(name, route.model) for name, route in TOOLS.items()}

    def _make(self, name: str, model: type[Any]) -> Any:
        async def handler(args: Any, ctx: ToolContext) -> ToolResult:
            self.calls.append((name, args))
            if self.raise_ is not None:
                raise self.raise_
            return ToolResult(self.answer)

        # So the handler check sees the tool's model, as in a real handler's signature.
        handler.__annotations__ = {"args": model, "ctx": ToolContext, "return": ToolResult}
        return handler


def make_registry(mode: Mode, active: str | None = None) -> tuple[Registry, Recorder, io.StringIO]:
    recorder = Recorder()
    log = io.StringIO()
    ctx = ToolContext(FakeConnections(active), mode, Settings())  # type: ignore[arg-type]
    clock = lambda: datetime(2026, 11, 21, 9, 30, tzinfo=UTC)  # noqa: E731
    return Registry(ctx, recorder.table(), log=ErrorLog(stream=log, clock=clock)), recorder, log


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content)


async def test_unknown_tool_is_a_jsonrpc_invalid_params_error() -> None:
    registry, _, _ = make_registry("smart")
    with pytest.raises(InvalidParamsError) as info:
        await registry.call("chrome_launch", {})  # a legacy name is unknown in smart mode
    assert info.value.code == -32602
    assert info.value.message == "Unknown tool: chrome_launch"


async def test_validation_names_each_bad_field_with_expected_and_given() -> None:
    registry, recorder, log = make_registry("legacy")
    result = await registry.call("chrome_connect", {"port": 70000, "host": 5, "bogus": True})
    assert result.is_error
    text = text_of(result)
    assert "port: expected less than or equal to 65535, got 70000" in text
    assert "host: expected a valid string, got 5" in text
    assert "bogus: expected no such parameter for chrome_connect" in text
    assert result.meta == {
        "cdpilot/toolName": "chrome_connect",
        "cdpilot/errorType": "VALIDATION",
        "cdpilot/recoverable": True,
    }
    assert recorder.calls == []
    assert log.getvalue().startswith("2026-11-21T09:30:00.000Z [ERROR:VALIDATION] tool=chrome_connect conn=- ")


async def test_validation_is_strict_about_json_types() -> None:
    registry, _, _ = make_registry("legacy")
    result = await registry.call("chrome_connect", {"port": "9222"})
    assert "port: expected a valid integer, got '9222'" in text_of(result)


async def test_missing_required_field() -> None:
    registry, _, _ = make_registry("legacy", active="browser-1")
    result = await registry.call("navigate", {})
    assert "url: expected a value (required), got nothing" in text_of(result)


async def test_smart_action_routes_to_the_granular_model() -> None:
    registry, recorder, _ = make_registry("smart")
    result = await registry.call("chrome", {"action": "connect", "port": 9333})
    assert not result.is_error
    [(name, args)] = recorder.calls
    assert name == "chrome_connect"
    assert args.port == 9333 and args.host == "127.0.0.1"


async def test_smart_action_missing_or_unknown_names_the_discriminator() -> None:
    registry, _, _ = make_registry("smart")
    for arguments, given in (({}, "nothing"), ({"action": "explode"}, "'explode'")):
        result = await registry.call("chrome", arguments)
        actions = "launch, connect, run, list, switch, disconnect, save_state, load_state"
        assert f"action: expected one of: {actions}, got {given}" in text_of(result)


async def test_smart_parameter_of_another_action_is_refused_by_name() -> None:
    registry, _, _ = make_registry("smart")
    result = await registry.call("chrome", {"action": "list", "port": 1})
    assert "port: expected no such parameter for action 'list' of chrome (parameters: none)" in text_of(result)


async def test_smart_default_action() -> None:
    registry, recorder, _ = make_registry("smart", active="browser-1")
    await registry.call("navigate", {"url": "http://127.0.0.1/"})
    assert recorder.calls[0][0] == "navigate"


def test_the_generated_rule_routes_of_the_debugger_tools() -> None:
    assert DISPATCH["smart"]["evaluate"] == RuleRoute(
        "evaluate",
        None,
        (Rule(TOOLS["debugger_evaluate_on_call_frame"], "call_frame_id", None), Rule(TOOLS["evaluate_js"], None, None)),
        ("call_frame_id", "expression", "timeout_ms", "save_to", "connection_id"),
        {"await_promise": ("evaluate_js",)},
    )
    assert DISPATCH["smart"]["enable_debug_tools"] == RuleRoute(
        "enable_debug_tools",
        "EnableDebugToolsRouting",
        (
            Rule(TOOLS["debugger_disable"], None, ("enabled", False)),
            Rule(TOOLS["debugger_skip_all_pauses"], "skip_all_pauses", None),
            Rule(TOOLS["debugger_enable"], None, None),
        ),
        ("enabled", "connection_id", "skip_all_pauses"),
        {},
    )
    route = DISPATCH["smart"]["enable_debug_tools"]
    assert isinstance(route, RuleRoute) and route.own is EnableDebugToolsRouting


def test_each_route_names_its_models_parameters() -> None:
    """A route lists its model's parameters without importing it; the list must be the model's."""
    assert {name: route.parameters for name, route in TOOLS.items()} == {
        name: frozenset(route.model.model_fields) for name, route in TOOLS.items()
    }


@pytest.mark.parametrize(
    ("arguments", "tool"),
    [
        ({"expression": "x", "call_frame_id": 0}, "debugger_evaluate_on_call_frame"),
        ({"expression": "x", "call_frame_id": "frame-1"}, "debugger_evaluate_on_call_frame"),
        ({"expression": "x"}, "evaluate_js"),
    ],
)
async def test_rule_routing_by_presence_and_fallback(arguments: dict[str, Any], tool: str) -> None:
    registry, recorder, _ = make_registry("smart", active="browser-1")
    result = await registry.call("evaluate", arguments)
    assert not result.is_error, text_of(result)
    [(name, args)] = recorder.calls
    assert name == tool
    assert args.model_dump(exclude_defaults=True) == {**arguments, "connection_id": "browser-1"}


@pytest.mark.parametrize(
    ("arguments", "tool", "passed"),
    [
        ({}, "debugger_enable", {}),  # enabled defaults to true
        ({"enabled": True}, "debugger_enable", {}),
        ({"enabled": False}, "debugger_disable", {}),
        ({"skip_all_pauses": True}, "debugger_skip_all_pauses", {"skip_all_pauses": True}),
        ({"enabled": True, "skip_all_pauses": False}, "debugger_skip_all_pauses", {"skip_all_pauses": False}),
    ],
)
async def test_rule_routing_by_equality_counts_the_default_and_consumes_own_properties(
    arguments: dict[str, Any], tool: str, passed: dict[str, Any]
) -> None:
    registry, recorder, _ = make_registry("smart", active="browser-1")
    result = await registry.call("enable_debug_tools", arguments)
    assert not result.is_error, text_of(result)
    [(name, args)] = recorder.calls
    assert name == tool
    assert args.model_dump() == {**passed, "connection_id": "browser-1"}  # no "enabled": consumed


async def test_a_mistyped_router_own_property_is_refused_not_routed() -> None:
    registry, recorder, _ = make_registry("smart")
    result = await registry.call("enable_debug_tools", {"enabled": 0})
    assert text_of(result).startswith(
        "Invalid arguments for enable_debug_tools:\n- enabled: expected a valid boolean, got 0"
    )
    assert recorder.calls == []


@pytest.mark.parametrize(
    ("tool", "arguments", "label", "problem"),
    [
        (
            "evaluate",
            {"expression": "x", "call_frame_id": 0, "await_promise": False},
            "evaluate",
            "await_promise: expected no such parameter in smart mode (only legacy mode has it: evaluate_js), got False",
        ),
        (
            "evaluate",
            {"expression": 7},
            "evaluate without call_frame_id",
            "expression: expected a valid string, got 7",
        ),
        (
            "enable_debug_tools",
            {"enabled": False, "skip_all_pauses": True},
            "enable_debug_tools with enabled=false",
            "skip_all_pauses: expected no such parameter for enable_debug_tools with enabled=false "
            "(parameters: connection_id), got True",
        ),
        (
            "enable_debug_tools",
            {"skip_all_pauses": None},  # null counts as absent: the fallback, which takes no such parameter
            "enable_debug_tools without enabled=false or skip_all_pauses",
            "skip_all_pauses: expected no such parameter for enable_debug_tools without enabled=false or "
            "skip_all_pauses (parameters: connection_id), got None",
        ),
    ],
)
async def test_a_rule_routed_validation_error_names_the_route_and_why(
    tool: str, arguments: dict[str, Any], label: str, problem: str
) -> None:
    registry, _, _ = make_registry("smart", active="browser-1")
    text = text_of(await registry.call(tool, arguments))
    assert text.startswith(f"Invalid arguments for {label}:\n- {problem}")


@pytest.mark.parametrize(
    ("tool", "arguments", "problem"),
    [
        (
            "evaluate",
            {"expression": "x", "frame": 0},
            "frame: expected no such parameter for evaluate "
            "(parameters: call_frame_id, expression, timeout_ms, save_to, connection_id), got 0",
        ),
        (
            "enable_debug_tools",
            {"bogus": 1},
            "bogus: expected no such parameter for enable_debug_tools "
            "(parameters: enabled, connection_id, skip_all_pauses), got 1",
        ),
        (
            "chrome",
            {"action": "list", "bogus": 1},
            "bogus: expected no such parameter for chrome "
            "(parameters: action, url, connection_id, host, port, ws_url, pid, command, cwd, env, pause_at_start, "
            "path), got 1",
        ),
    ],
)
async def test_a_parameter_outside_the_flat_schema_is_refused_before_routing(
    tool: str, arguments: dict[str, Any], problem: str
) -> None:
    registry, recorder, _ = make_registry("smart", active="browser-1")
    text = text_of(await registry.call(tool, arguments))
    assert text.startswith(f"Invalid arguments for {tool}:\n- {problem}")
    assert recorder.calls == []


async def test_an_omitted_parameter_is_refused_in_smart_mode_naming_the_legacy_tool() -> None:
    registry, recorder, _ = make_registry("smart")
    result = await registry.call("chrome", {"action": "launch", "executable_path": "/opt/chrome", "extra_args": []})
    assert result.is_error and result.meta is not None
    assert result.meta["cdpilot/errorType"] == "VALIDATION"
    assert text_of(result) == (
        "Invalid arguments for chrome:\n"
        "- executable_path: expected no such parameter in smart mode (only legacy mode has it: chrome_launch), "
        "got '/opt/chrome'\n"
        "- extra_args: expected no such parameter in smart mode (only legacy mode has it: chrome_launch), got []\n\n"
        "Suggestion: Leave out executable_path, extra_args, or start cdpilot with --mode legacy and call chrome_launch."
    )
    assert recorder.calls == []


async def test_an_omitted_parameter_is_accepted_in_legacy_mode() -> None:
    registry, recorder, _ = make_registry("legacy")
    result = await registry.call("chrome_launch", {"executable_path": "/opt/chrome", "extra_args": ["--mute-audio"]})
    assert not result.is_error, text_of(result)
    [(name, args)] = recorder.calls
    assert (name, args.executable_path, args.extra_args) == ("chrome_launch", "/opt/chrome", ["--mute-audio"])


async def test_an_actions_invalid_arguments_name_the_action_and_the_tool() -> None:
    registry, _, _ = make_registry("smart", active="browser-1")
    text = text_of(await registry.call("execution", {"action": "stack", "max_frames": 99}))
    assert text.startswith(
        "Invalid arguments for action 'stack' of execution:\n- max_frames: expected less than or equal to 30, got 99"
    ), text


async def test_suggestions_spell_route_targets_as_smart_mode_calls_them() -> None:
    registry, recorder, _ = make_registry("smart", active="browser-1")
    recorder.raise_ = StateError(
        "Not paused.",
        suggestion="Use {tool:debugger_disable}, {tool:debugger_evaluate_on_call_frame} or {tool:evaluate_js}.",
    )
    result = await registry.call("execution", {"action": "stack"})
    assert text_of(result).endswith("Use enable_debug_tools(enabled=false), evaluate(call_frame_id=…) or evaluate().")


async def test_connection_id_defaults_to_the_active_connection_and_explicit_input_wins() -> None:
    registry, recorder, _ = make_registry("legacy", active="browser-2")
    await registry.call("navigate", {"url": "http://127.0.0.1/"})
    await registry.call("navigate", {"url": "http://127.0.0.1/", "connection_id": "other"})
    assert [args.connection_id for _, args in recorder.calls] == ["browser-2", "other"]


async def test_launch_never_defaults_to_the_active_connection() -> None:
    registry, recorder, _ = make_registry("legacy", active="browser-2")
    await registry.call("chrome_launch", {})
    assert recorder.calls[0][1].connection_id is None


@pytest.mark.parametrize(
    ("mode", "tool", "spelled"),
    [("smart", "navigate", 'chrome(action="launch")'), ("legacy", "navigate", "chrome_launch()")],
)
async def test_suggestions_name_tools_of_the_active_mode(mode: Mode, tool: str, spelled: str) -> None:
    registry, recorder, log = make_registry(mode, active="browser-1")
    recorder.raise_ = BrowserConnectionError("No browser is connected.")
    result = await registry.call(tool, {"url": "http://127.0.0.1/"})
    text = text_of(result)
    assert text.startswith("No browser is connected.\n\nSuggestion: Launch a browser with " + spelled)
    assert "{tool:" not in text
    assert result.meta is not None and result.meta["cdpilot/errorType"] == "CONNECTION"
    lines = log.getvalue().splitlines()
    assert re.fullmatch(
        r"\S+Z \[ERROR:CONNECTION\] tool=navigate conn=browser-1 recoverable=true No browser is connected\.",
        lines[0],
    )
    assert lines[1] == "  Suggestion: " + text.split("Suggestion: ")[1]


async def test_an_unexpected_exception_is_unknown_and_not_recoverable() -> None:
    registry, recorder, _ = make_registry("legacy")
    recorder.raise_ = KeyError("boom")
    result = await registry.call("chrome_list_connections", {})
    assert result.meta is not None
    assert result.meta["cdpilot/errorType"] == "UNKNOWN"
    assert result.meta["cdpilot/recoverable"] is False


async def test_state_error_keeps_its_own_suggestion() -> None:
    registry, recorder, _ = make_registry("smart")
    recorder.raise_ = StateError("Not paused.", suggestion="Pause with {tool:chrome_list_connections}.")
    result = await registry.call("chrome", {"action": "list"})
    assert text_of(result) == 'Not paused.\n\nSuggestion: Pause with chrome(action="list").'


@pytest.mark.parametrize(
    ("mode", "tool", "arguments", "spelled"),
    [
        ("legacy", "chrome_list_connections", {}, "chrome_list_connections()"),
        ("smart", "chrome", {"action": "list"}, 'chrome(action="list")'),
    ],
)
async def test_an_oversized_answer_is_cut_to_the_limit_and_says_how_to_narrow(
    mode: Mode, tool: str, arguments: dict[str, Any], spelled: str
) -> None:
    registry, recorder, _ = make_registry(mode)
    recorder.answer = "x" * 6000
    result = await registry.call(tool, arguments)
    text = text_of(result)
    assert not result.is_error and len(text) == 5000
    head, note = text.split("\n")
    kept = head.index("…")
    assert head == "x" * kept + f"…[+{6000 - kept} chars]"
    assert note == (
        "(Answer cut: it is 6000 characters, the limit is 5000. For the rest, narrow the request and call "
        f"{spelled} again.)"
    )  # this tool has no parameter that narrows an answer, so none is named


def test_the_shipped_handler_table_is_complete() -> None:
    assert handler_problems(HANDLERS, placed=True) == []


def test_handler_check_reports_missing_extra_and_mistyped_handlers() -> None:
    table: dict[str, Any] = dict(HANDLERS)
    del table["navigate"]
    table["no_such_tool"] = HANDLERS["chrome_launch"]
    table["chrome_connect"] = HANDLERS["chrome_launch"]
    assert handler_problems(table) == [
        "navigate: no handler",
        "no_such_tool: handler for a tool that does not exist",
        "chrome_connect: handler takes ChromeLaunchArgs, expected ChromeConnectArgs",
    ]


async def navigate(args: NavigateArgs, ctx: ToolContext) -> ToolResult:
    """A handler of the right type in the wrong place."""
    raise AssertionError("never called")


def test_handler_check_reports_a_handler_that_is_not_where_the_server_finds_it() -> None:
    table: dict[str, Any] = {**HANDLERS, "navigate": navigate}
    assert handler_problems(table) == []  # a table given to a registry is served as given
    assert handler_problems(table, placed=True) == [
        "navigate: handler is tests.test_registry.navigate, expected cdpilot.handlers.navigation.navigate "
        "(where the server finds it)"
    ]


def test_a_registry_without_a_table_loads_each_group_as_a_call_needs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = ToolContext(FakeConnections(None), "legacy", Settings())  # type: ignore[arg-type]
    registry = Registry(ctx)
    assert registry.load_groups(["navigation", "dom"]) == []
    assert registry.load_groups(["navigation"]) == []  # loaded: not checked again
    monkeypatch.delattr(cdpilot.handlers.storage, "get_cookies")
    assert registry.load_groups(["storage", "navigation"]) == ["get_cookies: no handler"]
    assert registry.load_groups(["storage"]) == ["get_cookies: no handler"]  # a broken group stays unloaded


def test_registry_refuses_to_start_with_an_incomplete_table() -> None:
    ctx = ToolContext(FakeConnections(None), "smart", Settings())  # type: ignore[arg-type]
    table: Mapping[str, Any] = {k: v for k, v in HANDLERS.items() if k != "navigate"}
    with pytest.raises(RuntimeError, match="navigate: no handler"):
        Registry(ctx, table)
