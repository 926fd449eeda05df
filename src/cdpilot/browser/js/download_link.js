// Whether a click here follows a link that downloads (an <a download> or <area download>):
// Chrome then starts a download and no navigation, so nothing in the page says it began.
function () {
  const link = this.closest("a[download], area[download]");
  return Boolean(link && link.href);
}
