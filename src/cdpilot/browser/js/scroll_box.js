// One scroll, measured. `this` is the document (the page scrolls: its scrolling element, or, when
// the document does not scroll, its largest scrolling box, as app shells have), or an element (it
// scrolls, or the nearest box around it that does). op: "down"/"up" a page (7/8 of the box, so a
// row at the fold is seen twice), "top"/"bottom", "look" (no move), "into_view" (this element,
// centred). With `until` (a CSS selector, else a text), it is looked for first: found, it is
// scrolled into view instead of moving on. After a move, two animation frames pass, so the page's
// scroll handlers have run (a virtualized list renders its rows there); at the end of a box that
// is searched downwards, up to growMs more for an infinite list to load more.
async function (op, until, growMs) {
  const doc = this.nodeType === 9 ? this : this.ownerDocument, view = doc.defaultView;
  const page = doc.scrollingElement || doc.documentElement;
  const frames = () => new Promise((done) => {
    setTimeout(done, 1000);
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)));
  });
  const describe = (n, withText) => {
    if (n === page) return "the page";
    let d = n.tagName.toLowerCase() + (n.id ? "#" + n.id : "");
    for (const c of [...n.classList].slice(0, 2)) d += "." + c;
    const text = withText ? (n.innerText || n.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40) : "";
    return text ? `${d} "${text}"` : d;
  };
  const room = (n) => n.scrollHeight - n.clientHeight > 1;
  const scrolls = (n) => room(n) && (n === page || /auto|scroll|overlay/.test(view.getComputedStyle(n).overflowY));
  const largest = () => {
    let best = null, area = 0;
    for (const n of doc.querySelectorAll("*")) {
      if (!scrolls(n)) continue;
      const r = n.getBoundingClientRect();
      const a = Math.max(0, Math.min(r.bottom, view.innerHeight) - Math.max(r.top, 0)) * r.width;
      if (a > area) [best, area] = [n, a];
    }
    return best;
  };
  const scroller = () => {
    if (this.nodeType === 9) return room(page) ? page : largest() || page;
    for (let n = this; n; n = n.parentElement) if (scrolls(n)) return n;
    return page;
  };
  const place = (n) => ({box: describe(n, false), top: Math.round(n.scrollTop), height: n.scrollHeight, client: n.clientHeight});
  const find = () => {
    const root = this.nodeType === 9 ? doc : this;
    try {
      const hit = root.querySelector(until);
      if (hit) return [hit, "selector"];
    } catch (invalidSelector) {}
    const skip = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/;
    const walk = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t; (t = walk.nextNode()); )
      if (t.data.includes(until) && t.parentElement && !skip.test(t.parentElement.nodeName)) return [t.parentElement, "text"];
    return null;
  };
  const intoView = async (el, by) => {
    const boxes = [];
    for (let n = el.parentElement; n; n = n.parentElement) if (n === page || scrolls(n)) boxes.push(n);
    if (!boxes.includes(page)) boxes.push(page);
    const before = boxes.map(place);
    el.scrollIntoView({block: "center", inline: "nearest", behavior: "instant"});
    await frames();
    const shown = el.isConnected ? el : (until && (find() || [])[0]) || el;  // a list may render the row anew
    const r = shown.getBoundingClientRect();
    const moves = boxes.map((n, i) => ({...before[i], after: Math.round(n.scrollTop)}));
    return {
      found: describe(shown, true),
      by,
      moves: moves.filter((m) => m.after !== m.top),
      inView: r.width + r.height > 0 && r.bottom > 0 && r.top < view.innerHeight && r.right > 0 && r.left < view.innerWidth,
    };
  };
  if (op === "into_view") return intoView(this, "");
  if (until) {
    const hit = find();
    if (hit) return intoView(...hit);
  }
  const box = scroller(), before = place(box);
  if (op !== "look") {
    const pageSize = Math.max(40, Math.round(box.clientHeight * 7 / 8));
    const top = {down: before.top + pageSize, up: before.top - pageSize, top: 0, bottom: box.scrollHeight}[op];
    box.scrollTo({top, behavior: "instant"});
    await frames();
    const height = box.scrollHeight, stop = Date.now() + growMs;
    if (until && op === "down" && Math.round(box.scrollTop) === before.top)
      while (Date.now() < stop && box.scrollHeight === height && !find()) await new Promise((done) => setTimeout(done, 50));
  }
  return {found: "", by: "", moves: [{...before, after: Math.round(box.scrollTop), height: box.scrollHeight}], inView: null};
}
