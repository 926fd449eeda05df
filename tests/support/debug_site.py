"""The page the debugger tests debug: one script of several functions, served on 127.0.0.1.

`/debug` loads `/static/app.js` and has a button per scenario; every function writes what
it did to ``#result`` (and some log to the console), so a test sees the page continue
after a resume. Lines are found by their ``@marker`` comments (`line_of`), never hard-coded.

`/twins` loads two scripts of one file name, ``/twins/a/util.js`` calling into
``/twins/b/util.js``: what names a script must tell them apart. `/twins/framed` loads them
and `/twins` in an iframe, so each loads twice, and the iframe's go when it does.
"""

from __future__ import annotations

from tests.support.pages import PageSpec
from tests.support.site import html

APP_JS = """\
const bootedAt = "boot";                       // @boot
window.__boots = (window.__boots || 0) + 1;

function sumTo(n) {
  let total = 0;
  for (let i = 1; i <= n; i++) {
    total += i;                                // @loop-body
  }
  return total;
}

function makeCounter() {
  let count = 0;
  return function increment(step) {
    count += step;                             // @closure-body
    return count;
  };
}
const counter = makeCounter();

function square(x) {
  const result = x * x;                        // @square-body
  return result;
}

function compute() {
  const base = 3;                              // @compute-first
  const squared = square(base);                // @compute-call
  const total = sumTo(squared);                // @compute-sum
  document.getElementById("result").textContent = String(total);
  console.log("computed", total);
  return total;
}

function failCaught() {
  try {
    throw new Error("caught failure");         // @caught-throw
  } catch (error) {
    document.getElementById("result").textContent = "caught: " + error.message;
  }
}

function failUncaught() {
  document.getElementById("result").textContent = "about to throw";
  throw new TypeError("uncaught failure");     // @uncaught-throw
}

async function loadLater() {
  const value = await Promise.resolve(21);
  const doubled = value * 2;                   // @async-body
  document.getElementById("result").textContent = "async " + doubled;
}

function trap() {
  const marker = "trap";
  debugger;                                    // @debugger
  document.getElementById("result").textContent = "after " + marker;
}

function spin() {  // runs until window.stopSpin is set, e.g. by an evaluation in a paused frame
  let spins = 0;
  while (!window.stopSpin) {
    spins++;                                   // @spin
  }
  document.getElementById("result").textContent = "spun";
}

document.getElementById("compute").addEventListener("click", compute);
document.getElementById("count").addEventListener("click", () => {
  document.getElementById("result").textContent = "count " + counter(2);
});
document.getElementById("fail-caught").addEventListener("click", failCaught);
document.getElementById("fail-uncaught").addEventListener("click", failUncaught);
document.getElementById("async").addEventListener("click", loadLater);
document.getElementById("trap").addEventListener("click", trap);
document.getElementById("spin").addEventListener("click", () => {
  window.stopSpin = false;
  setTimeout(spin);
});
"""

BUTTONS = "".join(
    f'<button id="{name}">{name}</button>'
    for name in ("compute", "count", "fail-caught", "fail-uncaught", "async", "trap", "spin")
)

DEBUG_PAGES: dict[str, PageSpec] = {
    "/debug": (
        200,
        "text/html",
        html("Debug me", BUTTONS + '<div id="result">ready</div><script src="/static/app.js"></script>'),
    ),
    "/static/app.js": (200, "text/javascript", APP_JS.encode()),
}


def line_of(marker: str) -> int:
    """The 1-based line of app.js that carries ``// @marker``."""
    for number, line in enumerate(APP_JS.splitlines(), start=1):
        if line.rstrip().endswith(f"// @{marker}"):
            return number
    raise KeyError(marker)


# Line 2 of each is the one to break on; a/util.js's calls b/util.js's, so one stack holds both.
TWIN_A_JS = "function utilA() {\n  const fromB = utilB();\n  return fromB + 1;\n}\n"
TWIN_B_JS = "function utilB() {\n  const two = 2;\n  return two;\n}\n"
TWIN_SCRIPTS = '<script src="/twins/a/util.js"></script><script src="/twins/b/util.js"></script>'

TWIN_PAGES: dict[str, PageSpec] = {
    "/twins": (200, "text/html", html("Twins", TWIN_SCRIPTS)),
    "/twins/framed": (200, "text/html", html("Twins framed", TWIN_SCRIPTS + '<iframe src="/twins"></iframe>')),
    "/twins/a/util.js": (200, "text/javascript", TWIN_A_JS.encode()),
    "/twins/b/util.js": (200, "text/javascript", TWIN_B_JS.encode()),
}
