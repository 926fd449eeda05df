// Focuses the element; true when it took the focus.
function () {
  this.focus();
  return this.getRootNode().activeElement === this;
}
