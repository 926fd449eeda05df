// DOM library: inspect_element, elements scored against a description (entry point: inspect).
const STOP_WORDS = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'with', 'and', 'or', 'that', 'this',
  'is', 'it', 'its', 'element', 'page', 'which', 'one', 'some']);
const TAG_WORDS = {
  link: ['a'], button: ['button'], btn: ['button'], input: ['input', 'textarea'],
  field: ['input', 'textarea', 'select'],
  textbox: ['input', 'textarea'], box: ['input', 'textarea'], dropdown: ['select'], combobox: ['select'],
  image: ['img', 'svg'], picture: ['img'], icon: ['svg', 'img', 'i'], heading: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  title: ['h1', 'h2'], row: ['tr'], cell: ['td', 'th'], list: ['ul', 'ol'], item: ['li'], menu: ['nav', 'menu', 'ul'],
  navigation: ['nav'], paragraph: ['p'],
};

function implicitRole(el) {
  const tag = el.localName, type = (el.getAttribute('type') || '').toLowerCase();
  if (tag === 'a' && el.hasAttribute('href')) return 'link';
  if (tag === 'button' || (tag === 'input' && /^(button|submit|reset|image)$/.test(type))) return 'button';
  if (tag === 'input') return /^(checkbox|radio)$/.test(type) ? type : 'textbox';
  if (tag === 'textarea') return 'textbox';
  if (tag === 'select') return 'combobox';
  return /^h[1-6]$/.test(tag) ? 'heading' : tag === 'nav' ? 'navigation' : '';
}

// 0..1 per criterion: the share of description words found, how exactly the text matches,
// the share of the attributes that match. `reasons` collects what matched, for the answer.
function scoreWords(el, words, reasons) {
  const attr = n => (el.getAttribute(n) || '').toLowerCase();
  const named = [el.id, ...['name', 'aria-label', 'placeholder', 'title', 'alt', ...TEST_ATTRS].map(attr)]
    .join(' ').toLowerCase();
  const value = el.localName === 'input' ? String(el.value).toLowerCase() : '';
  const kinds = [attr('type'), attr('role'), implicitRole(el), value].join(' ');
  const text = norm(el.textContent).toLowerCase();
  let total = 0;
  for (const w of words) {
    const score = el.localName === w || (TAG_WORDS[w] || []).includes(el.localName) || implicitRole(el) === w ? 1
      : named.includes(w) ? 1 : text.includes(w) ? (text.length <= 80 ? 0.8 : 0.3)
      : attr('class').includes(w) || kinds.includes(w) ? 0.7 : 0;
    if (score) reasons.push(w);
    total += score;
  }
  return total / words.length;
}

function scoreText(el, wanted, reasons) {
  if (!norm(el.textContent).toLowerCase().includes(wanted) && !el.attributes.length) return 0;
  const own = [textOf(el), el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.getAttribute('title'),
    el.localName === 'input' ? el.value : ''].map(t => norm(t).toLowerCase()).filter(Boolean);
  if (own.includes(wanted)) return reasons.push('text equals'), 1;
  const holder = own.find(t => t.includes(wanted));
  return holder ? (reasons.push('text contains'), 0.4 + 0.5 * wanted.length / holder.length) : 0;
}

function scoreAttributes(el, attributes, reasons) {
  let total = 0;
  for (const [name, value] of attributes) {
    const actual = el.getAttribute(name);
    const exact = actual === value || (name === 'class' && value.split(/\s+/).every(c => el.classList.contains(c)));
    const score = exact ? 1 : actual && actual.toLowerCase().includes(value.toLowerCase()) ? 0.5 : 0;
    if (score) reasons.push(name);
    total += score;
  }
  return total / attributes.length;
}

// `frameShown`: false inside a cross-origin iframe that is not visible (its parent's scan says).
function inspect(description, text, attributes, limit, frameShown) {
  const {roots, slots} = scan(null, frameShown);
  const words = (description || '').toLowerCase().split(/[^\p{L}\p{N}_-]+/u)
    .filter(w => w.length > 1 && !STOP_WORDS.has(w));
  const wanted = norm(text).toLowerCase(), attrs = Object.entries(attributes || {});
  const found = [];
  let scored = 0;
  for (const r of roots) for (const el of r.root.querySelectorAll('*')) {
    if (SKIP.has(el.localName)) continue;
    scored++;
    const reasons = [], parts = [];
    if (words.length) parts.push(scoreWords(el, words, reasons));
    if (wanted) parts.push(scoreText(el, wanted, reasons));
    if (attrs.length) parts.push(scoreAttributes(el, attrs, reasons));
    const score = parts.reduce((a, b) => a + b, 0) / parts.length;
    if (score >= 0.3) found.push({el, r, score: score + (el.matches(INTERACTIVE) ? 0.02 : 0), reasons});
  }
  found.sort((a, b) => b.score - a.score);
  const best = found.slice(0, limit).map(({el, r, score, reasons}) => ({
    description: describe(el, textOf(el)), where: r.where.join(' > '), visible: r.shown && isVisible(el),
    score: Math.min(100, Math.round(score * 100)), reasons: [...new Set(reasons)],
    selectors: selectorsFor(el, roots, 4), scope: frameScope(el, roots),
  }));
  return {candidates: best, total: found.length, scored, slots, url: location.href};
}
