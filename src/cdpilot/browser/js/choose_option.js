// Selects the <option> with this value or label; the choice, or the options there are when none matches.
function (by, wanted) {
  const el = this, view = el.ownerDocument.defaultView, norm = s => s.replace(/\s+/g, " ").trim();
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
}
