// Sets a value typing cannot produce (date, colour, range) with the events a user's edit fires; false if refused.
function (value) {
  const el = this, view = el.ownerDocument.defaultView;
  el.focus();
  el.value = value;
  if (el.value !== value) return false;
  el.dispatchEvent(new view.Event("input", {bubbles: true, composed: true}));
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  return true;
}
