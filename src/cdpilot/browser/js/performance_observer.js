// Starts keeping the page's interactions (Event Timing entries of 16 ms and more) for the
// performance metrics: the browser buffers only those of 104 ms and more, so an INP needs an
// observer that was already running when the interaction happened. Runs at the start of each
// new document (atStart true) and once in the current one. An interaction is its longest event,
// named click or keydown when it has one; the record lives under a symbol,
// out of the page's own names, and keeps the last MAX interactions. Returns whether it started.
function (key, atStart) {
  const slot = Symbol.for(key);
  if (window[slot]) return false;
  const MAX = 500;
  const NAMING = ["click", "keydown"]; // the event an interaction is named by, when it has one
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return null;
    const id = node.id ? `#${node.id}` : "";
    const classes = id ? "" : [...node.classList].slice(0, 2).map((name) => `.${name}`).join("");
    return `${node.localName}${id}${classes}`;
  };
  const count = () => (typeof performance.interactionCount === "number" ? performance.interactionCount : null);
  const record = { atStart, since: performance.now(), countAtStart: count(), interactions: new Map(), describe, count };
  Object.defineProperty(window, slot, { value: record });
  const keep = (entries) => {
    for (const entry of entries) {
      if (!entry.interactionId) continue;
      const seen = record.interactions.get(entry.interactionId);
      const longer = !seen || entry.duration > seen.duration;
      record.interactions.set(entry.interactionId, {
        duration: longer ? entry.duration : seen.duration,
        event: NAMING.includes(entry.name) || (longer && !NAMING.includes(seen && seen.event)) ? entry.name : seen.event,
        target: (seen && seen.target) || describe(entry.target),
      });
      if (record.interactions.size > MAX) record.interactions.delete(record.interactions.keys().next().value);
    }
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ type: "event", durationThreshold: 16, buffered: true });
  record.takeRecords = () => keep(observer.takeRecords());
  return true;
}
