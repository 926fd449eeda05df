// Reads or changes the page's localStorage or sessionStorage: op is "get", "set" or "clear"
// (key null: every key). Returns the origin and the entries asked for (after the change).
// A page without an origin of its own (about:blank, data:) throws a SecurityError.
function (op, area, key, value) {
  const store = area === "session" ? sessionStorage : localStorage;
  if (op === "set") store.setItem(key, value);
  if (op === "clear") key === null ? store.clear() : store.removeItem(key);
  const keys = key === null || op === "clear" ? Object.keys(store) : [key];
  const entries = keys.filter((k) => store.getItem(k) !== null).map((k) => [k, store.getItem(k)]);
  return { origin: location.origin, entries, total: store.length };
}
