"""``python -m codegen [--check] [--force]``: lint the schemas, then write or verify ``generated/``.

A write whose inputs match the stamp of the last run, with that run's files intact, is
skipped (`codegen.stamp`); ``--check`` always renders and compares, so it stays exact.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from codegen.stamp import input_hash, is_fresh, write_stamp

REPO = Path(__file__).resolve().parent.parent


def differences(out: Path, files: dict[str, str]) -> list[str]:
    """Stale, missing and extra files of ``out`` compared with a fresh render."""
    problems = []
    for rel, text in sorted(files.items()):
        path = out / rel
        if not path.is_file():
            problems.append(f"missing: {rel}")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"stale: {rel}")
    for package in sorted({rel.split("/", 1)[0] for rel in files}):
        for path in sorted((out / package).rglob("*")):
            rel = str(path.relative_to(out))
            if path.is_file() and "__pycache__" not in path.parts and rel not in files:
                problems.append(f"extra: {rel}")
    return problems


def write(out: Path, files: dict[str, str]) -> int:
    for problem in differences(out, files):
        if problem.startswith("extra: "):
            (out / problem.removeprefix("extra: ")).unlink()
    changed = 0
    for rel, text in sorted(files.items()):
        path = out / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--schemas", type=Path, default=REPO / "schemas", help="schema tree to compile")
    parser.add_argument("--out", type=Path, default=REPO / "generated", help="where generated files live")
    parser.add_argument("--check", action="store_true", help="fail if generated/ differs from a fresh render")
    parser.add_argument("--force", action="store_true", help="render even when the inputs match the last run's")
    parser.add_argument(
        "--jobs", type=_positive, metavar="N", help="generator processes at once (default: one per usable core)"
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    inputs = input_hash(args.schemas)
    if not (args.check or args.force) and is_fresh(args.out, inputs):
        print(f"generated/ is up to date: inputs unchanged since the last run ({time.perf_counter() - started:.2f}s)")
        return 0
    # Imported only now: jsonschema, jinja2 and datamodel-code-generator cost more than the skip above.
    from codegen.build import build

    result = build(args.schemas, args.jobs)
    if result.findings:
        print(f"schema lint failed ({len(result.findings)} finding(s)):", file=sys.stderr)
        for finding in result.findings:
            print(f"  {finding}", file=sys.stderr)
        return 1
    catalog, files = result.catalog, result.files
    elapsed = time.perf_counter() - started
    if args.check:
        problems = differences(args.out, files)
        if problems:
            print("generated/ is out of date with schemas/ (run `make generate`):", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
            return 1
        print(f"generated/ is up to date ({len(catalog.granular)} granular, {len(catalog.smart)} smart schemas)")
        return 0
    changed = write(args.out, files)
    write_stamp(args.out, inputs, files)
    print(f"generated {len(files)} files ({changed} changed) in {elapsed:.2f}s")
    return 0


def _positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return number


if __name__ == "__main__":
    sys.exit(main())
