"""The page schema fuzzing runs every tool against: one small page with something for each.

Headings, links, a form with every common kind of field, buttons that log, open a dialog
or navigate, a same-origin iframe, a cross-origin one (from localhost: a target of its own),
and ``/app.js`` with named functions (for function and line breakpoints and source search).
At load the page logs at every console level, throws one uncaught error and makes a fetch
and an XHR, so the console and network lists are never empty. A timer ticks every 100 ms,
so a requested pause has code to stop in and DOM breakpoints have changes to catch; each
tick also throws and catches one error, so pausing on caught exceptions stops too.

Fuzzed strings almost never name anything that exists (a selector drawn at random matches
nothing), so `page_values` lists values that do, by parameter name; the fuzzer mixes them
with drawn ones to get past "nothing matched" into the handlers' real work.
"""

from __future__ import annotations

from tests.support.pages import PageSpec
from tests.support.site import html

FUNCTIONS = ("tick", "handleClick", "greet", "loadItems", "sendBeacon")

APP_JS = """\
let ticks = 0;

function tick() {
  ticks += 1;
  document.getElementById("ticks").textContent = "Ticks: " + ticks;
  try {
    JSON.parse("{");
  } catch (error) {
    window.lastParseError = error.message;
  }
}

function greet(name) {
  const line = "hello " + name;
  console.info(line);
  return line;
}

function handleClick() {
  console.log("action clicked", ticks);
  return greet("button");
}

function loadItems() {
  return fetch("/api/items").then((response) => response.json());
}

function sendBeacon() {
  const request = new XMLHttpRequest();
  request.open("GET", "/api/beacon");
  request.send();
}

console.log("fixture loaded");
console.info("fixture info");
console.warn("fixture warning");
console.error("fixture error");
console.debug("fixture debug");
setTimeout(() => {
  throw new Error("fixture failure");
});
loadItems();
sendBeacon();
setInterval(tick, 100);
"""

HOME = html(
    "Fuzz fixture",
    """
<h1 id="title">Fuzz fixture</h1>
<nav><ul>
  <li><a id="next-link" class="link" href="/next">Next page</a></li>
  <li><a class="link" href="#form">To the form</a></li>
</ul></nav>
<h2>Actions</h2>
<button id="action" type="button" onclick="handleClick()">Act</button>
<button id="alert-btn" type="button" onclick="alert('fixture alert')">Alert</button>
<button id="confirm-btn" type="button" onclick="confirm('Sure?')">Confirm</button>
<div id="ticks" style="width:12em;height:1.5em">Ticks: 0</div>
<h2>Form</h2>
<form id="form" action="/next" method="get">
  <input id="name" name="name" type="text" placeholder="Name">
  <input id="email" name="email" type="email">
  <textarea id="notes" name="notes"></textarea>
  <select id="fruit" name="fruit"><option value="apple">Apple</option><option value="pear">Pear</option></select>
  <label><input id="agree" name="agree" type="checkbox"> Agree</label>
  <label><input id="small" name="size" type="radio" value="small"> Small</label>
  <label><input id="large" name="size" type="radio" value="large"> Large</label>
  <input id="attachment" name="attachment" type="file">
  <button id="submit" type="submit">Send</button>
</form>
<iframe id="frame" src="/frame" width="300" height="80"></iframe>
<iframe id="cross" width="300" height="80"></iframe>
<script>document.getElementById("cross").src = "http://localhost:" + location.port + "/cross";</script>
<div hidden id="hidden-note">Hidden note</div>
<script src="/app.js"></script>""",
)

FUZZ_PAGES: dict[str, PageSpec] = {
    "/": (200, "text/html", HOME),
    "/app.js": (200, "text/javascript", APP_JS.encode()),
    "/frame": (200, "text/html", html("Frame", '<button id="frame-btn">In frame</button><input id="frame-input">')),
    "/cross": (200, "text/html", html("Cross", '<button id="cross-btn">Cross</button><input id="cross-input">')),
    "/next": (200, "text/html", html("Next page", "<h1>Next page</h1><a href='/'>Back home</a>")),
    "/api/items": (200, "application/json", b'{"items": [1, 2, 3]}'),
    "/api/beacon": (200, "text/plain", b"ok"),
}

SELECTORS = (
    "button",
    "a",
    "input",
    "#name",
    "textarea",
    "select",
    "#fruit",
    "input[type=checkbox]",
    "input[type=radio]",
    "form",
    "h1",
    "h2",
    "#action",
    ".link",
    "iframe",
    "#frame-btn",
    "#cross-btn",
    "#alert-btn",
    "#submit",
    "body",
    "#no-such-element",  # valid CSS that matches nothing
)


