// The state of an element after an action, in a few words: its value, checked, disabled, focused.
function () {
  const el = this, parts = [];
  if (!el.isConnected) return "removed from the page";
  const tag = el.tagName.toLowerCase();
  // cdpilot's one cut style (text.clip): at most 80 characters, marked with how much is missing.
  const mark = n => "…[+" + n + " chars]";
  const clip = s => {
    let kept = 80 - mark(s.length).length;
    while (kept + 1 + mark(s.length - kept - 1).length <= 80) kept++;
    return JSON.stringify(s.length > 80 ? s.slice(0, kept) + mark(s.length - kept) : s);
  };
  const chosen = tag === "select" ? [...el.selectedOptions].map(o => clip(o.label)).join(", ") : "";
  if (tag === "select") parts.push("selected " + (chosen || "nothing"));
  else if (el.type === "checkbox" || el.type === "radio") parts.push(el.checked ? "checked" : "not checked");
  else if (el.type === "password") parts.push(`value: ${el.value.length} characters`);
  else if (tag === "input" || tag === "textarea") parts.push("value " + clip(el.value));
  else if (el.isContentEditable) parts.push("text " + clip(el.textContent));
  if (el.matches(":disabled")) parts.push("disabled");
  if (el.matches(":focus")) parts.push("focused");
  return parts.join(", ");
}
