"""The call pipeline, the MCP error boundary, and the handler completeness check.

Pipeline, one pass per tools/call:
lookup (O(1), per-mode table) → smart routing (only the parameters of the smart tool's flat
schema; by action, or by declared rules) → default-argument resolvers
(explicit input wins) → strict validation into the generated model → handler →
answer-size budget → result (a `CallResult`: plain data, since on stdio the first calls are
served before the SDK is loaded). Every exception ends here, is classified once
(`errors.classify`), logged once and returned as an ``isError`` result.
"""

from __future__ import annotations

import inspect
import json
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from cdpilot_generated.catalog import DISPATCH, SPELLINGS, TOOLS, ActionRoute, Rule, RuleRoute, ToolRoute
from cdpilot_generated.contract import ResolverTable
from cdpilot_generated.manifests import GRANULAR_TOOL_GROUP, GROUPS
from pydantic import BaseModel, ValidationError

from cdpilot.answers.error_answers import error_answer
from cdpilot.context import ToolContext, ToolResult, collecting_call_notes
from cdpilot.errors import (
    ArgumentError,
    ErrorLog,
    FieldProblem,
    InvalidParamsError,
    classify,
    render_parameter_references,
    render_tool_references,
)
from cdpilot.handlers import group_handlers
from cdpilot.server.call_results import CallResult, ContentBlock, ImageBlock, TextBlock
from cdpilot.server.file_links import SessionFiles
from cdpilot.server.rate_limit import RateLimiter
from cdpilot.text import clip

Handler = Callable[[Any, ToolContext], typing.Awaitable[ToolResult]]

# What each resolver a schema may name under x-cdpilot.defaults fills in; the generated
# ResolverTable lists the names, so mypy reports one missing here.
DEFAULT_RESOLVERS: ResolverTable[ToolContext] = {
    "active_connection": lambda ctx: ctx.connections.active_id,
}
_RESOLVER_BY_NAME = typing.cast(Mapping[str, Callable[[ToolContext], object]], DEFAULT_RESOLVERS)


TABLE_MISMATCH = "handler table does not match the tool catalog:\n"

# Parameters that make an answer smaller, named by a cut answer when its tool has them.
NARROWING_PARAMETERS = ("selector", "filter", "filter_level", "query", "limit", "max_frames", "line_count", "max_chars")


def handler_problems(
    handlers: Mapping[str, object], tools: Collection[str] = TOOLS, *, placed: bool = False
) -> list[str]:
    """Every way the handler table disagrees with the generated catalog for `tools` (all by
    default; a group's as the server loads one), by tool name; with `placed`, also each handler
    that is not where the stdio server finds it (`cdpilot.handlers.group_handlers`), so that
    `table.HANDLERS`, which mypy checks, is what that server serves.

    A handler's argument type is checked by the name its annotation gives (a string, as the
    handler modules postpone annotations), so that the check imports no model: the server
    runs it as it loads, and each group's models are imported only when a call needs them.
    mypy checks the types themselves against the generated contract."""
    present = {name for name in tools if handlers.get(name) is not None}
    problems = [f"{name}: no handler" for name in sorted(set(tools) - present)]
    problems += [f"{name}: handler for a tool that does not exist" for name in sorted(set(handlers) - set(TOOLS))]
    for name in sorted(present):
        route, handler, group = TOOLS[name], handlers[name], GRANULAR_TOOL_GROUP[name]
        if not inspect.iscoroutinefunction(handler):
            problems.append(f"{name}: handler is not an async function")
            continue
        try:
            params = list(inspect.signature(handler).parameters.values())
        except (TypeError, ValueError) as exc:
            problems.append(f"{name}: cannot read the handler's signature ({exc})")
            continue
        annotation = params[0].annotation if params else inspect.Parameter.empty
        given = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
        place = f"cdpilot.handlers.{group}.{name}"
        found = f"{getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', '?')}"
        if given != route.model_name:
            problems.append(f"{name}: handler takes {given}, expected {route.model_name}")
        elif placed and found != place:
            problems.append(f"{name}: handler is {found}, expected {place} (where the server finds it)")
    return problems


def _describe_given(value: object) -> str:
    return clip(repr(value), 40)