# Tools that act on one kind of element only, and the selectors of that kind on the page.
UPLOADABLE = {
    "upload.txt": "uploaded by the fuzzer\n",
    "state.json": '{"cookies": [{"name": "fuzz", "value": "1", "domain": "127.0.0.1"}], "origins": []}',
    "route-body.json": '{"mocked": true}',
}
"""Files `fuzz_stage` puts in the output directory (the upload directory) before the first call:
a text file to upload, a storage state to load, a body a route may serve."""

SELECTORS_BY_TOOL = {
    "fill_element": ("#name", "#email", "textarea", "input", "#frame-input", "#cross-input"),
    "select_option": ("#fruit", "select"),
    "upload_file": ("#attachment", "input[type=file]", "#name"),
}


def page_values(base_url: str, tool: str) -> dict[str, tuple[object, ...]]:
    """Values that name something on the fixture page (or close to it), by parameter name, for
    the granular tool `tool`.

    A value that a property's schema refuses is left out for that property by the fuzzer."""
    app = f"{base_url}/app.js"
    return {
        "selector": SELECTORS_BY_TOOL.get(tool, SELECTORS),
        "index": (0, 1),
        "to_selector": SELECTORS,
        "to_index": (0, 1),
        "offset_x": (40, -30, 0.5),
        "offset_y": (25, -10),
        "url": (
            f"{base_url}/",
            f"{base_url}/next",
            f"{base_url}/missing",
            base_url.removeprefix("http://") + "/next",
            "about:blank",
            "data:text/html,<p>data</p>",
            "javascript:alert(1)",
            "*/next",  # patterns, for switch_target's url
            "*fixture*",
        ),
        "title": ("Fuzz fixture", "Next"),
        "expression": (
            "document.title",
            "1 + 1",
            "ticks",
            "greet('fuzz')",
            "handleClick()",
            "document.querySelectorAll('li').length",
            "new Promise((resolve) => setTimeout(() => resolve(7), 20))",
            "alert('from evaluate')",
            "noSuchName",
            "throw new Error('thrown on purpose')",
        ),
        "condition": ("ticks > 0", "name === 'fuzz'"),
        "function_name": FUNCTIONS,
        "event_name": ("click", "keydown", "setTimeout", "setInterval"),
        "url_contains": ("/api/", "items"),
        "url_regex": (r"app\.js$", ".*"),
        "source": (app, "app.js", "/app.js"),
        "query": ("tick", "function", "console", "fetch("),
        "filter": ("app", "fixture"),
        "key": ("Enter", "Tab", "a", "Escape", "Control+a", "ArrowDown"),
        "label": ("Apple", "Pear"),
        "value": ("apple", "pear"),
        "text": ("fuzz text", ""),
        "text_contains": ("Act", "Next", "Send"),
        # A whole form that takes (fill_form is an error result when any field does not).
        "fields": (
            [{"selector": "#name", "value": "Ada"}, {"selector": "#fruit", "value": "pear"}],
            [{"selector": "#agree", "value": True}, {"selector": "input[name=size]", "value": "large"}],
        ),
        "texts": (["Fuzz fixture"], ["Ticks"], ["Next page"]),
        "description": ("the Act button", "name field"),
        "breakpoint_id": ("bp1",),
        "call_frame_id": (0, 1, "0"),
        "url_pattern": ("api", "app.js"),
        "line_number": tuple(_line_of(text) for text in ("ticks += 1;", "return line;", "loadItems();")),
        # Only loading a state reads "state.json": a screenshot or PDF saved there would spoil it.
        "path": ("state.json", "missing.json") if tool == "load_storage_state" else ("shots/page.png", "body.txt"),
        "files": (["upload.txt"], ["upload.txt", "state.json"], ["missing.txt"]),
        "body_file": ("route-body.json", "missing.json"),
        "save_body_to": ("bodies/items.json",),
        "save_to": ("values/result.txt",),
        "network": ("fast_4g", "offline", "none"),
        "device": ("iPhone 15", "Desktop"),
        "timezone": ("Asia/Tokyo", "UTC"),
        "locale": ("fr-FR", "en"),
        "user_agent": ("Fuzz/1.0",),
        "latitude": (48.8584,),
        "longitude": (2.2945,),
        "cpu_rate": (1, 4),
    }


def _line_of(text: str) -> int:
    """The 1-based line of /app.js that ends with `text`: line numbers follow the script as it changes."""
    return next(n for n, line in enumerate(APP_JS.splitlines(), 1) if line.endswith(text))
