// Fires `change` as a user's blur would after typing, and keeps the browser's own `change` at the next blur
// from repeating it (a person's edit fires one); the field's value after it.
function () {
  const el = this, view = el.ownerDocument.defaultView, root = el.getRootNode();
  if (el.isContentEditable) return el.textContent;
  el.dispatchEvent(new view.Event("change", {bubbles: true}));
  const committed = el.value, types = ["change", "input", "focusout"];
  const once = event => {  // the first of these on the field settles it: a later edit's change is the page's to see
    if (event.composedPath()[0] !== el) return;
    if (event.type === "change" && event.isTrusted && el.value === committed) event.stopImmediatePropagation();
    for (const type of types) root.removeEventListener(type, once, true);
  };
  for (const type of types) root.addEventListener(type, once, true);
  return el.value;
}
