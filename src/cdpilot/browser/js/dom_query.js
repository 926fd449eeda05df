// DOM library: query_elements' filters, per-element cards and near-miss suggestions (entry points: query, count, resolve).
function structure(el) {
  const groups = els => {
    const counts = new Map();
    for (const c of els) counts.set(c.localName, (counts.get(c.localName) || 0) + 1);
    const parts = [...counts].map(([t, n]) => (n > 1 ? `${t}*${n}` : t));
    return parts.length > 6 ? parts.slice(0, 6).join('+') + '+…' : parts.join('+');
  };
  const kids = [...el.children];
  if (!kids.length) return el.shadowRoot ? el.localName + ' > #shadow-root' : '';
  let text = el.localName + ' > ' + groups(kids);
  const shape = k => [...k.children].map(c => c.localName).join();
  const grand = kids.flatMap(k => [...k.children]);
  if (grand.length) {
    // Emmet-like: ul > li*5 > a when every child has the same children, else grandchildren totals.
    const uniform = kids.every(k => k.localName === kids[0].localName && shape(k) === shape(kids[0]));
    text += ' > ' + groups(uniform ? [...kids[0].children] : grand);
  }
  return clip(text, 120);
}

function openingTag(el) {
  const show = a => (a.value === '' ? ' ' + a.name : ` ${a.name}="${clip(a.value, 80).replace(/"/g, '&quot;')}"`);
  const attrs = [...el.attributes].map(show);
  return clip('<' + el.localName + attrs.join(''), 199) + '>';
}

function detail(m, index, visible, text, roots) {
  const el = m.el, inner = [...el.querySelectorAll(INTERACTIVE)];
  const filled = 'value' in el && el.localName !== 'button' && el.value;
  const value = filled ? (el.type === 'password' ? '•••' : clip(String(el.value), 40)) : '';
  return {
    index, tag: el.localName, id: el.id, classes: [...el.classList], visible, text: clip(text, 80), value,
    disabled: !!el.disabled, checked: !!el.checked, where: m.where.join(' > '),
    open: openingTag(el), structure: structure(el), children: el.children.length,
    descendants: el.getElementsByTagName('*').length, interactiveTotal: inner.length,
    interactive: inner.slice(0, 6).map(d => {
      const best = selectorsFor(d, roots, 1)[0];
      const control = /^(input|select|textarea)$/.test(d.localName);
      const text = control ? '' : textOf(d) || d.getAttribute('aria-label') || '';
      const kind = control ? d.type || d.localName : '';
      return {selector: best ? best.selector : label(d), kind, text: clip(text, 30)};
    }),
  };
}

// Optimal string alignment distance: a transposition (emial/email) costs one edit.
function distance(a, b) {
  const d = Array.from({length: a.length + 1}, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) {
    d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
    if (swapped) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
  }
  return d[a.length][b.length];
}

