// Gives one form field `value` as its kind takes it: {kind, typed: true} for a field the caller types into for
// real, else what it holds now ({kind, checked} / {kind, chosen} / {kind, value}), or {kind, problem, …} unchanged.
function (value) {
  const el = this, view = el.ownerDocument.defaultView, tag = el.localName;
  const kind = tag === "select" ? (el.multiple ? "select multiple" : "select")
    : tag === "input" ? el.type : tag !== "textarea" && el.isContentEditable ? "contenteditable" : tag;
  const fire = () => {
    el.dispatchEvent(new view.Event("input", {bubbles: true, composed: true}));
    el.dispatchEvent(new view.Event("change", {bubbles: true}));
  };
  if (!(["input", "select", "textarea"].includes(tag) || el.isContentEditable)
      || ["button", "submit", "reset", "image", "file", "hidden"].includes(kind))
    return {kind, problem: "not a field"};
  if (el.matches(":disabled")) return {kind, problem: "disabled"};
  if (kind === "checkbox" || kind === "radio") {
    if (typeof value !== "boolean" || (kind === "radio" && !value)) return {kind, problem: "type"};
    if (el.checked !== value) el.click();  // a click runs the page's handlers, and fires input and change
    return el.checked === value ? {kind, checked: value} : {kind, problem: "kept", checked: el.checked};
  }
  if (tag === "select") {
    const wanted = typeof value === "string" ? [value] : el.multiple && Array.isArray(value) ? value : null;
    if (!wanted) return {kind, problem: "type"};
    const norm = s => s.replace(/\s+/g, " ").trim(), options = [...el.options].filter(o => !o.disabled);
    const find = w => options.find(o => o.value === w) || options.find(o => norm(o.label) === norm(w))
      || options.find(o => norm(o.label).toLowerCase() === norm(w).toLowerCase());
    const chosen = wanted.map(find), missing = wanted.filter((w, i) => !chosen[i]);
    if (missing.length)
      return {kind, problem: "option", missing, total: options.length,
              options: options.slice(0, 10).map(o => [o.value, norm(o.label)])};
    for (const option of el.options) option.selected = chosen.includes(option);
    fire();
    return {kind, chosen: [...el.selectedOptions].map(o => [norm(o.label), o.value])};
  }
  if (typeof value !== "string") return {kind, problem: "type"};
  if (el.readOnly) return {kind, problem: "readonly"};
  if (!["date", "time", "datetime-local", "month", "week", "color", "range"].includes(kind)) return {kind, typed: true};
  const before = el.value;  // no text entry to type into: set the value, keep it only if it reads back the same
  el.focus();
  el.value = value;
  const made = el.value;
  if (made.toLowerCase() !== value.toLowerCase()) {
    el.value = before;
    return {kind, problem: "refused", made, held: before, min: el.min, max: el.max, step: el.step};
  }
  fire();
  return {kind, value: made};
}
