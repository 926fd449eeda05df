"""The page-side half of the input tools: functions run on the element with `Runtime.callFunctionOn`."""

ACTIONABLE = """async function (timeoutMs, needEnabled, needEditable) {
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
}"""
HIT_TARGET = """function (x, y) {
  const deepHit = (root, px, py) => {
    let hit = root.elementFromPoint(px, py);
    for (let inner; hit && hit.shadowRoot && (inner = hit.shadowRoot.elementFromPoint(px, py)) && inner !== hit; )
      hit = inner;
    return hit;
  };
  const describe = n => {
    if (!n) return "nothing (the point is outside the viewport)";
    let d = n.tagName.toLowerCase() + (n.id ? "#" + n.id : "");
    for (const c of [...n.classList].slice(0, 2)) d += "." + c;
    const text = (n.innerText || n.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return text ? `${d} "${text}"` : d;
  };
  const frames = [];
  for (let w = this.ownerDocument.defaultView; w.frameElement; w = w.parent) frames.unshift(w.frameElement);
  for (const frame of frames) {  // the point, from the top viewport into each nested frame's own
    const hit = deepHit(frame.ownerDocument, x, y);
    if (hit !== frame) return describe(hit);
    const r = frame.getBoundingClientRect(), s = frame.ownerDocument.defaultView.getComputedStyle(frame);
    x -= r.left + frame.clientLeft + parseFloat(s.paddingLeft);
    y -= r.top + frame.clientTop + parseFloat(s.paddingTop);
  }
  const hit = deepHit(this.ownerDocument, x, y);
  for (let n = hit; n; n = n.assignedSlot || n.parentNode || n.host) if (n === this) return "";
  return describe(hit);
}"""
KIND = """function () {
  const tag = this.tagName.toLowerCase(), type = this.type;
  if (tag === "select" || tag === "textarea") return tag === "select" ? "select" : "text";
  if (tag !== "input") return this.isContentEditable ? "contenteditable" : "other";
  if (type === "password") return "password";
  if (type === "checkbox" || type === "radio") return "toggle";
  if (["button", "submit", "reset", "image", "file", "hidden"].includes(type)) return "other";
  return ["date", "time", "datetime-local", "month", "week", "color", "range"].includes(type) ? "value" : "text";
}"""
PREPARE_FILL = """function (clear) {
  const el = this, doc = el.ownerDocument;
  el.focus();
  if (el.isContentEditable) {
    const range = doc.createRange(), selection = doc.getSelection();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    selection.removeAllRanges();
    selection.addRange(range);
    return clear && el.textContent !== "" ? "selected" : "";
  }
  if (clear) { el.select(); return el.value !== "" ? "selected" : ""; }
  try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* email, number: no caret API */ }
  return "";
}"""
FOCUS = """function () {
  this.focus();
  return this.getRootNode().activeElement === this;
}"""
COMMIT_CHANGE = """function () {
  const el = this, view = el.ownerDocument.defaultView;
  if (el.isContentEditable) return el.textContent;
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  return el.value;
}"""
SET_VALUE = """function (value) {
  const el = this, view = el.ownerDocument.defaultView;
  el.focus();
  el.value = value;
  if (el.value !== value) return false;
  el.dispatchEvent(new view.Event("input", {bubbles: true, composed: true}));
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  return true;
}"""
CHOOSE_OPTION = """function (by, wanted) {
  const el = this, view = el.ownerDocument.defaultView, norm = s => s.replace(/\\s+/g, " ").trim();
  const options = [...el.options];
  const match = options.find(o => by === "value" ? o.value === wanted : norm(o.label) === norm(wanted))
    || (by === "label" ? options.find(o => norm(o.label).toLowerCase() === norm(wanted).toLowerCase()) : undefined);
  if (!match || match.disabled)
    return {options: options.filter(o => !o.disabled).slice(0, 10).map(o => [o.value, norm(o.label)]),
            total: options.filter(o => !o.disabled).length};
  match.selected = true;
  el.dispatchEvent(new view.Event("input", {bubbles: true, composed: true}));
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  return {value: match.value, label: norm(match.label)};
}"""
