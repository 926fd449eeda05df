"""The jinja2 settings every codegen template renders with.

An undefined name fails the render instead of printing nothing, block tags leave no blank
lines behind, and a file keeps its final newline. HTML templates escape by default.
"""

from __future__ import annotations

from pathlib import Path

import jinja2


def environment(folder: Path, *, autoescape: bool = False) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=autoescape,
    )
