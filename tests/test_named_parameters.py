"""Every tool and parameter an answer or an error names is one the client can use in its mode.

Texts name tools as ``{tool:<granular tool>}`` and parameters as ``{param:<name>}`` (of the tool
called) or ``{param:<granular tool>.<name>}``; the registry renders them per mode and leaves out
a sentence naming a parameter the mode's tool does not take (smart tools take fewer). These
tests read every string of the package (not docstrings) as the user-facing text it may be:

- no text names a parameter or calls a tool in plain words, which would bypass rendering;
- every reference names a real tool and parameter;
- rendered for every tool of both modes, no reference is left, and an answer's reference (the
  ``answers`` package: lines that carry facts) is never left out, so a list that stops says in
  both modes how to see the rest.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cdpilot_generated import manifests
from cdpilot_generated.catalog import DISPATCH, TOOLS
from cdpilot_generated.manifests import MODES, Mode

from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.server.registry import parameters_by_tool
from tests.support.registry import in_process_registry

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cdpilot"
COMMAND_LINE = {"config.py", "cli.py"}  # they describe flags and settings, not tool parameters
REFERENCE = re.compile(r"\{(tool|param):(?:([a-z][a-z0-9_]*)\.)?([a-z][a-z0-9_]*)\}")
WIRE_NAMES = {
    mode: {tool["name"]: set(tool["inputSchema"].get("properties", {})) for tool in json.loads(payload)["tools"]}
    for mode, payload in (("smart", manifests.SMART_TOOLS_JSON), ("legacy", manifests.LEGACY_TOOLS_JSON))
}
PARAMETERS = set().union(*(names for tools in WIRE_NAMES.values() for names in tools.values()))
TOOL_NAMES = set(WIRE_NAMES["smart"]) | set(WIRE_NAMES["legacy"])
# A parameter in plain words: one with an underscore anywhere, or any one given a value ("offset=").
# Not part of a reference, a flag (--user-data-dir) or a longer identifier.
PLAIN_PARAMETER = re.compile(
    r"(?<![\w.:{-])(?:(" + "|".join(sorted((p for p in PARAMETERS if "_" in p), key=len, reverse=True)) + r")\b"
    r"|(" + "|".join(sorted(PARAMETERS, key=len, reverse=True)) + r")=)"
)
PLAIN_CALL = re.compile(r"(?<![\w.:{-])(" + "|".join(sorted(TOOL_NAMES, key=len, reverse=True)) + r")\((?!s\))")
# Words that read as a parameter but are not one, each with why.
NOT_PARAMETERS = {
    'value="': "the element notation shows an input's value attribute",
    '[name="': "a CSS attribute selector",
    "pid=": "a connection line shows its process id so, beside the endpoint=",
}


def texts() -> Iterator[tuple[str, str]]:
    """(where, text) of each string constant that may reach a client: not a docstring, not a
    lone identifier (a field or key name), not the field name of a `FieldProblem` or a ``field=``."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in COMMAND_LINE:
            continue
        tree = ast.parse(path.read_text())
        skipped: set[int] = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                skipped.add(id(body[0].value))  # a docstring (or a bare expression: no text either way)
            if isinstance(node, ast.Call):
                if getattr(node.func, "id", None) == "FieldProblem" and node.args:
                    skipped.add(id(node.args[0]))
                skipped.update(id(k.value) for k in node.keywords if k.arg == "field")
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:  # noqa: SIM102
                if not node.value.isidentifier():
                    yield f"{path.relative_to(PACKAGE)}:{node.lineno}", node.value


TEXTS = list(texts())


def test_the_scan_sees_the_texts_that_name_things() -> None:
    references = [m for _, text in TEXTS for m in REFERENCE.finditer(text)]
    assert len(TEXTS) > 1000 and sum(m[1] == "tool" for m in references) > 50
    assert sum(m[1] == "param" for m in references) > 20


def test_no_text_names_a_parameter_or_calls_a_tool_in_plain_words() -> None:
    plain = [
        f"{where}: {m[0]!r} in {text[:90]!r}"
        for where, text in TEXTS
        if text not in NOT_PARAMETERS
        for m in PLAIN_PARAMETER.finditer(text)
    ]
    plain += [f"{where}: {m[0]!r} in {text[:90]!r}" for where, text in TEXTS for m in PLAIN_CALL.finditer(text)]
    assert plain == [], "\n".join(plain)


def test_every_reference_names_a_real_tool_and_parameter() -> None:
    wrong = []
    for where, text in TEXTS:
        for kind, owner, name in REFERENCE.findall(text):
            if kind == "tool" and (owner or name not in TOOLS):
                wrong.append(f"{where}: no granular tool {name!r}")
            elif kind == "param" and owner and (owner not in TOOLS or name not in TOOLS[owner].model.model_fields):
                wrong.append(f"{where}: {owner!r} has no parameter {name!r}")
            elif kind == "param" and not owner and name not in PARAMETERS:
                wrong.append(f"{where}: no tool has a parameter {name!r}")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("mode", MODES)
def test_answers_name_only_parameters_the_mode_takes(mode: Mode) -> None:
    """A reference in an answer line is never dropped: its tool takes it in every mode (without a
    tool: every tool that has the parameter takes it)."""
    takes = parameters_by_tool(DISPATCH[mode])
    dropped = [
        f"{where}: {tool}.{name}"
        for where, text in TEXTS
        if where.startswith("answers/")
        for kind, owner, name in REFERENCE.findall(text)
        if kind == "param"
        for tool in ([owner] if owner else [t for t, route in TOOLS.items() if name in route.model.model_fields])
        if name not in takes.get(tool, ())
    ]
    assert dropped == [], "\n".join(dropped)


@pytest.mark.parametrize("mode", MODES)
def test_every_text_renders_for_every_tool_with_no_reference_left(mode: Mode) -> None:
    registry = in_process_registry(ConnectionManager(), mode)
    called = sorted(parameters_by_tool(DISPATCH[mode]))
    left = [
        f"{where} for {tool}: {rendered!r}"
        for where, text in TEXTS
        if "{" in text
        for tool in called
        if REFERENCE.search(rendered := registry.render(text, tool))
    ]
    assert left == [], "\n".join(left[:20])


@pytest.mark.parametrize(
    ("mode", "called", "expected"),
    [
        ("legacy", "hover_element", "Look at the page. A higher timeout_ms waits longer.\nNext: query_elements()."),
        ("smart", "hover_element", "Look at the page.\nNext: query_elements()."),  # interact takes no timeout_ms
        ("smart", "interact", "Look at the page.\nNext: query_elements()."),  # not routed yet
        ("smart", "click_element", "Look at the page. A higher timeout_ms waits longer.\nNext: query_elements()."),
    ],
)
def test_a_sentence_naming_what_the_tool_does_not_take_is_left_out(mode: Mode, called: str, expected: str) -> None:
    registry = in_process_registry(ConnectionManager(), mode)
    text = "Look at the page. A higher {param:timeout_ms} waits longer.\nNext: {tool:query_elements}."
    assert registry.render(text, called) == expected
