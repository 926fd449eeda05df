"""`make bench`: cdpilot measured side by side with its baselines in the same run.

Every figure is a median or a ratio to a baseline measured in the same run on the same
machine, never a pass/fail threshold: absolute numbers move with the machine and its load,
ratios measured together do not. `python -m bench` prints the table and writes
``bench-report.json``.
"""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout


def compile_bytecode(*trees: str) -> None:
    """Compile these folders of the checkout, as installing a package does for its sources.

    An editable checkout run with PYTHONDONTWRITEBYTECODE would otherwise compile them from
    source in every spawned process, while installed packages (the SDK, the generator) load
    compiled bytecode, and the figures would measure the compiler.
    """
    for tree in trees:
        compileall.compile_dir(ROOT / tree, quiet=1)
