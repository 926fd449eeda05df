"""Reads the value an evaluation came to, in the page or in a paused frame, as `value_facts`.

Evaluations return their value by reference (a ``RemoteObject``, with the browser's preview),
never by value: JSON would turn an element, a Map or a class instance into ``{}``. A primitive
is read from the RemoteObject itself. An object is read by one page-side function
(``js/describe_value.js``, with the DOM library's element notation) run on it through
``Runtime.callFunctionOn``, which also works while the page is paused: the preview alone is one
level deep and knows no element's text. Both kinds of evaluation use this one reader, so a value
reads the same wherever it was evaluated.

The objects an evaluation returns are kept in an object group of its own (`new_object_group`),
released by `release_values` once the value is read; a group per evaluation, so one call never
frees what another, on the same page at the same time, is still reading.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from dataclasses import asdict
from functools import cache
from typing import Any

from cdpilot.browser.own_scripts import own_function, page_script
from cdpilot.browser.remote_values import render_remote
from cdpilot.browser.value_facts import (
    Accessor,
    ArrayValue,
    Circular,
    DateValue,
    DomNode,
    ErrorValue,
    FunctionValue,
    JsLiteral,
    LongString,
    MapValue,
    ObjectValue,
    Opaque,
    PreviewOnly,
    Primitive,
    Property,
    ReadLimits,
    RegExpValue,
    SetValue,
    TooDeep,
    Value,
)
from cdpilot.cdp import CdpSession
from cdpilot.errors import CdpilotError

_group_numbers = itertools.count(1)
READ_TIMEOUT_S = 10.0  # a read walks a bounded value: far less, unless the page is stuck
NODE_TEXT_CHARS = 40  # as the DOM tools show an element's text in one line


@cache
def _reader() -> str:
    """``describe_value.js`` with the DOM library in scope, so elements read as the DOM tools show them."""
    return own_function(
        "function (limits) {\n"
        + page_script("dom_basics")
        + "\nreturn ("
        + page_script("describe_value")
        + f").call(this, limits, el => [label(el), clip(textOf(el), {NODE_TEXT_CHARS})],"
        f" text => clip(norm(text), {NODE_TEXT_CHARS}));\n}}"
    )


async def read_value(session: CdpSession, remote: dict[str, Any], limits: ReadLimits) -> Value:
    """The value `remote` stands for, read within `limits`."""
    if "objectId" not in remote or remote.get("type") == "symbol":
        return _primitive(remote)
    if remote.get("subtype") == "promise":
        return Opaque(_promise(remote))
    if remote.get("subtype") == "proxy":  # reading one would run its traps: the browser's words only
        return Opaque(str(remote.get("description") or "Proxy"))
    params = {
        "functionDeclaration": _reader(),
        "objectId": remote["objectId"],
        "arguments": [{"value": asdict(limits)}],
        "returnByValue": True,
        "silent": True,  # our own script: an exception in it must not pause a page set to pause on all
    }
    try:
        reply = await session.send("Runtime.callFunctionOn", params, timeout_s=READ_TIMEOUT_S)
    except CdpilotError:  # the page went away or is stuck: what the browser previewed is all there is
        return PreviewOnly(render_remote(remote))
    if "exceptionDetails" in reply:
        return PreviewOnly(render_remote(remote))
    return from_page(reply["result"].get("value"))


def new_object_group() -> str:
    """A fresh object group name for one evaluation's objects."""
    return f"cdpilot-values-{next(_group_numbers)}"


async def release_values(session: CdpSession, group: str, *, timeout_s: float) -> None:
    """Let the page collect the objects an evaluation handed us. Not worth waiting long for: a page
    that went away took them along, and one still busy with a stopped expression may not answer."""
    with contextlib.suppress(CdpilotError):
        await session.send("Runtime.releaseObjectGroup", {"objectGroup": group}, timeout_s=timeout_s)


def _primitive(remote: dict[str, Any]) -> Value:
    if "unserializableValue" in remote:  # NaN, -0, Infinity, 12n
        return JsLiteral(str(remote["unserializableValue"]))
    kind = remote.get("type")
    if kind == "undefined":
        return JsLiteral("undefined")
    if kind == "symbol":
        return JsLiteral(str(remote.get("description") or "Symbol()"))
    if kind in ("string", "number", "boolean") or remote.get("subtype") == "null":
        return Primitive(remote.get("value"))
    return Opaque(str(remote.get("description") or kind))


def _promise(remote: dict[str, Any]) -> str:
    """``Promise {<pending>}``, ``Promise {<fulfilled>: 42}``: its state, from the preview."""
    internal = {str(p.get("name")): p for p in (remote.get("preview") or {}).get("properties") or []}
    state = internal.get("[[PromiseState]]", {}).get("value", "unknown")
    result = internal.get("[[PromiseResult]]")
    if state == "pending" or result is None:
        return f"Promise {{<{state}>}}"
    shown = str(result.get("value", ""))
    if result.get("type") == "string":
        shown = json.dumps(shown, ensure_ascii=False)
    return f"Promise {{<{state}>: {shown}}}"


def from_page(data: Any) -> Value:
    """The tree ``describe_value.js`` sends, as facts."""
    if data is None or isinstance(data, str | bool | int | float):
        return Primitive(data)
    kind = data["k"]
    if kind == "cut":
        return LongString(str(data["head"]), int(data["length"]))
    if kind == "js":
        return JsLiteral(str(data["text"]))
    if kind == "node":
        return DomNode(str(data["label"]), str(data["text"]))
    if kind == "array":
        items = tuple(from_page(item) for item in data["items"])
        return ArrayValue(_class_name(data), int(data["length"]), items, int(data["more"]))
    if kind == "object":
        props = tuple(Property(str(key), from_page(value), bool(symbol)) for key, value, symbol in data["props"])
        return ObjectValue(_class_name(data), props, int(data["more"]))
    if kind == "map":
        entries = tuple((from_page(key), from_page(value)) for key, value in data["items"])
        return MapValue(int(data["size"]), entries, int(data["more"]))
    if kind == "set":
        return SetValue(int(data["size"]), tuple(from_page(item) for item in data["items"]), int(data["more"]))
    return _leaf(kind, data)


def _leaf(kind: str, data: dict[str, Any]) -> Value:
    if kind == "date":
        return DateValue(str(data["iso"]))
    if kind == "regexp":
        return RegExpValue(str(data["source"]))
    if kind == "function":
        return FunctionValue(str(data["kind"]), str(data["name"]), int(data["arity"]))
    if kind == "error":
        stack = tuple(str(line) for line in data["stack"])
        return ErrorValue(str(data["text"]), int(data["length"]), stack, int(data["more"]))
    if kind == "accessor":
        return Accessor(getter=bool(data["get"]), setter=bool(data["set"]))
    if kind == "circular":
        return Circular()
    if kind == "deep":
        return TooDeep(str(data["summary"]))
    return Opaque(str(data.get("text") or kind))


def _class_name(data: dict[str, Any]) -> str | None:
    name = data.get("cls")
    return None if name is None else str(name)
