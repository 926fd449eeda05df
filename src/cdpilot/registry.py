"""The call pipeline, the MCP error boundary, and the handler completeness check.

Pipeline (ARCHITECTURE §5), one pass per tools/call:
lookup (O(1), per-mode table) → smart action routing → default-argument resolvers
(explicit input wins) → strict validation into the generated model → handler →
answer-size budget → result. Every exception ends here, is classified once
(`errors.classify`), logged once and returned as an ``isError`` result.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types as types
from cdpilot_generated.catalog import DISPATCH, SPELLINGS, TOOLS, ActionRoute, ToolRoute
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from cdpilot.context import ToolContext, ToolResult
from cdpilot.errors import ArgumentError, ErrorLog, FieldProblem, classify, render_tool_references

Handler = Callable[[Any, ToolContext], typing.Awaitable[ToolResult]]

# Named default-argument resolvers that schemas may use under x-cdpilot.defaults
# (codegen's lint knows the same names: codegen/lint.py KNOWN_RESOLVERS).
DEFAULT_RESOLVERS: Mapping[str, Callable[[ToolContext], object]] = {
    "active_connection": lambda ctx: ctx.connections.active_id,
}


def handler_problems(handlers: Mapping[str, object]) -> list[str]:
    """Every way the handler table disagrees with the generated catalog, by tool name."""
    problems = [f"{name}: no handler" for name in sorted(set(TOOLS) - set(handlers))]
    problems += [f"{name}: handler for a tool that does not exist" for name in sorted(set(handlers) - set(TOOLS))]
    for name in sorted(set(TOOLS) & set(handlers)):
        expected = TOOLS[name].model
        handler = handlers[name]
        if not inspect.iscoroutinefunction(handler):
            problems.append(f"{name}: handler is not an async function")
            continue
        try:
            params = list(inspect.signature(handler).parameters)
            hints = typing.get_type_hints(handler)
        except (NameError, TypeError, ValueError) as exc:
            problems.append(f"{name}: cannot read the handler's annotations ({exc})")
            continue
        given = hints.get(params[0]) if params else None
        if given is not expected:
            shown = getattr(given, "__name__", repr(given))
            problems.append(f"{name}: handler takes {shown}, expected {expected.__name__}")
    return problems


def _describe_given(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _problems(exc: ValidationError, route: ToolRoute, action_label: str | None) -> list[FieldProblem]:
    fields = ", ".join(route.model.model_fields)
    problems = []
    for error in exc.errors(include_url=False):
        loc = ".".join(str(part) for part in error["loc"]) or "(arguments)"
        kind = error["type"]
        if kind == "missing":
            expected, given = "a value (required)", "nothing"
        elif kind == "extra_forbidden":
            where = f"action {action_label}" if action_label else route.name
            expected = f"no such parameter for {where} (parameters: {fields or 'none'})"
            given = _describe_given(error["input"])
        else:
            message = error["msg"]
            expected = message.removeprefix("Input should be ").removeprefix("input should be ")
            given = _describe_given(error["input"])
        problems.append(FieldProblem(loc, expected, given))
    return problems


class Registry:
    """Serves one mode's tools against one handler table."""

    def __init__(
        self,
        ctx: ToolContext,
        handlers: Mapping[str, object],
        *,
        log: ErrorLog | None = None,
    ) -> None:
        problems = handler_problems(handlers)
        if problems:
            raise RuntimeError("handler table does not match the tool catalog:\n" + "\n".join(problems))
        self.ctx = ctx
        # Checked just above: every entry is an async handler taking its tool's model.
        self._handlers = typing.cast(Mapping[str, Handler], handlers)
        self._table = DISPATCH[ctx.mode]
        self._spellings = SPELLINGS[ctx.mode]
        self._log = log or ErrorLog()

    def spell(self, tool: str) -> str:
        """A granular tool as the client must call it in the active mode."""
        return self._spellings.get(tool, f"{tool}()")

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        route = self._table.get(name)
        if route is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")
        connection_id: str | None = None
        try:
            tool, args, action_label = self._route(route, dict(arguments or {}))
            for prop, resolver in tool.defaults.items():
                if args.get(prop) is None:
                    args[prop] = DEFAULT_RESOLVERS[resolver](self.ctx)
            value = args.get("connection_id")
            connection_id = value if isinstance(value, str) else None
            model = self._validate(tool, args, action_label)
            result = await self._handlers[tool.name](model, self.ctx)
            return self._success(result, tool.name)
        except Exception as exc:
            return self._failure(name, connection_id, exc)

    def _route(
        self, route: ToolRoute | ActionRoute, args: dict[str, Any]
    ) -> tuple[ToolRoute, dict[str, Any], str | None]:
        if isinstance(route, ToolRoute):
            return route, args, None
        key = route.discriminator
        action = args.pop(key, None) if key in args else route.default_action
        if isinstance(action, str) and action in route.actions:
            return route.actions[action], args, f"'{action}' of {route.name}"
        allowed = ", ".join(route.actions)
        given = "nothing" if action is None else _describe_given(action)
        raise ArgumentError(
            f"Invalid arguments for {route.name}:",
            problems=[FieldProblem(key, f"one of: {allowed}", given)],
            suggestion=f"Call {route.name} with {key} set to one of: {allowed}.",
        )

    def _validate(self, tool: ToolRoute, args: dict[str, Any], action_label: str | None) -> BaseModel:
        try:
            return tool.model.model_validate(args, strict=True)
        except ValidationError as exc:
            what = f"action {action_label}" if action_label else tool.name
            raise ArgumentError(f"Invalid arguments for {what}:", problems=_problems(exc, tool, action_label)) from exc

    def _success(self, result: ToolResult, tool: str) -> types.CallToolResult:
        limit = self.ctx.settings.max_answer_chars
        if len(result.text) > limit:
            raise ArgumentError(
                f"The answer would be {len(result.text)} characters; the limit is {limit}.",
                suggestion=f"Narrow the request and call {{tool:{tool}}} again: a lower limit, a tighter selector "
                "or a filter.",
            )
        content: list[types.ContentBlock] = [types.TextContent(type="text", text=result.text)]
        content += [types.ImageContent(type="image", data=i.data_base64, mime_type=i.mime_type) for i in result.images]
        return types.CallToolResult(content=content)

    def _failure(self, name: str, connection_id: str | None, exc: Exception) -> types.CallToolResult:
        info = classify(exc)
        suggestion = render_tool_references(info.suggestion, self.spell)
        message = render_tool_references(info.message, self.spell)
        rendered = type(info)(info.error_type, info.recoverable, message, suggestion)
        self._log.write(rendered, tool=name, connection_id=connection_id, exc=exc)
        text = f"{message}\n\nSuggestion: {suggestion}" if suggestion else message
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            is_error=True,
            _meta={
                "cdpilot/toolName": name,
                "cdpilot/errorType": str(info.error_type),
                "cdpilot/recoverable": info.recoverable,
            },
        )
