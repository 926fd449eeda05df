// DOM library: page_outline, the `max` most stable unique selectors of each element it is handed, best first
// (entry point: selectorsOf). The elements come from the accessibility tree, all of one document; [] where no
// unique selector exists. With cross-origin iframes outlined, the first that no other frame matches is kept.
function selectorsOf(elements, max) {
  const {roots} = scan(null);
  return elements.map(el => (el && el.nodeType === 1 ? selectorsFor(el, roots, max) : []).map(s => s.selector));
}

// How many elements each selector matches in this document and every tree the DOM tools search from it.
function countsOf(selectors) {
  const {roots} = scan(null);
  return selectors.map(sel => roots.reduce((n, r) => n + r.root.querySelectorAll(sel).length, 0));
}

// The topmost document this one can reach (itself, or the same-origin documents it is framed in). The
// outline's function binds `document` to it, so `scan` searches from there, as every other DOM tool does,
// and a selector for an element of a same-origin frame is unique across the whole page. Runs before that
// binding exists: it may only name `window`.
function topDocument() {
  let win = window;
  try {
    while (win.parent !== win && win.parent.document) win = win.parent;
  } catch (e) { /* a cross-origin parent: stop below it */ }
  return win.document;
}
