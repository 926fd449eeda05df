"""The page-side half of the DOM tools: JavaScript kept as Python string constants.

Everything that needs the live DOM (shadow roots, same-origin frames, computed styles,
selector uniqueness) runs in the page in one ``Runtime.evaluate`` per call; Python only
formats what comes back. `script(library, entry, *args)` wraps a library (QUERY_, INSPECT_
and WAIT_LIBRARY, each in its own ``dom_scripts_*`` module, built on the shared BASICS and
SELECTORS here) and its entry point in an arrow function, so nothing leaks into the page's
globals and the page cannot tamper with our helpers between calls.

Search order is document order across trees: the content of an open shadow root or of a
same-origin frame comes right after the element that holds it. Selectors match within
each tree, as ``querySelectorAll`` does (a descendant combinator does not cross a shadow
boundary).
"""

from __future__ import annotations

import json

BASICS = r"""
const FOLLOWING = 4;  // Node.DOCUMENT_POSITION_FOLLOWING
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'html',
  'body']);
const INTERACTIVE = 'a,button,input:not([type=hidden]),select,textarea,[role=button],[onclick],[tabindex]';
const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
const STATE_CLASS = new RegExp('^(active|current|selected|open|closed|show|shown|hidden|visible|disabled|focus(ed)?|'
  + 'hover(ed)?|checked|expanded|collapsed|loading|(is|has)-.*)$');
const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
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

// Every tree (document, open shadow roots, same-origin frame documents) and the matches of
// `selector` in them, in document order; `shown` is false inside a frame that is not visible.
function scan(selector) {
  const roots = [], matches = [];
  const visit = (root, where, shown) => {
    roots.push({root, where, shown});
    const hits = selector ? root.querySelectorAll(selector) : [];
    const portals = [];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) portals.push({el, root: el.shadowRoot, where: where.concat('shadow root of ' + label(el))});
      else if (el.localName === 'iframe' || el.localName === 'frame') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { /* cross-origin: not searchable */ }
        if (doc && doc.documentElement) portals.push({el, root: doc, where: where.concat(label(el)), frame: true});
      }
    }
    const enter = p => visit(p.root, p.where, shown && (!p.frame || isVisible(p.el)));
    let j = 0;
    for (const el of hits) {
      const before = p => p.el !== el && (p.el.compareDocumentPosition(el) & FOLLOWING);
      while (j < portals.length && before(portals[j])) enter(portals[j++]);
      matches.push({el, where, shown});
    }
    while (j < portals.length) enter(portals[j++]);
  };
  visit(document, [], true);
  return {roots, matches};
}

// scan(), or {error} when the browser refuses the selector.
function tryScan(selector) {
  try { return scan(selector); } catch (e) {
    if (e.name === 'SyntaxError') return {error: e.message.replace(/^Failed to execute .*?: /, '')};
    throw e;
  }
}
"""

SELECTORS = r"""
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
"""


def script(library: str, entry: str, *args: object) -> str:
    """An expression that runs `entry(*args)` with `library` in scope; args travel as JSON."""
    arguments = ", ".join(json.dumps(arg) for arg in args)
    return f"(() => {{\n{library}\nreturn {entry}({arguments});\n}})()"
