// The first visible match of a selector, scrolled into view: its box in document coordinates,
// or why there is none (an invalid selector, or how many matches are all hidden or empty).
(selector) => {
  let all;
  try { all = document.querySelectorAll(selector); } catch (e) { return {invalid: String(e.message)}; }
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !el.checkVisibility({visibilityProperty: true})) continue;
    el.scrollIntoView({block: "center", inline: "center"});
    const b = el.getBoundingClientRect();
    return {x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height};
  }
  return {matched: all.length};
}