def _problems(exc: ValidationError, model: type[BaseModel], label: str, hidden: Collection[str]) -> list[FieldProblem]:
    fields = ", ".join(name for name in model.model_fields if name not in hidden)
    problems = []
    for error in exc.errors(include_url=False):
        loc = ".".join(str(part) for part in error["loc"]) or "(arguments)"
        kind = error["type"]
        if kind == "missing":
            expected, given = "a value (required)", "nothing"
        elif kind == "extra_forbidden":
            expected = f"no such parameter for {label} (parameters: {fields or 'none'})"
            given = _describe_given(error["input"])
        else:
            message = error["msg"]
            expected = message.removeprefix("Input should be ").removeprefix("input should be ")
            given = _describe_given(error["input"])
        problems.append(FieldProblem(loc, expected, given))
    return problems


def _json_integers(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments with integral floats as ints. JSON has one number type and JSON Schema's
    ``integer`` takes 5.0, but strict validation refuses a Python float for an int; parameters
    are top-level in every schema, so one level is enough (and a bool is never touched)."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in arguments.items()}


def _validate(
    model: type[BaseModel],
    args: dict[str, Any],
    label: str,
    hidden: Collection[str] = (),
    instead: Sequence[FieldProblem] = (),
) -> BaseModel:
    """Strict validation; ``label`` says what was called, e.g. "action 'set' of breakpoint"; the
    parameters listed when one is unknown leave out ``hidden`` ones (those smart mode omits).
    When a required value is missing, ``instead`` names the parameters that would have chosen
    another route (`_fallback_alternatives`)."""
    try:
        return model.model_validate(args, strict=True)
    except ValidationError as exc:
        problems = _problems(exc, model, label, hidden)
        if any(problem.given == "nothing" for problem in problems):
            problems += instead
        raise ArgumentError(f"Invalid arguments for {label}:", problems=problems) from exc


def _fallback_alternatives(route: ToolRoute | ActionRoute | RuleRoute, tool: ToolRoute) -> list[FieldProblem]:
    """For a call that fell through to a routing table's fallback: the parameters whose presence
    would have chosen another tool, since the client may have meant that one ("fields" for a
    whole form, not "selector" and "text" for one field). Said in words of the smart tool itself:
    its granular tools are not names the client knows."""
    if not isinstance(route, RuleRoute) or tool is not route.rules[-1].tool:
        return []
    return [
        FieldProblem(rule.present, "a value, or else the parameters above", "nothing")
        for rule in route.rules[:-1]
        if rule.present is not None
    ]


def _rule_matches(rule: Rule, given: Mapping[str, Any], settled: Mapping[str, Any]) -> bool:
    """``present`` looks at what the client sent; ``equals`` also counts the router's defaults."""
    if rule.present is not None:
        return given.get(rule.present) is not None
    if rule.equals is None:
        return True
    prop, value = rule.equals
    actual = settled.get(prop, given.get(prop))
    return type(actual) is type(value) and actual == value  # JSON equality: false is not 0


def _condition(rule: Rule) -> str:
    if rule.equals is not None:
        prop, value = rule.equals
        return f"{prop}={json.dumps(value)}"
    return str(rule.present)


def _rule_label(route: RuleRoute, chosen: Rule) -> str:
    """The route taken and why, for validation messages: "evaluate with call_frame_id",
    "evaluate without call_frame_id" (the fallback), or just the tool when it has one rule."""
    if chosen.present is not None or chosen.equals is not None:
        return f"{route.name} with {_condition(chosen)}"
    skipped = [_condition(rule) for rule in route.rules[:-1]]
    return f"{route.name} without {' or '.join(skipped)}" if skipped else route.name


def _route_by_rules(route: RuleRoute, args: dict[str, Any]) -> tuple[ToolRoute, dict[str, Any], str]:
    """The first matching rule wins (the last is the fallback; the schema lint guarantees one).

    The router-own properties are validated first, so a mistyped one fails instead of
    silently choosing the fallback, and are consumed: the granular model never sees them.
    """
    own_names = route.own.model_fields if route.own is not None else {}
    own_given = {name: args.pop(name) for name in list(args) if name in own_names}
    settled = _validate(route.own, own_given, route.name).model_dump() if route.own is not None else {}
    given = {**args, **own_given}
    chosen = next((rule for rule in route.rules[:-1] if _rule_matches(rule, given, settled)), route.rules[-1])
    return chosen.tool, args, _rule_label(route, chosen)


def _refuse_unlisted(route: ActionRoute | RuleRoute, args: Mapping[str, Any]) -> None:
    """A smart tool accepts exactly the flat schema it lists. The granular model behind it would
    also take the parameters smart mode omits (x-cdpilot.omit), so the check cannot be left to it."""
    unlisted = [name for name in args if name not in route.parameters]
    if not unlisted:
        return
    problems = [FieldProblem(name, _unlisted(route, name), _describe_given(args[name])) for name in unlisted]
    omitted = [name for name in unlisted if name in route.omitted]
    legacy = ", ".join(dict.fromkeys(tool for name in omitted for tool in route.omitted[name]))
    suggestion = (
        f"Leave out {', '.join(omitted)}, or start cdpilot with --mode legacy and call {legacy}." if omitted else None
    )
    raise ArgumentError(f"Invalid arguments for {route.name}:", problems=problems, suggestion=suggestion)


def _unlisted(route: ActionRoute | RuleRoute, name: str) -> str:
    owners = route.omitted.get(name)
    if owners:
        return f"no such parameter in smart mode (only legacy mode has it: {', '.join(owners)})"
    return f"no such parameter for {route.name} (parameters: {', '.join(route.parameters)})"


def parameters_by_tool(table: Mapping[str, ToolRoute | ActionRoute | RuleRoute]) -> dict[str, frozenset[str]]:
    """For each granular tool (and each tool of the table by its own name), the parameters a
    call in this mode can give it: a smart tool passes on only what its flat schema lists."""
    found: dict[str, frozenset[str]] = {}
    for name, route in table.items():
        if isinstance(route, ToolRoute):
            found[name] = route.parameters
            continue
        exposed = frozenset(route.parameters)
        found[name] = exposed
        targets = route.actions.values() if isinstance(route, ActionRoute) else [rule.tool for rule in route.rules]
        for target in targets:
            found[target.name] = target.parameters & exposed
    return found


class Registry:
    """Serves one mode's tools against one handler table."""

    def __init__(
        self,
        ctx: ToolContext,
        handlers: Mapping[str, object] | None = None,
        *,
        log: ErrorLog | None = None,
    ) -> None:
        """`handlers`: a whole table, checked here; None: each group's handlers from their place
        (`cdpilot.handlers.group_handlers`), imported and checked when first needed (`load_groups`)."""
        self._handlers: dict[str, Handler] = {}
        self._loaded_groups: set[str] = set()
        if handlers is not None:
            problems = handler_problems(handlers)
            if problems:
                raise RuntimeError(TABLE_MISMATCH + "\n".join(problems))
            # Checked just above: every entry is an async handler taking its tool's model.
            self._handlers.update(typing.cast(Mapping[str, Handler], handlers))
            self._loaded_groups.update(GROUPS)
        self.ctx = ctx
        self._table = DISPATCH[ctx.mode]
        self._spellings = SPELLINGS[ctx.mode]
        self._parameters = parameters_by_tool(self._table)
        self._log = log or ErrorLog()
        self._limiter = RateLimiter(ctx.settings.rate_limit)
        self.files = SessionFiles(ctx.settings.output_dir)

    def load_groups(self, groups: Collection[str]) -> list[str]:
        """Import and check the handlers of those of `groups` not loaded yet: what is wrong with
        them (`handler_problems`); a group with a problem stays unloaded."""
        problems: list[str] = []
        for group in sorted(set(groups) - self._loaded_groups):
            found = group_handlers(group)
            wrong = handler_problems(found, tools=found.keys())
            if wrong:
                problems += wrong
                continue
            self._handlers.update(typing.cast(Mapping[str, Handler], found))
            self._loaded_groups.add(group)
        return problems

    def _handler(self, tool: ToolRoute) -> Handler:
        """`tool`'s handler, its group loaded now if no call needed it before."""
        if tool.name not in self._handlers:
            problems = self.load_groups([GRANULAR_TOOL_GROUP[tool.name]])
            if problems:
                raise RuntimeError(TABLE_MISMATCH + "\n".join(problems))
        return self._handlers[tool.name]

    def spell(self, tool: str) -> str:
        """A granular tool as the client must call it in the active mode."""
        return self._spellings.get(tool, f"{tool}()")

    def render(self, text: str, called: str) -> str:
        """`text` with its tool and parameter references in the active mode's terms; `called`
        is the tool the call reached (granular once routed, else as the client named it)."""

        def takes(tool: str | None, parameter: str) -> bool:
            return parameter in self._parameters.get(tool or called, ())

        return render_tool_references(render_parameter_references(text, takes), self.spell)

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> CallResult:
        served = self.ctx.settings.tools  # a tool filtered out at start is as unknown as one that never existed
        route = self._table.get(name) if served is None or name in served else None
        if route is None:
            raise InvalidParamsError(f"Unknown tool: {name}")
        connection_id: str | None = None
        try:
            self._limiter.take(name)
            tool, args, label = self._route(route, _json_integers(arguments or {}))
            for prop, resolver in tool.defaults.items():
                if args.get(prop) in (None, ""):  # an empty id or name means "not given", as null does
                    args[prop] = typing.cast(Mapping[str, Callable[[ToolContext], object]], DEFAULT_RESOLVERS)[
                        resolver
                    ](self.ctx)
            value = args.get("connection_id")
            connection_id = value if isinstance(value, str) else None
            hidden = route.omitted if not isinstance(route, ToolRoute) else {}
            model = _validate(tool.model, args, label, hidden, _fallback_alternatives(route, tool))
            with collecting_call_notes() as notes:
                requests_before = self.ctx.connections.request_marks()
                try:
                    result = await self._handler(tool)(model, self.ctx)
                except Exception as exc:
                    told = [*await self._news(tool.name, requests_before), *notes]
                    return self._failure(name, connection_id, exc, arguments or {}, told, reached=tool.name)
            return self._success(result, tool.name, [*await self._news(tool.name, requests_before), *notes])
        except Exception as exc:
            return self._failure(name, connection_id, exc, arguments or {})

    async def _news(self, called: str, requests_before: Mapping[str, int]) -> list[str]:
        """What happened beside the call, told once at the top of its answer: a Node.js program
        that ended, a Node.js pause that came between calls or during this one (a click whose
        request hit a breakpoint in the server) and that no answer has shown."""
        await self.ctx.connections.settle_requests(requests_before)
        lines = self.ctx.connections.ended_news()
        for found in await self.ctx.connections.pause_news():
            from cdpilot.answers.pause_answers import pause_news_line  # the debugger's answers: not loaded at start

            lines.append(self.render(pause_news_line(*found), called))
        return lines

    def _route(
        self, route: ToolRoute | ActionRoute | RuleRoute, args: dict[str, Any]
    ) -> tuple[ToolRoute, dict[str, Any], str]:
        """The granular route, its arguments, and a label naming what was called."""
        if isinstance(route, ToolRoute):
            return route, args, route.name
        _refuse_unlisted(route, args)
        if isinstance(route, RuleRoute):
            return _route_by_rules(route, args)
        key = route.discriminator
        action = args.pop(key, None) if key in args else route.default_action
        if isinstance(action, str) and action in route.actions:
            return route.actions[action], args, f"action '{action}' of {route.name}"
        allowed = ", ".join(route.actions)
        given = "nothing" if action is None else _describe_given(action)
        raise ArgumentError(
            f"Invalid arguments for {route.name}:",
            problems=[FieldProblem(key, f"one of: {allowed}", given)],
            suggestion=f"Call {route.name} with {key} set to one of: {allowed}.",
        )

    def _success(self, result: ToolResult, tool: str, notes: Sequence[str] = ()) -> CallResult:
        text = self.render("\n".join([*notes, result.text]), tool)
        limit = self.ctx.settings.max_answer_chars
        if len(text) > limit:  # cut, never refuse: the start is worth reading, and the note says what is missing
            narrowing = [name for name in NARROWING_PARAMETERS if name in self._parameters.get(tool, ())]
            how = f" with {', '.join(narrowing)}" if narrowing else ""
            note = (
                f"\n(Answer cut: it is {len(text)} characters, the limit is {limit}. For the rest, narrow the request"
                f"{how} and call {self.spell(tool)} again.)"
            )
            text = clip(text, limit - len(note)) + note
        content: list[ContentBlock] = [TextBlock(text)]
        content += [ImageBlock(image.data_base64, image.mime_type) for image in result.images]
        if result.files:
            content += self.files.links(result.files)
        return CallResult(content)

    def _failure(
        self,
        name: str,
        connection_id: str | None,
        exc: Exception,
        arguments: Mapping[str, Any],
        notes: Sequence[str] = (),
        *,
        reached: str | None = None,
    ) -> CallResult:
        info = classify(exc)
        suggestion = self.render(info.suggestion, reached or name)
        message = self.render(info.message, reached or name)
        rendered = type(info)(info.error_type, info.recoverable, message, suggestion)
        route = self._table[name]
        if isinstance(route, ActionRoute):  # the action is no secret, and masking "connect" would garble the line
            arguments = {k: v for k, v in arguments.items() if k != route.discriminator}
        self._log.write(rendered, tool=name, connection_id=connection_id, exc=exc, arguments=arguments)
        return CallResult(
            [TextBlock("\n".join([*notes, error_answer(message, suggestion)]))],
            is_error=True,
            meta={
                "cdpilot/toolName": name,
                "cdpilot/errorType": str(info.error_type),
                "cdpilot/recoverable": info.recoverable,
            },
        )
