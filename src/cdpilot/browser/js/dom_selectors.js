// DOM library: unique selectors for an element, most stable first, each checked against every tree.
function unique(sel, el, roots) {
  let count = 0;
  try {
    for (const r of roots) if ((count += r.root.querySelectorAll(sel).length) > 1) return false;
    return count === 1 && el.getRootNode().querySelector(sel) === el;
  } catch (e) { return false; }
}

// tag[data-x="v"] for each short data-* attribute (test ids included).
const dataSelectors = e => [...e.attributes].filter(a => a.name.startsWith('data-') && a.value && a.value.length <= 40)
  .map(a => [`${e.localName}[${a.name}=${quote(a.value)}]`, a.name]);

// A selector that pins ancestor `e` by a stable attribute of its own: id or data-*.
function anchorOf(e, roots) {
  const tries = [...(e.id && !generated(e.id) ? ['#' + esc(e.id)] : []), ...dataSelectors(e).map(d => d[0])];
  return tries.find(sel => unique(sel, e, roots)) || null;
}

function positionPath(el, roots) {
  const parts = [];
  for (let e = el; e && e.localName !== 'html'; e = e.parentElement) {
    const anchor = e !== el && anchorOf(e, roots);
    if (anchor) { parts.unshift(anchor); break; }
    const same = e.parentNode ? [...e.parentNode.children].filter(s => s.localName === e.localName) : [e];
    parts.unshift(same.length > 1 ? `${e.localName}:nth-of-type(${same.indexOf(e) + 1})` : e.localName);
  }
  return parts.join(' > ');
}

// Unique selectors for `el`, most stable first, each verified against every tree; stops at `max`.
function selectorsFor(el, roots, max) {
  const out = [], tag = el.localName;
  const add = (sel, score, reason) => {
    const fresh = out.length < max && !out.some(s => s.selector === sel);
    if (fresh && unique(sel, el, roots)) out.push({selector: sel, score, reason});
  };
  const attr = name => el.getAttribute(name) || '';
  if (el.id && !generated(el.id)) add('#' + esc(el.id), 95, 'unique id');
  for (const a of TEST_ATTRS) if (attr(a)) add(`[${a}=${quote(attr(a))}]`, 90, a);
  const named = [['aria-label', 80], ['name', 80], ['role', 70], ['placeholder', 70], ['title', 65], ['alt', 65],
    ['for', 65], ['type', 60]];
  for (const [a, score] of named) {
    if (attr(a) && attr(a).length <= 80) add(`${tag}[${a}=${quote(attr(a))}]`, score, a);
  }
  if (attr('name') && attr('value')) {
    add(`${tag}[name=${quote(attr('name'))}][value=${quote(attr('value'))}]`, 75, 'name + value');
  }
  const classes = [...el.classList].filter(stableClass);
  for (const c of classes) add(`${tag}.${esc(c)}`, 60, 'stable class');
  if (classes.length > 1) add(tag + classes.map(c => '.' + esc(c)).join(''), 58, 'stable classes');
  if (tag === 'a' && attr('href') && attr('href').length <= 80) add(`a[href=${quote(attr('href'))}]`, 55, 'href');
  for (const [sel, name] of dataSelectors(el)) add(sel, 55, name);
  if (el.id && generated(el.id)) add('#' + esc(el.id), 50, 'id (looks generated)');
  const path = positionPath(el, roots), top = path.split(' > ')[0];
  if (/^#|\[/.test(top) && top !== path) {
    add(`${top} ${classes.length ? tag + '.' + esc(classes[0]) : tag}`, 50, 'inside ' + top);
  }
  add(path, 30, 'position path, breaks when the layout changes');
  return out;
}

// The selector that names frame element `f` in a frame-scoped selector: its best unique one, an id led by its tag.
function frameSelector(f, roots) {
  const best = selectorsFor(f, roots, 1)[0];
  return !best ? label(f) : best.selector.startsWith('#') ? f.localName + best.selector : best.selector;
}

// The frame-scoped prefix of the same-origin frames around `el` ("iframe#same >> "), "" in the top document:
// for a selector unique here that another frame's documents match too.
function frameScope(el, roots) {
  let scope = '';
  for (let w = el.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
    scope = frameSelector(w.frameElement, roots) + ' >> ' + scope;
  }
  return scope;
}
