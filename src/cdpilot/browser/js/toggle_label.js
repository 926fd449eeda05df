// The label a user clicks to set this checkbox or radio when the input itself is visually hidden (the usual
// custom-styled control: opacity 0, no size, clipped to a pixel) and the label is shown; else null. With `stashed`,
// of the input fill_field.js left to be set through its label (a radio its group's value chose).
function (stashed) {
  const view = this.ownerDocument.defaultView, key = Symbol.for("cdpilot.toggleInput");
  const input = stashed ? view[key] : this;
  if (stashed) delete view[key];
  if (!input || input.localName !== "input" || !["checkbox", "radio"].includes(input.type)) return null;
  const shown = el => {
    const r = el.getBoundingClientRect(), s = view.getComputedStyle(el);
    return el.getClientRects().length > 0 && r.width > 1 && r.height > 1 && s.visibility === "visible"
      && s.opacity !== "0" && !/^rect\(0px,? 0px,? 0px,? 0px\)$/.test(s.clip);
  };
  return shown(input) ? null : [...(input.labels || [])].find(shown) || null;
}
