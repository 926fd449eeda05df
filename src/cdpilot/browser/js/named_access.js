// Which of `names` the window (`this`) answers only through its named access to elements: the
// first object of its prototype chain that has the name is the named properties object (which
// sits between Window.prototype and EventTarget.prototype).
function (names) {
  if (typeof Window !== "function" || !(this instanceof Window)) return [];
  const named = Object.getPrototypeOf(Window.prototype);
  return names.filter((name) => {
    for (let holder = this; holder !== null; holder = Object.getPrototypeOf(holder)) {
      if (Object.prototype.hasOwnProperty.call(holder, name)) return holder === named;
    }
    return false;
  });
}
