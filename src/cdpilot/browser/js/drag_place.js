// Where an element and its ancestors sit, to tell what a drag moved (a handle's drag moves its item): for each,
// its name, whether it is draggable, its parent (named, and as a path of child positions from the root, so two
// look-alike parents differ), its place among its element siblings, and its box's top-left in its document. From
// the element up to its nearest draggable ancestor, at most 6 levels, never the body; null once it left the page.
function () {
  if (!this.isConnected) return null;
  const name = n => {
    let d = n.tagName.toLowerCase() + (n.id ? "#" + n.id : "");
    for (const c of [...n.classList].slice(0, 2)) d += "." + c;
    return d;
  };
  const place = el => {
    const parent = el.parentNode, path = [];
    for (let n = parent; n.parentNode || n.host; n = n.parentNode || n.host)
      path.unshift(n.parentNode ? [...n.parentNode.childNodes].indexOf(n) : "shadow");
    const siblings = [...parent.children], box = el.getBoundingClientRect(), view = el.ownerDocument.defaultView;
    const text = (el.innerText || "").replace(/\s+/g, " ").trim();
    return {
      name: name(el) + (text ? ` "${text.length > 40 ? text.slice(0, 40) + "…" : text}"` : ""),
      draggable: el.draggable,
      parent: parent.host ? "the shadow root of " + name(parent.host) : parent.tagName ? name(parent) : "the document",
      path: path.join("/"),
      position: siblings.indexOf(el),
      count: siblings.length,
      x: box.left + view.scrollX,
      y: box.top + view.scrollY,
    };
  };
  const chain = [place(this)];
  for (let el = this; !el.draggable && chain.length < 7; ) {
    el = el.parentElement;
    if (!el || el.localName === "body" || el.localName === "html") break;
    chain.push(place(el));
  }
  return chain;
}
