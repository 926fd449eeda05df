// DOM library, part 1 of every DOM script: visibility, text, labels, and `scan`, the search of every tree
// (document, open shadow roots, same-origin frames) in document order.
const FOLLOWING = 4;  // Node.DOCUMENT_POSITION_FOLLOWING
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'html',
  'body']);
const INTERACTIVE = 'a,button,input:not([type=hidden]),select,textarea,[role=button],[onclick],[tabindex]';
const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
const STATE_CLASS = new RegExp('^(active|current|selected|open|closed|show|shown|hidden|visible|disabled|focus(ed)?|'
  + 'hover(ed)?|checked|expanded|collapsed|loading|(is|has)-.*)$');
// cdpilot's one cut style (text.clip in Python): the start of `s` in `n` characters, marked with how much is missing.
const cutMark = n => '…[+' + n + ' chars]';
function clip(s, n) {
  if (s.length <= n) return s;
  let kept = n - cutMark(s.length).length;
  while (kept + 1 + cutMark(s.length - kept - 1).length <= n) kept++;
  kept = Math.max(1, kept);
  return s.slice(0, kept) + cutMark(s.length - kept);
}
const norm = s => (s || '').replace(/\s+/g, ' ').trim();
const quote = v => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
const esc = s => CSS.escape(s);

// Hash-like: many letter/digit alternations (1x2y3z), CSS-in-JS prefixes, CSS-module
// suffixes (Button_root__3xYz1), styled-components' case soup (kKbEuO).
function generated(name) {
  if (/^(css|jsx|sc|emotion|svelte|astro|styled)-/.test(name) || /__\w*\d/.test(name)) return true;
  if (name.split(/[-_:]/).some(seg => (seg.match(/\d+|[a-zA-Z]+/g) || []).length >= 4)) return true;
  if (/^[a-zA-Z]{5,10}$/.test(name) && (name.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g) || []).length >= 4) return true;
  return /\d{4,}|[0-9a-f]{8,}|^[:_]|^(ember|react|ext-gen|yui|mui|radix|headlessui)[-_:]?\d/i.test(name);
}
const stableClass = c => !STATE_CLASS.test(c) && !generated(c);

function label(el) {
  if (el.id) return el.localName + '#' + el.id;
  const cls = [...el.classList].filter(stableClass).slice(0, 2);
  return el.localName + cls.map(c => '.' + c).join('');
}

function isVisible(el) {
  const win = el.ownerDocument.defaultView;
  if (!el.isConnected || !win) return false;
  const style = win.getComputedStyle(el);
  if (style.display === 'contents') return [...el.children].some(isVisible) || norm(el.textContent) !== '';
  if (style.visibility !== 'visible' || !el.checkVisibility()) return false;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

// Rendered text; for an unrendered element (visibility:hidden has no innerText) its textContent.
function textOf(el) {
  const text = norm(el.innerText) || norm(el.textContent);
  if (!text && el.localName === 'input' && /^(button|submit|reset)$/.test(el.type)) return norm(el.value);
  return text;
}
const describe = (el, text) => label(el) + (text ? ' "' + clip(text, 40) + '"' : '');

// Where an element is, as indices from the top document down: its place among its root's
// elements, then its root's host or frame element's, and so on. The key that matches a
// cross-origin iframe the scan met with the frame target whose owner CDP names.
function treePath(el) {
  const path = [];
  for (let n = el; n; ) {
    const root = n.getRootNode();
    path.unshift([...root.querySelectorAll('*')].indexOf(n));
    n = root.host || (root.defaultView ? root.defaultView.frameElement : null);
  }
  return path.join('.');
}

// Every tree (document, open shadow roots, same-origin frame documents) and the matches of
// `selector` in them, in document order; `shown` is false inside a frame that is not visible.
// A cross-origin iframe cannot be entered from here: it is a slot, with the number of matches
// before it, searched in its own frame (`frameShown`: this document's own frame is); `owners`
// holds the slots' iframe elements, in the same order.
function scan(selector, frameShown = true) {
  const roots = [], matches = [], slots = [], owners = [];
  const visit = (root, where, shown) => {
    roots.push({root, where, shown});
    const hits = selector ? root.querySelectorAll(selector) : [];
    const portals = [];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) portals.push({el, root: el.shadowRoot, where: where.concat('shadow root of ' + label(el))});
      else if (el.localName === 'iframe' || el.localName === 'frame') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { /* cross-origin: a slot */ }
        if (doc && doc.documentElement) portals.push({el, root: doc, where: where.concat(label(el)), frame: true});
        else if (!doc) portals.push({el, where: where.concat(label(el)), slot: true});
      }
    }
    const enter = p => {
      const inner = shown && (!p.frame && !p.slot || isVisible(p.el));
      if (!p.slot) return visit(p.root, p.where, inner);
      slots.push({key: treePath(p.el), before: matches.length, where: p.where.join(' > '), shown: inner, src: p.el.src});
      owners.push(p.el);
    };
    let j = 0;
    for (const el of hits) {
      const before = p => p.el !== el && (p.el.compareDocumentPosition(el) & FOLLOWING);
      while (j < portals.length && before(portals[j])) enter(portals[j++]);
      matches.push({el, where, shown});
    }
    while (j < portals.length) enter(portals[j++]);
  };
  visit(document, [], frameShown);
  return {roots, matches, slots, owners};
}

// scan(), or {error} when the browser refuses the selector.
function tryScan(selector, frameShown) {
  try { return scan(selector, frameShown); } catch (e) {
    if (e.name === 'SyntaxError') return {error: e.message.replace(/^Failed to execute .*?: /, '')};
    throw e;
  }
}
