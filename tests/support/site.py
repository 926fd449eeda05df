"""The test page set every page-automation test uses, served on 127.0.0.1 by `serve_pages`.

Each page exposes its observable effects in the DOM (``#result``, ``#log``) or through
``window.__events`` so tests assert what happened in the page, not only a tool's text.
Add pages for a new topic in the test module that needs them: ``serve_pages({**SITE, ...})``.
"""

from __future__ import annotations

import json

from tests.support.pages import PageSpec


def html(title: str, body: str, head: str = "") -> bytes:
    """A page that declares no favicon: the browser's own /favicon.ico fetch would otherwise
    show up in network lists and console logs at an unpredictable moment."""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
        f"<link rel='icon' href='data:,'>{head}</head><body>{body}</body></html>"
    ).encode()


NAV_LINKS = "".join(f'<li><a href="/page/{i}" class="nav-link">Section {i}</a></li>' for i in range(1, 31))
TABLE_ROWS = "".join(
    f"<tr data-row='{i}'><td>{i}</td><td>User {i}</td><td>user{i}@example.test</td>"
    f"<td><a href='/user/{i}'>edit</a></td></tr>"
    for i in range(1, 201)
)

PAGES: dict[str, PageSpec] = {
    "/": (200, "text/html", html("Home", f'<nav id="main-nav"><ul>{NAV_LINKS}</ul></nav><h1>Welcome home</h1>')),
    "/login": (
        200,
        "text/html",
        html(
            "Sign in",
            """
<form id="login-form" action="/welcome" method="get">
  <label for="email">Email</label><input id="email" name="email" type="email" placeholder="you@example.test">
  <label for="password">Password</label><input id="password" name="password" type="password">
  <label><input id="remember" name="remember" type="checkbox"> Remember me</label>
  <select id="country" name="country"><option value="">Choose</option><option value="fr">France</option>
    <option value="de">Germany</option><option value="jp">Japan</option></select>
  <textarea id="bio" name="bio"></textarea>
  <button type="button" class="btn secondary" id="forgot">Forgot password?</button>
  <button type="submit" class="btn primary" data-testid="login-submit">Sign in</button>
</form>
<div id="result"></div>
<script>
  window.__events = [];
  for (const id of ["email", "password", "bio", "country"]) {
    const el = document.getElementById(id);
    el.addEventListener("input", () => window.__events.push(id + ":input"));
    el.addEventListener("change", () => window.__events.push(id + ":change"));
  }
  document.getElementById("login-form").addEventListener("submit", () => console.log("submitting login"));
</script>""",
        ),
    ),
    "/welcome": (200, "text/html", html("Welcome", "<h1 id='welcome'>Signed in</h1>")),
    "/table": (
        200,
        "text/html",
        html(
            "Users",
            f"<table id='users'><thead><tr><th>#</th><th>Name</th><th>Email</th><th></th></tr></thead>"
            f"<tbody>{TABLE_ROWS}</tbody></table>",
        ),
    ),
    "/hidden": (
        200,
        "text/html",
        html(
            "Hidden things",
            """
<button id="visible-btn" class="action">Visible</button>
<button id="none-btn" class="action" style="display:none">Display none</button>
<button id="invisible-btn" class="action" style="visibility:hidden">Visibility hidden</button>
<button id="attr-btn" class="action" hidden>Hidden attribute</button>
<button id="zero-btn" class="action" style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>
<button id="disabled-btn" class="action" disabled>Disabled</button>""",
        ),
    ),
    "/shadow": (
        200,
        "text/html",
        html(
            "Shadow",
            """
<div id="host"></div><div id="result"></div>
<script>
  const root = document.getElementById("host").attachShadow({mode: "open"});
  root.innerHTML = '<input id="shadow-input"><button id="shadow-btn" class="inner">Shadow button</button>';
  root.getElementById("shadow-btn").addEventListener("click",
    () => document.getElementById("result").textContent = "shadow clicked");
</script>""",
        ),
    ),
    "/frames": (
        200,
        "text/html",
        html(
            "Frames", '<h1>Outer</h1><iframe id="inner-frame" src="/frame-content" width="400" height="200"></iframe>'
        ),
    ),
    "/frame-content": (
        200,
        "text/html",
        html(
            "Inner",
            """<button id="frame-btn">In frame</button><div id="frame-result"></div>
<script>document.getElementById("frame-btn").addEventListener("click",
  () => document.getElementById("frame-result").textContent = "frame clicked");</script>""",
        ),
    ),
    "/dialogs": (
        200,
        "text/html",
        html(
            "Dialogs",
            """
<button id="alert-btn" onclick="alert('Hello alert'); document.getElementById('result').textContent='alert done'">Alert</button>
<button id="confirm-btn" onclick="document.getElementById('result').textContent = confirm('Delete it?') ? 'confirmed' : 'cancelled'">Confirm</button>
<button id="prompt-btn" onclick="document.getElementById('result').textContent = 'name=' + prompt('Your name?', 'nobody')">Prompt</button>
<div id="result"></div>""",
        ),
    ),
    "/console": (
        200,
        "text/html",
        html(
            "Console",
            """
<button id="log-btn" onclick="console.log('button clicked', 42)">Log</button>
<button id="warn-btn" onclick="console.warn('careful now')">Warn</button>
<button id="error-btn" onclick="console.error('something failed')">Error</button>
<button id="repeat-btn" onclick="for (let i = 0; i < 5; i++) console.log('same again')">Repeat</button>
<button id="throw-btn" onclick="setTimeout(() => { throw new TypeError('boom from page') })">Throw</button>
<script>console.info('console page loaded')</script>""",
        ),
    ),
    "/fetch": (
        200,
        "text/html",
        html(
            "Fetch",
            """
<button id="fetch-btn">Load data</button><button id="fail-btn">Fail</button><div id="result"></div>
<script>
  document.getElementById("fetch-btn").addEventListener("click", async () => {
    const r = await fetch("/api/data", {headers: {"Authorization": "Bearer secret-token-123"}});
    document.getElementById("result").textContent = (await r.json()).message;
  });
  document.getElementById("fail-btn").addEventListener("click", () => fetch("/api/fail", {method: "POST", body: "x=1"}));
</script>""",
        ),
    ),
    "/api/data": (
        200,
        "application/json",
        json.dumps({"message": "data loaded", "items": [1, 2, 3]}).encode(),
        {"Set-Cookie": "session=abc123; HttpOnly"},
    ),
    "/api/fail": (500, "application/json", b'{"error": "server exploded"}'),
    "/slow": (
        200,
        "text/html",
        html(
            "Slow",
            """
<div id="spinner">Loading...</div><div id="container"></div>
<script>
  setTimeout(() => {
    document.getElementById("container").innerHTML = '<p id="late" class="late">Arrived late</p>';
    document.getElementById("spinner").remove();
  }, 400);
</script>""",
        ),
    ),
    "/keys": (
        200,
        "text/html",
        html(
            "Keys",
            """
<input id="field"><div id="log"></div>
<script>
  document.getElementById("field").addEventListener("keydown", e => {
    const mods = ["ctrlKey", "shiftKey", "altKey", "metaKey"].filter(m => e[m]).map(m => m.replace("Key", ""));
    document.getElementById("log").textContent += [...mods, e.key].join("+") + " ";
  });
</script>""",
        ),
    ),
    "/hover": (
        200,
        "text/html",
        html(
            "Hover",
            '<div id="target" style="width:200px;height:100px" '
            "onmouseenter=\"document.getElementById('result').textContent='hovered'\">Hover me</div><div id='result'></div>",
        ),
    ),
}
for i in range(1, 31):
    PAGES[f"/page/{i}"] = (200, "text/html", html(f"Section {i}", f"<h1>Section {i}</h1><a href='/'>home</a>"))

SITE = PAGES

# ~7 MB as a PNG screenshot at a 1600×1600 viewport: PNG cannot compress noise (1600² × 3 bytes).
NOISE_PAGE: PageSpec = (
    200,
    "text/html",
    html(
        "Noise",
        """<canvas id="noise" width="1600" height="1600"></canvas><script>
const c = document.getElementById("noise").getContext("2d"), img = c.createImageData(1600, 1600);
for (let i = 0; i < img.data.length; i += 65536) crypto.getRandomValues(img.data.subarray(i, i + 65536));
c.putImageData(img, 0, 0);
</script>""",
        "<style>body{margin:0}</style>",
    ),
)
