"""Compact text for CDP ``RemoteObject`` values, as the console would print them.

Objects are shown by the preview the browser generated (``generatePreview``), never
fetched in full, so a value costs one line however large it is.
"""

from __future__ import annotations

import json
from typing import Any

from cdpilot.text import clip


def render_remote(obj: dict[str, Any]) -> str:
    """A RemoteObject as the console prints it: strings raw, objects by their preview."""
    kind = obj.get("type")
    if kind == "string":
        return str(obj.get("value", ""))
    if "unserializableValue" in obj:
        return str(obj["unserializableValue"])
    if kind in ("number", "boolean"):
        return json.dumps(obj.get("value"))
    if kind == "undefined":
        return "undefined"
    if obj.get("subtype") == "null":
        return "null"
    preview = obj.get("preview")
    if preview is not None and obj.get("subtype") not in ("error", "node"):
        return _render_preview(preview)
    return str(obj.get("description") or kind).splitlines()[0]


def _render_preview(preview: dict[str, Any]) -> str:
    items = []
    array = preview.get("subtype") in ("array", "typedarray")
    for prop in preview.get("properties") or []:
        value = str(prop.get("value", ""))
        if prop.get("type") == "string":
            value = json.dumps(value, ensure_ascii=False)
        items.append(value if array else f"{prop.get('name')}: {value}")
    if preview.get("overflow"):
        items.append("…")
    description = str(preview.get("description") or "")
    if array:
        return f"{description} [{', '.join(items)}]"
    prefix = "" if description == "Object" else f"{description} "
    return prefix + "{" + ", ".join(items) + "}"


def preview_value(obj: dict[str, Any], *, max_chars: int) -> str:
    """A value as a debugger shows it: strings quoted, functions by their signature, capped."""
    kind = obj.get("type")
    if kind == "string":
        text = json.dumps(str(obj.get("value", "")), ensure_ascii=False)
    elif kind == "function":
        text = str(obj.get("description") or "function").splitlines()[0]
    else:
        text = render_remote(obj)
    return clip(text, max_chars)
