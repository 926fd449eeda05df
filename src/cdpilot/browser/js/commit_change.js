// Fires `change` as a user's blur would after typing; the field's value after it.
function () {
  const el = this, view = el.ownerDocument.defaultView;
  if (el.isContentEditable) return el.textContent;
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  return el.value;
}
