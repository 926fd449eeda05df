"""The docs site against the server's own sources: its figures are the payloads the server sends,
its error table is cdpilot's error types, and the real tools get the errors the rule gives them."""

from __future__ import annotations

from cdpilot_generated import manifests

from cdpilot.errors import CdpilotError, ErrorType, classify
from codegen.catalog import load_catalog
from codegen.site import REPO, attach_entries, server_payloads
from codegen.site_pages import ToolDoc, tool_docs


def real_docs() -> list[ToolDoc]:
    return tool_docs(load_catalog(REPO / "schemas"))


def test_each_modes_figures_are_its_tools_list_as_the_server_sends_it() -> None:
    docs = real_docs()
    summaries = attach_entries(docs, server_payloads())
    assert [(s.mode, s.count, s.size) for s in summaries] == [
        ("smart", manifests.SMART_TOOL_COUNT, len(manifests.SMART_TOOLS_JSON)),
        ("legacy", manifests.LEGACY_TOOL_COUNT, len(manifests.LEGACY_TOOLS_JSON)),
    ]
    assert all(set(doc.entries) == set(doc.modes) for doc in docs)


def _subclasses(cls: type[CdpilotError]) -> list[type[CdpilotError]]:
    return [cls, *(sub for child in cls.__subclasses__() for sub in _subclasses(child))]


def test_what_each_error_type_says_of_retries_holds_for_its_classes() -> None:
    for error in _subclasses(CdpilotError)[1:]:
        assert error.error_type.recoverable in (("yes", "case by case") if error.recoverable else ("no",)), error
    assert classify(RuntimeError("a bug")).recoverable is (ErrorType.UNKNOWN.recoverable == "yes")


def test_the_real_tools_get_the_errors_of_the_rule() -> None:
    errors = {doc.href: doc.errors for doc in real_docs()}
    assert errors["tools/chrome_list_connections.html"] == ["VALIDATION", "UNKNOWN"]
    assert errors["tools/chrome_launch.html"] == ["CONNECTION", "VALIDATION", "EXECUTION", "UNKNOWN"]
    assert errors["tools/query_elements.html"] == ["CONNECTION", "STATE", "VALIDATION", "EXECUTION", "UNKNOWN"]
    assert errors["tools/debugger_pause.html"] == [kind.value for kind in ErrorType]
    assert "DEBUGGER" in errors["smart/evaluate.html"]  # one of its routes is a debugger tool
    assert "DEBUGGER" not in errors["tools/evaluate_js.html"]
