// Whether the next mousedown in this element's window lands on it. "arm" sets a one-shot
// capturing listener on the window (first in every event's path); "read" removes it and
// answers true (landed on the element or inside it), false (landed elsewhere in this frame, or
// never reached the frame), or null when it was not armed.
function (op) {
  const win = this.ownerDocument.defaultView;
  const key = Symbol.for("cdpilot.clickLanding");
  if (op === "arm") {
    const element = this;
    const probe = { seen: false, landed: false };
    probe.listener = (event) => {
      probe.seen = true;
      probe.landed = event.composedPath().includes(element);
    };
    win.addEventListener("mousedown", probe.listener, { capture: true, once: true });
    win[key] = probe;
    return true;
  }
  const probe = win[key];
  if (!probe) return null;
  delete win[key];
  win.removeEventListener("mousedown", probe.listener, { capture: true });
  return probe.seen && probe.landed;
}
