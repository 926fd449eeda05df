// How fill_element types into this element: text, value, toggle, select, password, contenteditable or other.
function () {
  const tag = this.tagName.toLowerCase(), type = this.type;
  if (tag === "select" || tag === "textarea") return tag === "select" ? "select" : "text";
  if (tag !== "input") return this.isContentEditable ? "contenteditable" : "other";
  if (type === "password") return "password";
  if (type === "checkbox" || type === "radio") return "toggle";
  if (["button", "submit", "reset", "image", "file", "hidden"].includes(type)) return "other";
  return ["date", "time", "datetime-local", "month", "week", "color", "range"].includes(type) ? "value" : "text";
}
