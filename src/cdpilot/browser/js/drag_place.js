// Where an element sits, to tell what a drag moved: its parent (named, and as a path of child
// positions from the root, so two look-alike parents differ), its place among its element
// siblings, and its box's top-left in its document; null once it has left the page.
function () {
  if (!this.isConnected) return null;
  const name = n => {
    let d = n.tagName.toLowerCase() + (n.id ? "#" + n.id : "");
    for (const c of [...n.classList].slice(0, 2)) d += "." + c;
    return d;
  };
  const parent = this.parentNode;
  const path = [];
  for (let n = parent; n.parentNode || n.host; n = n.parentNode || n.host)
    path.unshift(n.parentNode ? [...n.parentNode.childNodes].indexOf(n) : "shadow");
  const siblings = [...parent.children];
  const box = this.getBoundingClientRect(), view = this.ownerDocument.defaultView;
  return {
    parent: parent.host ? "the shadow root of " + name(parent.host) : parent.tagName ? name(parent) : "the document",
    path: path.join("/"),
    position: siblings.indexOf(this),
    count: siblings.length,
    x: box.left + view.scrollX,
    y: box.top + view.scrollY,
  };
}
