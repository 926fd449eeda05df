// Reads the page's performance now: the last largest-contentful-paint, the layout shifts
// (CLS is the worst session window: shifts less than 1 s apart, 5 s at most, none right after
// input), the long tasks, the interactions kept by performance_observer.js (INP is their
// 98th percentile: one dropped per 50), navigation timing and the slowest resources. An entry
// type this browser does not record is null, never an empty list.
function (key, resourceCount) {
  const record = window[Symbol.for(key)];
  record.takeRecords();
  const describe = record.describe;
  const supported = PerformanceObserver.supportedEntryTypes;
  const buffered = (type) => {
    if (!supported.includes(type)) return null;
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type, buffered: true });
    const entries = observer.takeRecords();
    observer.disconnect();
    return entries;
  };
  const paints = buffered("largest-contentful-paint");
  const paint = paints && paints[paints.length - 1];
  const lcp = paint ? { time: paint.startTime, element: describe(paint.element), url: paint.url || null } : null;

  const shifts = buffered("layout-shift");
  let cls = null;
  if (shifts) {
    let score = 0, window_ = 0, first = 0, previous = 0, worst = null;
    for (const shift of shifts) {
      if (shift.hadRecentInput) continue;
      if (window_ && (shift.startTime - previous > 1000 || shift.startTime - first > 5000)) window_ = 0;
      if (!window_) first = shift.startTime;
      window_ += shift.value;
      previous = shift.startTime;
      score = Math.max(score, window_);
      if (!worst || shift.value > worst.value) worst = shift;
    }
    const area = (rect) => (rect ? rect.width * rect.height : 0);
    const sources = worst ? [...worst.sources].filter((source) => source.node) : [];
    sources.sort((a, b) => area(b.previousRect) + area(b.currentRect) - area(a.previousRect) - area(a.currentRect));
    cls = { score, element: sources.length ? describe(sources[0].node) : null };
  }

  const tasks = buffered("longtask");
  const longTasks = tasks && tasks.map((task) => task.duration);

  const kept = [...record.interactions.values()].sort((a, b) => b.duration - a.duration);
  const worstKept = kept[Math.min(kept.length - 1, Math.floor(kept.length / 50))] || null;
  const firstInputs = buffered("first-input");
  const firstInput = firstInputs && firstInputs[0];
  const count = record.count();
  const happened = (count !== null && count > 0) || Boolean(firstInput);
  const seenSince =
    record.atStart ||
    (count !== null && count > record.countAtStart) ||
    Boolean(firstInput && firstInput.startTime >= record.since);
  const inp = {
    state: worstKept ? "measured" : !happened ? "none" : seenSince ? "fast" : "before",
    duration: worstKept && worstKept.duration,
    event: worstKept && worstKept.event,
    element: worstKept && worstKept.target,
    interactions: count !== null ? count : kept.length,
  };

  const nav = performance.getEntriesByType("navigation")[0];
  const moment = (value) => (value > 0 ? value : null);
  const navigation = nav && nav.responseStart > 0
    ? { ttfb: nav.responseStart, dcl: moment(nav.domContentLoadedEventStart), load: moment(nav.loadEventStart) }
    : null;

  const loaded = performance.getEntriesByType("resource");
  const resources = [...loaded]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, resourceCount)
    .map((entry) => ({ url: entry.name, duration: entry.duration, size: entry.transferSize || entry.encodedBodySize || null }));

  return {
    url: location.href,
    since: record.atStart ? null : record.since,
    lcp: paints ? lcp : "unsupported",
    cls: cls || "unsupported",
    longTasks,
    inp,
    navigation,
    resources,
    resourceTotal: loaded.length,
  };
}