function similar(selector, roots) {
  const ids = new Set(), classes = new Set(), tags = new Set();
  let elements = 0;
  for (const r of roots) for (const el of r.root.querySelectorAll('*')) {
    elements++;
    if (el.id) ids.add(el.id);
    for (const c of el.classList) classes.add(c);
    tags.add(el.localName);
  }
  const words = re => [...selector.matchAll(re)].map(m => m[1].toLowerCase());
  const names = [...words(/#(-?[_a-zA-Z][\w-]*)/g), ...words(/\.(-?[_a-zA-Z][\w-]*)/g)];
  const tagWords = words(/(?:^|[\s>+~,(])([a-zA-Z][\w-]*)/g).filter(t => !tags.has(t));
  const near = (pool, wanted) => [...pool].map(v => {
    const low = v.toLowerCase();
    const sub = wanted.some(w => Math.min(w.length, low.length) >= 3 && (low.includes(w) || w.includes(low)));
    const edits = Math.min(...wanted.map(w => distance(w, low)));
    const limit = low.length <= 4 ? 1 : low.length <= 8 ? 2 : 3;
    return [v, sub ? Math.min(edits, 0.5) : edits, edits <= limit || sub];
  }).filter(x => x[2]).sort((a, b) => a[1] - b[1]).slice(0, 5).map(x => x[0]);
  return {
    ids: names.length ? near(ids, names) : [], classes: names.length ? near(classes, names) : [],
    tags: tagWords.length ? near(tags, tagWords) : [], someIds: [...ids].slice(0, 8),
    idCount: ids.size, elements, shadowRoots: roots.filter(r => r.root.host).length,
    frames: roots.filter(r => r.root.nodeType === 9).length - 1,
  };
}

// `frameShown`: false inside a cross-origin iframe that is not visible (its parent's scan says).
function query(selector, limit, needle, includeHidden, frameShown) {
  const found = tryScan(selector, frameShown);
  if (found.error) return found;
  const kept = [];
  let hidden = 0, withoutText = 0;
  found.matches.forEach((m, index) => {
    const visible = m.shown && isVisible(m.el);
    if (!visible && !includeHidden) return void hidden++;
    if (needle && !textOf(m.el).toLowerCase().includes(needle.toLowerCase())) return void withoutText++;
    kept.push([m, index, visible]);  // text only where needed: innerText of big containers is costly
  });
  return {
    total: found.matches.length, hidden, withoutText, kept: kept.length,
    elements: kept.slice(0, limit).map(([m, index, visible]) => detail(m, index, visible, textOf(m.el), found.roots)),
    similar: found.matches.length ? null : similar(selector, found.roots),
    slots: found.slots, url: location.href,
  };
}

// How many elements match here, and the cross-origin iframes among them (for counting across frames).
function count(selector) {
  const found = tryScan(selector);
  return found.error ? found : {count: found.matches.length, slots: found.slots, url: location.href};
}

// The element at `index` among all matches (visible or not) in a wrapper, for resolve_element;
// the slots travel as JSON, the wrapper being read property by property.
function resolve(selector, index) {
  const found = tryScan(selector);
  if (found.error) return found;
  const m = found.matches[index];
  const count = found.matches.length, slots = JSON.stringify(found.slots), url = location.href;
  if (!m) return {count, element: null, description: '', where: '', slots, url};
  return {count, element: m.el, description: describe(m.el, textOf(m.el)), where: m.where.join(' > '), slots, url};
}

// Frame elements, each under its tree path, for CDP to name the frame it holds (DOM.describeNode): the
// cross-origin iframes the scan could not enter (`selector` null), or the matches of `selector`. `info`
// (JSON) says where each is, a selector unique for it here, and whether the scan enters its document.
function frameOwners(selector, frameShown) {
  const found = tryScan(selector, frameShown);
  if (found.error) return found;
  const picked = selector === null
    ? found.owners.map((el, i) => ({el, where: found.slots[i].where, shown: found.slots[i].shown}))
    : found.matches.map(m => ({el: m.el, where: m.where.concat(label(m.el)).join(' > '), shown: m.shown}));
  const out = {}, info = [];
  for (const {el, where, shown} of picked) {
    const key = treePath(el), selector = frameSelector(el, found.roots);
    let entered = false;
    try { entered = !!el.contentDocument; } catch (e) { /* cross-origin */ }
    out[key] = el;
    const src = el.src || '', visible = shown && isVisible(el);
    info.push({key, before: 0, where, shown: visible, src, selector, entered});
  }
  out.info = JSON.stringify(info);
  out.url = location.href;
  return out;
}

// How many elements each of `selectors` matches here (0 for one the browser refuses): whether a selector
// another frame suggested matches here too.
function counts(selectors) {
  const {roots} = scan(null);
  const countOf = sel => {
    try { return roots.reduce((n, r) => n + r.root.querySelectorAll(sel).length, 0); } catch (e) { return 0; }
  };
  return {counts: selectors.map(countOf)};
}
