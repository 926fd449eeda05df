"""The page-side half of the DOM tools: libraries of JavaScript assembled from ``browser/js/dom_*.js``.

Everything that needs the live DOM (shadow roots, same-origin frames, computed styles,
selector uniqueness) runs in the page in one ``Runtime.evaluate`` per call; Python only
turns what comes back into typed facts. A library is a list of declarations: the shared
``dom_basics.js`` (and ``dom_selectors.js`` where selectors are suggested) followed by the
tool's own file. `script(library, entry, *args)` wraps a library and its entry point in an
arrow function, so nothing leaks into the page's globals and the page cannot tamper with
our helpers between calls.

Search order is document order across trees: the content of an open shadow root or of a
same-origin frame comes right after the element that holds it. Selectors match within
each tree, as ``querySelectorAll`` does (a descendant combinator does not cross a shadow
boundary). A cross-origin iframe's document cannot be entered from the page: the scan
names its iframe element instead, and the library runs again in the frame's own target
(`frame_search`).
"""

from __future__ import annotations

import json
from functools import cache

from cdpilot.browser.own_scripts import page_script

LIBRARY_PARTS = {
    "basics": ("dom_basics",),
    "query": ("dom_basics", "dom_selectors", "dom_query"),
    "inspect": ("dom_basics", "dom_selectors", "dom_inspect"),
    "wait": ("dom_basics", "dom_wait"),
    "outline": ("dom_basics", "dom_selectors", "dom_outline"),
}


@cache
def library(name: str) -> str:
    """The declarations of one DOM library, its shared parts first; assembled once."""
    return "\n".join(page_script(part) for part in LIBRARY_PARTS[name])


def script(library_name: str, entry: str, *args: object) -> str:
    """An expression that runs `entry(*args)` with the library in scope; args travel as JSON."""
    arguments = ", ".join(json.dumps(arg) for arg in args)
    return f"(() => {{\n{library(library_name)}\nreturn {entry}({arguments});\n}})()"


def method(library_name: str, entry: str) -> str:
    """A function declaration for ``Runtime.callFunctionOn`` that runs `entry(this)` with the library in scope."""
    return f"function () {{\n{library(library_name)}\nreturn {entry}(this);\n}}"


def outline_function(candidates: int) -> str:
    """The function declaration page_outline sends with ``Runtime.callFunctionOn``: it hands its
    arguments (the elements of one document) to ``selectorsOf`` as one array, for up to
    `candidates` selectors each. Inside it,
    ``document`` is the topmost same-origin document (``topDocument`` in ``dom_outline.js``),
    so the elements of a frame get selectors unique across every tree the DOM tools search
    from the page, although the function runs in the frame's own context."""
    lines = (
        "function (...nodes) {",
        "const document = topDocument();",
        library("outline"),
        f"return selectorsOf(nodes, {candidates});",
        "}",
    )
    return "\n".join(lines)
