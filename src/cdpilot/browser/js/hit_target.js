// What a click at (x, y) in the top viewport would hit: "" when it is this element, else a description.
function (x, y) {
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
    const text = (n.innerText || n.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
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
}
