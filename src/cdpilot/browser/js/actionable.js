// Waits (one check per animation frame) until the element can take input; "" when it can, else the reason.
async function (timeoutMs, needEnabled, needEditable) {
  const el = this, view = el.ownerDocument.defaultView, deadline = performance.now() + timeoutMs;
  let last = "";
  const problem = () => {
    if (!el.isConnected) return "detached";
    if (el.getClientRects().length === 0) return "hidden:display:none or not rendered";
    const r = el.getBoundingClientRect(), visibility = view.getComputedStyle(el).visibility;
    if (r.width === 0 || r.height === 0) return "hidden:zero size";
    if (visibility !== "visible") return "hidden:visibility:" + visibility;
    const box = [r.x, r.y, r.width, r.height].join();
    if (box !== last) { last = box; return "moving"; }
    if (needEnabled && el.matches(":disabled")) return "disabled";
    if (needEditable && el.readOnly) return "readonly";
    return "";
  };
  for (;;) {
    const found = problem();
    if (!found || performance.now() >= deadline) return found;
    // a hidden (background) tab renders no frames: check on a short timer there instead
    await new Promise(r => view.document.hidden ? view.setTimeout(r, 16) : view.requestAnimationFrame(r));
  }
}
