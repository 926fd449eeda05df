"""How cdpilot's own page scripts are told apart from the page's: one source URL.

Every script we run in a page (queries, waits, actionability checks, the wait for a click's
effects) ends with ``//# sourceURL=cdpilot-internal.js``, and the debugger, once enabled,
ignore-lists that URL (`Debugger.setBlackboxPatterns`), and the bootloader of the Node.js
programs cdpilot runs. So a pause requested while the page
is idle is not taken in our next query or click check but at the page's own next statement,
which is where the user asked to stop. Our scripts also run ``silent``, so pause-on-exceptions
never stops in them. The debugger's probe keeps a URL of its own on purpose: resume and step
rely on stopping in it (`cdpilot.browser.debugger.run_control`).

The scripts themselves are real JavaScript files in ``browser/js/`` (package data), read once
each by `page_script`. Every file is one function or expression, except the ``dom_*.js``
parts of the DOM libraries, which are declarations that `cdpilot.browser.dom.dom_scripts`
puts together; a test has Chromium parse each of them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

OWN_SCRIPT_URL = "cdpilot-internal.js"
OWN_URL_PREFIX = "cdpilot-"  # ours and the debugger's probe (cdpilot-probe.js): never listed to a user
# The file every Node.js process of a program cdpilot runs loads first (`node_program`).
BOOTLOADER_URL_END = "/cdpilot/browser/js/node_bootloader.js"
OWN_SCRIPT_PATTERNS = [r"^cdpilot-internal\.js$", r"/cdpilot/browser/js/node_bootloader\.js$"]


def is_own(url: str) -> bool:
    """Whether a script URL is one of cdpilot's own, which no list, stack or hint may show."""
    return url.startswith(OWN_URL_PREFIX) or url.endswith(BOOTLOADER_URL_END)


def own_expression(expression: str) -> str:
    """An expression for ``Runtime.evaluate``, marked as ours."""
    return f"{expression}\n//# sourceURL={OWN_SCRIPT_URL}"


def own_function(declaration: str) -> str:
    """A function declaration for ``Runtime.callFunctionOn``, marked as ours; the final line
    break keeps the comment off the line V8 closes the declaration's parenthesis on."""
    return f"{declaration}\n//# sourceURL={OWN_SCRIPT_URL}\n"


@cache
def page_script(name: str) -> str:
    """The text of ``browser/js/<name>.js``, read once."""
    return resources.files("cdpilot.browser").joinpath("js", f"{name}.js").read_text(encoding="utf-8")
