// Writes saved web storage into this page's own origin: area "local" or "session", items [[key, value], …]; how
// many keys it wrote, or null when the page is not at `origin` (the visit that was to bring it there did not).
function (origin, area, items) {
  if (location.origin !== origin) return null;
  const store = area === "session" ? sessionStorage : localStorage;
  for (const [key, value] of items) store.setItem(key, value);
  return items.length;
}
