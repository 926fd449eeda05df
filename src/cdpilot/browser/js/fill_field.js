// Gives one form field `value` as its kind takes it: {kind, typed: true, maxLength} for a field the caller types into
// for real, else what it holds now ({kind, checked[, chosen]} / {kind, chosen} / {kind, value}), or
// {kind, problem, …} unchanged. A radio given a string checks the radio of its group with that value or label.
// How a checkbox or radio that must change is changed: `how` "click" clicks it; "label" leaves it to be set through its
// label by a real click, answering {kind, through: "label"} with the input stashed for toggle_label.js; "read" only
// reads (after that click: one still not as asked answers problem "kept").
function (value, how) {
  const el = this, view = el.ownerDocument.defaultView, tag = el.localName;
  const kind = tag === "select" ? (el.multiple ? "select multiple" : "select")
    : tag === "input" ? el.type : tag !== "textarea" && el.isContentEditable ? "contenteditable" : tag;
  const norm = s => s.replace(/\s+/g, " ").trim();
  const fire = () => {
    el.dispatchEvent(new view.Event("input", {bubbles: true, composed: true}));
    el.dispatchEvent(new view.Event("change", {bubbles: true}));
  };
  const toLabel = input => {  // true when `input` is left to its label; el.click() runs the page's handlers
    if (how === "label") view[Symbol.for("cdpilot.toggleInput")] = input;
    else if (how === "click") input.click();
    return how === "label";
  };
  if (!(["input", "select", "textarea"].includes(tag) || el.isContentEditable)
      || ["button", "submit", "reset", "image", "file", "hidden"].includes(kind))
    return {kind, problem: "not a field"};
  if (kind === "radio" && typeof value === "string") {
    const group = !el.name ? [el] : el.form ? [...el.form.elements].filter(r => r.type === "radio" && r.name === el.name)
      : [...el.getRootNode().querySelectorAll("input[type=radio]")].filter(r => r.name === el.name && !r.form);
    const label = r => norm([...(r.labels || [])].map(l => l.textContent).join(" "));
    const radio = group.find(r => r.value === value) || group.find(r => label(r) === norm(value))
      || group.find(r => label(r).toLowerCase() === norm(value).toLowerCase());
    if (!radio)
      return {kind, problem: "option", missing: [value], total: group.length,
              options: group.slice(0, 10).map(r => [r.value, label(r)])};
    if (radio.matches(":disabled")) return {kind, problem: "disabled"};
    if (!radio.checked && toLabel(radio)) return {kind, through: "label"};
    return radio.checked ? {kind, checked: true, chosen: [[label(radio), radio.value]]}
      : {kind, problem: "kept", checked: false};
  }
  if (el.matches(":disabled")) return {kind, problem: "disabled"};
  if (kind === "checkbox" || kind === "radio") {
    const wanted = typeof value === "boolean" ? value
      : kind === "checkbox" ? {true: true, on: true, false: false}[String(value).toLowerCase()] : undefined;
    if (typeof wanted !== "boolean" || (kind === "radio" && !wanted)) return {kind, problem: "type"};
    if (el.checked !== wanted && toLabel(el)) return {kind, through: "label"};
    return el.checked === wanted ? {kind, checked: wanted} : {kind, problem: "kept", checked: el.checked};
  }
  if (tag === "select") {
    const wanted = typeof value === "string" ? [value] : el.multiple && Array.isArray(value) ? value : null;
    if (!wanted) return {kind, problem: "type"};
    const options = [...el.options].filter(o => !o.disabled);
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
  if (!["date", "time", "datetime-local", "month", "week", "color", "range"].includes(kind))
    return {kind, typed: true, maxLength: el.isContentEditable ? -1 : el.maxLength};
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
