"""The tools' handlers: one module per tool group, each tool's handler the function of the
tool's name in its group's module, ``cdpilot.handlers.<group>.<tool>`` (the group of its
schema, like its argument model's module).

`table.HANDLERS` lists them all for mypy, which checks it against the generated contract.
The stdio server finds them by their place instead (`group_handlers`), so that its first call
imports its own group's handlers only, not all thirteen modules (about 40 ms of a first
answer).
"""

from __future__ import annotations

import importlib

from cdpilot_generated.manifests import GRANULAR_TOOL_GROUP


def group_handlers(group: str) -> dict[str, object]:
    """The handlers of `group`'s tools by tool name, as its module defines them (None for a tool
    it lacks, all None when there is no module): `registry.handler_problems` checks them
    before they serve. A module that fails to import raises."""
    names = [name for name, owner in GRANULAR_TOOL_GROUP.items() if owner == group]
    place = f"{__name__}.{group}"
    try:
        module = importlib.import_module(place)
    except ModuleNotFoundError as exc:
        if exc.name != place:
            raise
        return dict.fromkeys(names)
    return {name: getattr(module, name, None) for name in names}
