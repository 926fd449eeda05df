"""The input stamp that lets `make generate` skip a run that would write the same bytes.

A full run lints every schema and calls datamodel-code-generator: seconds, for nothing when
no input changed. The stamp records a hash of every input (each schema file, each file of
``codegen/`` — sources and templates —, ``pyproject.toml`` for the package version the
handshake answers carry, and the versions of the generator, of the tools it drives and of
Python) and a hash of each file the run wrote. When the input hash matches
and the package on disk is exactly the files of the stamp, byte for byte (none edited,
removed or added), there is nothing to do.

The stamp is a cache, not an output: it sits beside the package (``generated/.codegen-stamp.json``,
git-ignored), so ``--check``, which always renders, never reads it, and an edit to ``codegen/``
never makes the committed files stale by itself. This module imports nothing heavy: the
skip must cost less than the interpreter's start-up.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.metadata import version
from pathlib import Path

from codegen import GENERATOR_VERSION

STAMP_NAME = ".codegen-stamp.json"
CODEGEN_DIR = Path(__file__).resolve().parent
PYPROJECT = CODEGEN_DIR.parent / "pyproject.toml"
TOOLS = ("datamodel-code-generator", "jinja2", "mcp-types")  # their output is part of ours


def input_hash(schemas: Path) -> str:
    """One hash over every input of a run, stable across machines (relative paths, raw bytes)."""
    digest = hashlib.sha256()
    versions = [GENERATOR_VERSION, f"python {sys.version_info[0]}.{sys.version_info[1]}"]
    versions += [f"{tool} {version(tool)}" for tool in TOOLS]
    digest.update("\n".join(versions).encode())
    for label, root in (("schemas", schemas), ("codegen", CODEGEN_DIR)):
        for rel, sha in _file_hashes(root, "*.json" if label == "schemas" else "*").items():
            digest.update(f"\0{label}/{rel}\0{sha}".encode())
    digest.update(f"\0pyproject.toml\0{_sha(PYPROJECT.read_bytes())}".encode())
    return digest.hexdigest()


def is_fresh(out: Path, inputs: str) -> bool:
    """True when the last run had these inputs and left its files exactly as they are now."""
    try:
        stamp = json.loads((out / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(stamp, dict) or stamp.get("inputs") != inputs:
        return False
    outputs = stamp.get("outputs")
    if not isinstance(outputs, dict) or not outputs:
        return False
    packages = {rel.split("/", 1)[0] for rel in outputs}
    on_disk = {f"{package}/{rel}": sha for package in packages for rel, sha in _file_hashes(out / package).items()}
    return on_disk == outputs


def write_stamp(out: Path, inputs: str, files: dict[str, str]) -> None:
    """Record a successful run: its input hash and the hash of every file it wrote."""
    outputs = {rel: _sha(text.encode()) for rel, text in sorted(files.items())}
    stamp = json.dumps({"inputs": inputs, "outputs": outputs}, indent=1, sort_keys=True)
    (out / STAMP_NAME).write_text(stamp + "\n", encoding="utf-8")


def _file_hashes(root: Path, pattern: str = "*") -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): _sha(path.read_bytes())
        for path in sorted(root.rglob(pattern))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
