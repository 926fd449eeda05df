"""The layout keeps its promises: one module per name, pure answer renderers, JavaScript in
JavaScript files. These are the rules `docs/architecture.md` describes; here they are checked."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "cdpilot"
ANSWERS = sorted(path.stem for path in (SOURCE / "answers").glob("*.py") if path.stem != "__init__")
JS_MARKS = ("=>", "function", "document.", "const ", "querySelector")


def test_no_two_modules_share_a_base_name() -> None:
    seen: defaultdict[str, list[str]] = defaultdict(list)
    for tree in (SOURCE, ROOT / "codegen"):
        for path in tree.rglob("*.py"):
            if path.stem not in ("__init__", "__main__"):
                seen[path.stem].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


def test_there_are_answer_renderers() -> None:
    assert len(ANSWERS) >= 5, ANSWERS


@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_renderer_does_no_io(name: str) -> None:
    """No coroutine, and nothing of the protocol client loaded, even indirectly: a renderer
    turns facts into text and can be tested without a browser."""
    source = (SOURCE / "answers" / f"{name}.py").read_text()
    nodes = list(ast.walk(ast.parse(source)))
    assert not [n for n in nodes if isinstance(n, ast.AsyncFunctionDef | ast.Await)], f"{name} is async"
    probe = (
        f"import sys, cdpilot.answers.{name}; "
        "loaded = sorted(m for m in sys.modules if m.startswith('cdpilot.cdp')); print(loaded); sys.exit(bool(loaded))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, f"cdpilot.answers.{name} loads {run.stdout.strip()}{run.stderr[-500:]}"


# What a renderer returns, by the end of its name (docs/architecture.md, answers/).
RENDERED = {"_answer": "str", "_line": "str", "_text": "str", "_lines": "list[str]"}
# Public functions of answers/ that compute a value rather than render text.
NOT_RENDERERS = {"origin_of", "compact_url", "library_name"}


@pytest.mark.parametrize("name", ANSWERS)
def test_answer_modules_and_renderers_follow_the_naming(name: str) -> None:
    """A module is ``<subject>_answers``; a public function named ``*_answer`` returns a whole
    answer (str), ``*_line`` one line (str), ``*_text`` a part of one or a block (str), and
    ``*_lines`` the lines of an answer (list[str]); every public str or list[str] is one of them."""
    assert name.endswith("_answers"), name
    wrong = []
    for node in ast.parse((SOURCE / "answers" / f"{name}.py").read_text()).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_") or node.returns is None:
            continue
        returns = ast.unparse(node.returns)
        suffix = next((s for s in ("_lines", "_line", "_answer", "_text") if node.name.endswith(s)), None)
        if suffix is not None and RENDERED[suffix] != returns:
            wrong.append(f"{node.name} -> {returns}")
        if suffix is None and returns in ("str", "list[str]") and node.name not in NOT_RENDERERS:
            wrong.append(f"{node.name} -> {returns}")
    assert wrong == []


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def test_page_javascript_lives_in_js_files() -> None:
    """A string constant of more than one line that reads like JavaScript belongs in browser/js/."""
    offenders = []
    for path in SOURCE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value.strip()
                if "\n" in text and any(mark in text for mark in JS_MARKS):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


# --- imports: the layer table of docs/architecture.md as a matrix, and no cycle ----------------

PACKAGE = "cdpilot"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in SOURCE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The cdpilot modules `name` imports anywhere in it: at the top, in a function, and under
    ``if TYPE_CHECKING:`` alike (a type-only import is a dependency too). ``from a import b``
    counts as an import of ``a.b`` when that is a module, else of ``a``."""
    path = MODULES[name]
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                whole = f"{module}.{alias.name}"
                found.add(whole if whole in MODULES else module)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _layer(module: str) -> str:
    """The row of the matrix a module belongs to: its layer, or its own name beside them."""
    parts = module.split(".")[1:]
    if not parts:
        return "cdpilot"
    if parts[0] == "browser" and len(parts) > 1 and parts[1] in ("session", "target"):
        return f"browser.{parts[1]}"
    return parts[0]


