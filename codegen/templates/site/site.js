// The index's mode switch and search: every tool item carries its modes and its searchable text.
(() => {
  const list = document.getElementById("tools");
  const search = document.getElementById("search");
  const shown = document.getElementById("shown");
  const nothing = document.getElementById("nothing");
  const radios = [...document.querySelectorAll("input[name=mode]")];
  const items = [...list.querySelectorAll("li[data-modes]")];
  const inMode = (item, mode) => item.dataset.modes.split(" ").includes(mode);

  function mode() {
    return radios.find((radio) => radio.checked).value;
  }

  function apply() {
    const current = mode();
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    for (const item of items) {
      const visible = inMode(item, current) && words.every((word) => item.dataset.search.includes(word));
      item.hidden = !visible;
      count += visible ? 1 : 0;
    }
    for (const group of list.querySelectorAll("section")) {
      group.hidden = !group.querySelector("li:not([hidden])");
    }
    const total = items.filter((item) => inMode(item, current)).length;
    shown.textContent = `${count} of ${total} ${current} tools`;
    nothing.hidden = count > 0;
    document.body.dataset.mode = current;
  }

  const wanted = radios.find((radio) => "#" + radio.value === location.hash);
  if (wanted) wanted.checked = true;
  for (const radio of radios) {
    radio.addEventListener("change", () => {
      history.replaceState(null, "", "#" + mode());
      apply();
    });
  }
  search.addEventListener("input", apply);
  apply();
})();
