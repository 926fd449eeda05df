// DOM library: wait_for, a promise settled by a MutationObserver and animation frames (entry point: waitFor).
function selectorState(matches, state) {
  const shown = matches.find(m => m.shown && isVisible(m.el));
  const target = state === 'attached' ? matches[0] : shown;
  const met = state === 'hidden' ? !shown : !!target;
  const about = state === 'hidden' ? shown : target;
  return {met, count: matches.length, element: about ? describe(about.el, textOf(about.el)) : '',
    where: about ? about.where.join(' > ') : ''};
}

// Visible text only: a hidden element's innerText is its whole textContent, so skip those.
function textState(roots, texts) {
  for (const r of roots) {
    if (!r.shown) continue;
    const tops = r.root.nodeType === 9 ? [r.root.body].filter(Boolean) : [...r.root.children].filter(isVisible);
    const content = norm(tops.map(t => t.innerText ?? t.textContent).join(' ')).toLowerCase();
    const hit = texts.find(t => content.includes(norm(t).toLowerCase()));
    if (hit) return {met: true, text: hit, where: r.where.join(' > ')};
  }
  return {met: false};
}

// Resolves once the condition holds: checked at once, after every DOM mutation in any tree
// (new shadow roots and frame documents are observed as they appear) and on every animation
// frame (styles change visibility without mutations). Resolves with timedOut at the deadline,
// or with stopped when the window gets the event `stopEvent` (a wait in another frame won).
// Without `stopEvent` it waits in this frame only: meeting a cross-origin iframe, it resolves
// with slots at once, to be waited for again in every frame.
function waitFor(selector, state, texts, timeoutMs, frameShown, stopEvent) {
  if (selector) {
    const valid = tryScan(selector, frameShown);
    if (valid.error) return valid;
  }
  return new Promise(resolve => {
    const observers = [], observed = new Set();
    let done = false, frame = 0, timer = 0;
    const stop = () => finish({stopped: true});
    const finish = value => {
      if (done) return;
      done = true;
      if (stopEvent) removeEventListener(stopEvent, stop);
      observers.forEach(o => o.disconnect());
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      resolve({...value, url: location.href});
    };
    const check = () => {
      if (done) return {met: true};
      const {roots, matches, slots} = scan(selector, frameShown);
      if (!stopEvent && slots.length) {
        finish({slots: true});
        return {met: true};
      }
      for (const r of roots) {
        if (observed.has(r.root)) continue;
        observed.add(r.root);
        const observer = new MutationObserver(check);
        observer.observe(r.root, {subtree: true, childList: true, attributes: true, characterData: true});
        observers.push(observer);
      }
      const outcome = selector ? selectorState(matches, state) : textState(roots, texts);
      if (outcome.met) finish(outcome);
      return outcome;
    };
    const tick = () => {
      check();
      if (!done) frame = requestAnimationFrame(tick);
    };
    timer = setTimeout(() => finish({...check(), timedOut: true}), timeoutMs);
    if (stopEvent) addEventListener(stopEvent, stop);
    tick();
  });
}
