// Settles once the page has painted twice, or after 1 s (a hidden page does not paint). The
// browser makes some records only when the frame after an event is presented: an interaction's
// timing entry, and the hit-test data that routes input into an out-of-process iframe.
new Promise((done) => {
  setTimeout(done, 1000);
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)));
})
