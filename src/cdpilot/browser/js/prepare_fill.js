// Focuses the field and selects what typing should replace (all of it when clearing), or puts the caret at its end.
function (clear) {
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
}
