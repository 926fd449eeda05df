// DOM library: page_outline, the most stable unique selector of each element it is handed (entry point: selectorsOf).
// The elements come from the accessibility tree, all of one document; '' where no unique selector exists.
function selectorsOf(elements) {
  const {roots} = scan(null);
  return elements.map(el => {
    const found = el && el.nodeType === 1 ? selectorsFor(el, roots, 1) : [];
    return found.length ? found[0].selector : '';
  });
}
