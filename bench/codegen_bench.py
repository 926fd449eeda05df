"""`make bench-codegen`: how long `python -m codegen` takes, in three figures.

1. the real schemas, rendered in full (``--force``) into a scratch directory;
2. 1,000 synthetic tool schemas (and the smart tools that map them) written by
   `synthetic_tree`: every feature the real ones use ($ref, enums, defaults, min/max,
   arrays, nested objects, a parameter of its own, an actions-form smart mapping), at 20x
   the scale. The tree passes the lint like any other: every legacy tool has its smart
   action, and smart mode stays within its budgets (20 tools, 10,000 characters of
   tools/list) because the smart tools expose only the required ``selector`` and omit
   the rest (``x-cdpilot.omit``), with three-character action names;
3. the real schemas again with nothing changed: the input stamp matches, so codegen skips
   linting and rendering (codegen/__main__.py).

Beside figure 2, the same 1,000 schemas with ``--jobs 1`` (every generator call in one
process, as before the models were split by group) give a baseline from the same run: the
machine's speed drifts between runs, so the ratio says what the workers bring.

Each figure is the wall time of a whole ``python -m codegen`` process, interpreter start-up
included, because that is what a `make generate` costs the person waiting for it; codegen's
own modules are compiled first, as they are after any earlier run. Nothing
in the repository is written: outputs go to a temporary directory.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import ROOT, compile_bytecode

SYNTHETIC_TOOLS = 1000
GROUPS = 20  # schema folders the synthetic tools are spread over
SMART_TOOLS = 2  # each maps half of them
TARGETS_S = {"synthetic": 5.0, "unchanged": 0.3}
RUNS = 3

COMMON = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "Shared definitions of the synthetic tools.",
    "$defs": {
        "connection_id": {"type": "string", "minLength": 1, "description": "Connection (default: active)."},
        "selector": {"type": "string", "minLength": 1, "description": "CSS selector."},
    },
}
HINTS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}


def synthetic_tool(index: int) -> dict[str, Any]:
    """One granular tool: the property shapes every real schema uses, one of them its own."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "description": f"Synthetic tool {index}.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "selector": {"$ref": "../../common/defs.json#/$defs/selector"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5, "description": "Max items."},
            "state": {"type": "string", "enum": ["a", "b", "c"], "default": "a", "description": "Which state."},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 8, "description": "Tags."},
            "box": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "width": {"type": "number", "minimum": 0, "description": "Width."},
                    "height": {"type": "number", "minimum": 0, "description": "Height."},
                },
                "required": ["width"],
                "description": "A box.",
            },
            f"value_{index}": {"type": "string", "maxLength": 100, "description": f"Only tool {index} has this."},
            "connection_id": {"$ref": "../../common/defs.json#/$defs/connection_id"},
        },
        "required": ["selector"],
        "examples": [{"selector": "a", "limit": 2, "box": {"width": 1}}],
        "x-cdpilot": {
            "group": f"group_{index % GROUPS}",
            "modes": ["legacy"],
            "defaults": {"connection_id": "active_connection"},
            "annotations": HINTS,
        },
    }


def synthetic_tree(root: Path, count: int = SYNTHETIC_TOOLS) -> Path:
    """Write ``root/schemas``: `count` legacy tools, mapped by `SMART_TOOLS` actions-form tools."""
    schemas = root / "schemas"
    _write(schemas / "common/defs.json", COMMON)
    actions: list[dict[str, str]] = [{} for _ in range(SMART_TOOLS)]
    omitted: list[list[str]] = [["limit", "state", "tags", "box", "connection_id"] for _ in range(SMART_TOOLS)]
    for index in range(count):
        name = f"synth_{index:04d}"
        _write(schemas / f"tools/group_{index % GROUPS}/{name}.json", synthetic_tool(index))
        actions[index % SMART_TOOLS][_action_name(index)] = name
        omitted[index % SMART_TOOLS].append(f"value_{index}")
    for number, (mapping, omit) in enumerate(zip(actions, omitted, strict=True)):
        smart = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "description": f"Synthetic tools, part {number}.",
            "examples": [{"action": next(iter(mapping)), "selector": "a"}],
            "x-cdpilot": {
                "group": "synthetic",
                "discriminator": "action",
                "actions": mapping,
                "omit": omit,
                "annotations": {},
            },
        }
        _write(schemas / f"smart/synth_{number}.json", smart)
    return schemas


def _action_name(index: int) -> str:
    """Three characters, a letter first (26 x 36 x 36 names): the enum is most of smart tools/list."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    return "abcdefghijklmnopqrstuvwxyz"[index // 1296] + alphabet[index // 36 % 36] + alphabet[index % 36]


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def codegen_seconds(*args: str) -> float:
    """Wall time of one ``python -m codegen`` process; a failed run stops the benchmark."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "codegen", *args], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"bench-codegen: python -m codegen {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def median_seconds(*args: str) -> float:
    return statistics.median(codegen_seconds(*args) for _ in range(RUNS))


def interleaved_medians(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[float, float]:
    """The median of each of two runs made turn about, so a drift of the machine's speed
    weighs on both alike."""
    pairs = [(codegen_seconds(*first), codegen_seconds(*second)) for _ in range(RUNS)]
    return statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs)


def main() -> int:
    compile_bytecode("codegen")
    scratch = Path(tempfile.mkdtemp(prefix="cdpilot-bench-codegen-"))
    try:
        real_out = scratch / "real"
        real = median_seconds("--out", str(real_out), "--force")
        synthetic_schemas = synthetic_tree(scratch / "synthetic")
        synthetic_args = ("--schemas", str(synthetic_schemas), "--out", str(scratch / "synthetic-out"), "--force")
        synthetic, one_process = interleaved_medians(synthetic_args, (*synthetic_args, "--jobs", "1"))
        unchanged = median_seconds("--out", str(real_out))  # the stamp of the runs above matches
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = [
        (f"real schemas ({_count()} files), full render", real, None),
        (f"{SYNTHETIC_TOOLS:,} synthetic tool schemas, full render", synthetic, TARGETS_S["synthetic"]),
        ("  the same, one generator process (--jobs 1)", one_process, None),
        ("real schemas, nothing changed (stamp matches)", unchanged, TARGETS_S["unchanged"]),
    ]
    print(f"python -m codegen, median wall time of {RUNS} runs (interpreter start-up included):")
    for label, seconds, target in rows:
        verdict = "" if target is None else f"   target < {target} s: {'met' if seconds < target else 'MISSED'}"
        print(f"  {label:<48} {seconds:6.2f} s{verdict}")
    print(f"generator processes side by side: {synthetic / one_process:.2f}x the time of one process, same run")
    return 0


def _count() -> int:
    return sum(1 for _ in (ROOT / "schemas").rglob("*.json"))


if __name__ == "__main__":
    sys.exit(main())
