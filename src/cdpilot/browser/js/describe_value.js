// The value `this` as a tree of plain data, which cdpilot renders as text (answers/value_answers.py). A JSON
// primitive stands for itself; anything else is {k: kind, ...}. It reads a value the way a debugger does,
// running as little of the page's code as it can: properties through their descriptors (a page's getter is
// shown, never called), built-ins through their own prototypes' methods, and only the native getters of a
// host object (a DOMRect's x, a Location's href), which have no side effects. `element(el)` gives an
// element's [label, text] in cdpilot's notation, `short(text)` a node's text as short. Bounded by `limits`:
// `items` values in all, `depth` levels, `string` characters of each string, `stack` frames of each error;
// every cut is in the tree.
function (limits, element, short) {
  const ancestors = [];
  let left = limits.items;
  const tagOf = v => Object.prototype.toString.call(v).slice(8, -1);
  const own = (v, key) => Object.getOwnPropertyDescriptor(v, key);
  const isA = (v, type) => typeof type === 'function' && v instanceof type;  // a worker has no DOM types
  const NODE_TAG = /^((HTML|SVG|MathML)\w*)?Element$|^(Text|Comment|CDATASection|Attr|(HTML|XML)?Document|DocumentFragment|ShadowRoot|DocumentType)$/;
  const LIST_TAG = /^(NodeList|HTMLCollection|HTMLFormControlsCollection|HTMLOptionsCollection|RadioNodeList)$/;

  function isNative(f) {
    try { return /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(f)); } catch (e) { return false; }
  }

  // The name of the class that made `v`, or null for a plain object or array (of this or another frame).
  function classOf(v) {
    const proto = Object.getPrototypeOf(v);
    if (proto === null) return null;
    const ctor = own(proto, 'constructor');
    const name = ctor && typeof ctor.value === 'function' ? own(ctor.value, 'name') : undefined;
    const text = name && typeof name.value === 'string' && name.value ? name.value : tagOf(v);
    return text === 'Object' || text === 'Array' ? null : text;
  }

  function fn(f) {
    const name = own(f, 'name'), length = own(f, 'length');
    let source = '';
    try { source = Function.prototype.toString.call(f); } catch (e) { /* a revoked proxy */ }
    return {
      k: 'function',
      kind: /^class\b/.test(source) ? 'class' : tagOf(f),
      name: name && typeof name.value === 'string' ? name.value : '',
      arity: length && typeof length.value === 'number' ? length.value : 0,
    };
  }

  function node(v) {
    switch (v.nodeType) {
      case 1: { const [label, text] = element(v); return {k: 'node', label, text}; }
      case 2: return {k: 'node', label: 'attribute ' + v.name, text: short(v.value)};
      case 3: return {k: 'node', label: '#text', text: short(v.data)};
      case 8: return {k: 'node', label: '#comment', text: short(v.data)};
      case 9: return {k: 'node', label: '#document', text: v.URL};
      case 11: return {k: 'node', label: v.host ? '#shadow-root of ' + element(v.host)[0] : '#document-fragment', text: ''};
      default: return {k: 'node', label: String(v.nodeName), text: ''};
    }
  }

  function error(v) {
    let head = 'Error', stack = '';
    try { head = Error.prototype.toString.call(v); } catch (e) { /* name or message is a throwing getter */ }
    try { const s = v.stack; stack = typeof s === 'string' ? s : ''; } catch (e) { /* no stack */ }
    const frames = stack.split('\n').filter(line => /^\s+at /.test(line)).map(line => line.trim());
    return {k: 'error', text: head.slice(0, limits.string), length: head.length, stack: frames.slice(0, limits.stack),
      more: Math.max(0, frames.length - limits.stack)};
  }

  // What needs no walk inside: null when `v` is a container to walk. Kinds are told by instanceof or, for
  // a value from another frame (another realm's constructors), by its tag.
  function leaf(v) {
    const tag = tagOf(v);
    try {
      if (isA(v, globalThis.Node) || NODE_TAG.test(tag)) return node(v);
      if (isA(v, Error) || tag === 'Error') return error(v);
      if (isA(v, Date) || tag === 'Date') {
        const time = Date.prototype.getTime.call(v);
        return {k: 'date', iso: Number.isNaN(time) ? 'Invalid Date' : Date.prototype.toISOString.call(v)};
      }
      if (isA(v, RegExp) || tag === 'RegExp') return {k: 'regexp', source: RegExp.prototype.toString.call(v)};
    } catch (e) { /* a look-alike (a faked tag): read as the object it is */ }
    if (tag === 'Window' || tag === 'Promise' || tag.startsWith('Weak')) return {k: 'opaque', text: tag};
    if (tag === 'ArrayBuffer' || tag === 'DataView') return {k: 'opaque', text: tag + '(' + v.byteLength + ')'};
    return null;
  }

  function walk(v, depth) {
    left--;
    switch (typeof v) {
      case 'string': return v.length > limits.string ? {k: 'cut', head: v.slice(0, limits.string), length: v.length} : v;
      case 'number': return Number.isFinite(v) && !Object.is(v, -0) ? v : {k: 'js', text: Object.is(v, -0) ? '-0' : String(v)};
      case 'boolean': return v;
      case 'undefined': return {k: 'js', text: 'undefined'};
      case 'bigint': return {k: 'js', text: v + 'n'};
      case 'symbol': return {k: 'js', text: Symbol.prototype.toString.call(v)};
      case 'function': return fn(v);
    }
    if (v === null) return null;
    if (ancestors.includes(v)) return {k: 'circular'};
    const found = leaf(v);
    if (found) return found;
    if (depth >= limits.depth) return {k: 'deep', summary: summary(v)};
    ancestors.push(v);
    try { return container(v, depth + 1); } finally { ancestors.pop(); }
  }

  function summary(v) {
    const name = classOf(v);
    return Array.isArray(v) ? (name || 'Array') + '(' + v.length + ')' : name || 'Object';
  }

  // A property's value, read through its descriptor: a getter is called only when it is a host's own.
  function property(v, descriptor, host, depth) {
    if ('value' in descriptor) return walk(descriptor.value, depth);
    if (host && descriptor.get && isNative(descriptor.get)) {
      try { return walk(descriptor.get.call(v), depth); } catch (e) { /* shown as the accessor it is */ }
    }
    left--;
    return {k: 'accessor', get: Boolean(descriptor.get), set: Boolean(descriptor.set)};
  }

  function container(v, depth) {
    const tag = tagOf(v);
    if (isA(v, Map) || isA(v, Set) || tag === 'Map' || tag === 'Set') {
      const map = isA(v, Map) || tag === 'Map';
      const proto = map ? Map.prototype : Set.prototype;
      const size = own(proto, 'size').get.call(v), items = [];
      for (const entry of (map ? proto.entries : proto.values).call(v)) {
        if (left <= 0) break;
        items.push(map ? [walk(entry[0], depth), walk(entry[1], depth)] : walk(entry, depth));
      }
      return {k: map ? 'map' : 'set', size, items, more: size - items.length};
    }
    const name = classOf(v);
    const listed = Array.isArray(v) || (ArrayBuffer.isView(v) && typeof v.length === 'number')
      || isA(v, globalThis.NodeList) || isA(v, globalThis.HTMLCollection) || LIST_TAG.test(tag);
    if (listed) {
      const length = v.length, items = [];
      for (let i = 0; i < length && left > 0; i++) {
        const descriptor = own(v, i);
        items.push(descriptor ? property(v, descriptor, false, depth) : walk(undefined, depth));
      }
      return {k: 'array', cls: name, length, items, more: length - items.length};
    }
    const proto = Object.getPrototypeOf(v), ctor = proto && own(proto, 'constructor');
    const host = name !== null && Boolean(ctor) && isNative(ctor.value);
    const props = [], seen = new Set();
    let more = 0;
    const add = (key, descriptor) => {
      if (seen.has(key)) return;
      seen.add(key);
      if (left <= 0) { more++; return; }
      const symbol = typeof key === 'symbol';
      props.push([symbol ? Symbol.prototype.toString.call(key) : key, property(v, descriptor, host, depth), symbol]);
    };
    for (const key of Reflect.ownKeys(v)) {
      const descriptor = own(v, key);
      if (descriptor && descriptor.enumerable) add(key, descriptor);
    }
    // A host object keeps its state behind native getters on its prototypes (a DOMRect's x, y, width).
    for (let above = host ? proto : null; above && above !== Object.prototype; above = Object.getPrototypeOf(above)) {
      for (const key of Object.getOwnPropertyNames(above)) {
        const descriptor = own(above, key);
        if (key !== 'constructor' && descriptor.get && isNative(descriptor.get)) add(key, descriptor);
      }
    }
    return {k: 'object', cls: name, props, more};
  }

  return walk(this, 0);
}
