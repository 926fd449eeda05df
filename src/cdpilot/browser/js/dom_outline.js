// DOM library: page_outline, the most stable unique selector of each element it is handed (entry point: selectorsOf).
// The elements come from the accessibility tree, all of one document; '' where no unique selector exists.
function selectorsOf(elements) {
  const {roots} = scan(null);
  return elements.map(el => {
    const found = el && el.nodeType === 1 ? selectorsFor(el, roots, 1) : [];
    return found.length ? found[0].selector : '';
  });
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