BESIDE = {"errors", "text", "progress", "call_rate", "log_setup", "output_files", "upload_files"}
# Who may import whom: the layer table of docs/architecture.md, each layer only those below it.
# `browser.target` is the seam of the browser layer (what a feature needs of its target);
# `browser.session` is its top (building connections and wiring their features).
ALLOWED: dict[str, set[str]] = {
    "cli": {"cdpilot", "config", "context", "server", "handlers", "answers", "browser", "browser.session", *BESIDE},
    "server": {"cdpilot", "config", "context", "handlers", "answers", *BESIDE},
    "handlers": {"context", "answers", "browser", "browser.target", "browser.session", *BESIDE},
    "answers": {"browser", "browser.session", "text"},  # facts only: see test_answers_read_only_facts
    "browser": {"browser.target", "cdp", "errors", "text", "progress", "output_files"},
    "browser.target": {"cdp", "errors"},
    "browser.session": {"browser", "browser.target", "cdp", "errors", "text", "progress", "output_files"},
    "cdp": {"errors"},
    "context": {"browser", "browser.session", "call_rate", "errors", "text"},
    "config": {"call_rate", "errors"},
    "output_files": {"errors"},
    "upload_files": {"errors", "output_files"},
    "errors": set(),
    "text": set(),
    "progress": set(),
    "call_rate": set(),
    "log_setup": set(),
    "cdpilot": set(),
}
# Single imports across the matrix, each for a reason that holds.
EXCEPTIONS = {
    # Start-up builds what the server is given: the browser a first page tool starts before
    # its handlers are loaded (the launcher's head start, which the stdio start-up ends if a
    # signal comes before the event loop runs), the connection managers that take it, and
    # the shared browser of the HTTP sessions (HttpBrowsers); no other server module knows a
    # browser.
    ("cdpilot.server.head_start", "cdpilot.browser.session.launcher"),
    ("cdpilot.server.startup", "cdpilot.browser.session.launcher"),
    ("cdpilot.server.app", "cdpilot.browser.session.manager"),
    ("cdpilot.server.app", "cdpilot.browser.session.launcher"),
    ("cdpilot.server.app", "cdpilot.browser.session.shared_browser"),
}
# Feature modules that still need more of a connection than `browser.target.Target` gives
# (its downloads, its tabs, its browser-wide session, where it is): they import the concrete
# BrowserConnection from the top of the layer. None may join them; one that needs only its
# target's sessions and features types against `Target`.
CONCRETE_CONNECTION = {
    "cdpilot.browser.dom.actions",
    "cdpilot.browser.dom.drag_drop",
    "cdpilot.browser.dom.forms",
    "cdpilot.browser.dom.outside_effects",
    "cdpilot.browser.dom.watch",
    "cdpilot.browser.page.loading",
    "cdpilot.browser.page.site_data",
    "cdpilot.browser.page.tabs",
    "cdpilot.browser.performance.tracing",
}


def _allowed(module: str, imported: str) -> bool:
    source, target = _layer(module), _layer(imported)
    if source == target or (module, imported) in EXCEPTIONS:
        return True
    if source == "browser" and target == "browser.session":  # the top of the layer: its facts only
        return imported.endswith("_facts") or (
            module in CONCRETE_CONNECTION and imported == "cdpilot.browser.session.browser_connection"
        )
    return target in ALLOWED[source]


def test_every_module_has_a_row_in_the_matrix() -> None:
    assert {name: _layer(name) for name in MODULES if _layer(name) not in ALLOWED} == {}


def test_imports_follow_the_layer_table() -> None:
    """Run-time and type-only imports alike: a layer imports only the layers below it."""
    upward = sorted(
        f"{module} -> {imported}"
        for module, found in GRAPH.items()
        for imported in found
        if not _allowed(module, imported)
    )
    assert upward == []


def test_answers_read_only_facts() -> None:
    """A renderer imports facts modules of the browser layer, never what does the browsing."""
    read = sorted(
        f"{module} -> {imported}"
        for module, found in GRAPH.items()
        if _layer(module) == "answers"
        for imported in found
        if _layer(imported).startswith("browser") and not imported.endswith("_facts")
    )
    assert read == []


def test_errors_is_a_leaf_and_holds_every_error_class() -> None:
    assert GRAPH["cdpilot.errors"] == set()
    elsewhere = sorted(
        f"{name}.{node.name}"
        for name, path in MODULES.items()
        if name != "cdpilot.errors"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Error")
    )
    assert elsewhere == []


def _import_cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(frozenset(group))
    return groups


def test_no_import_cycle_between_modules() -> None:
    """Type-only imports count: a cycle hidden behind ``if TYPE_CHECKING:`` is still one."""
    cycles = [sorted(group) for group in _import_cycles(GRAPH)]
    assert cycles == []
