// Whether dropped files reached the page: "arm" listens on the element's window for the next drop
// event (the browser fires one only where a dragover handler took the drag); "read" says whether
// it came, stops listening, and gives the element's text then.
function (step) {
  const view = this.ownerDocument.defaultView, key = Symbol.for("cdpilot.fileDrop");
  if (view[key]) view.removeEventListener("drop", view[key].listener, true);
  if (step === "arm") {
    const seen = {dropped: false, listener: () => { seen.dropped = true; }};
    view[key] = seen;
    view.addEventListener("drop", seen.listener, true);
    return null;
  }
  const dropped = Boolean(view[key] && view[key].dropped);
  delete view[key];
  return {dropped, text: (this.innerText || this.textContent || "").trim().replace(/\s+/g, " ")};
}
