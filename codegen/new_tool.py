"""``python -m codegen.new_tool --name NAME --group GROUP`` (`make new-tool`): start a tool.

Writes two files from the templates in ``codegen/templates/new_tool/``:

- ``schemas/tools/<group>/<name>.json``: a granular tool that passes the schema lint as
  written, in legacy mode with "smart" in its modes too, so the smart↔legacy mapping holds
  without editing a smart tool (move it into one's actions or routes later if it belongs there);
- ``tests/e2e/test_<name>.py``: calls the tool through the real server in both modes with
  every example of its schema, so it fails until a handler answers them.

`make generate` then puts the tool in the catalog, and `make check-generated` fails naming
it until ``HANDLERS`` has its handler. Nothing is ever overwritten: a name that is taken, by
a granular or a smart tool, is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from codegen.catalog import NAME_PATTERN, load_catalog
from codegen.templating import environment

REPO = Path(__file__).resolve().parent.parent
_TEMPLATES = Path(__file__).parent / "templates" / "new_tool"


class ToolExists(Exception):
    pass


def new_tool(root: Path, name: str, group: str) -> list[Path]:
    """Write the schema and the test stub of a new tool; returns their paths."""
    for label, value in (("NAME", name), ("GROUP", group)):
        if not NAME_PATTERN.match(value):
            raise ValueError(f"{label}={value!r} must be lower_snake (^[a-z][a-z0-9_]*$)")
    schemas = root / "schemas"
    taken = [*sorted((schemas / "tools").rglob(f"{name}.json")), schemas / "smart" / f"{name}.json"]
    schema_path = schemas / "tools" / group / f"{name}.json"
    test_path = root / "tests" / "e2e" / f"test_{name}.py"
    for path in [*taken, test_path]:
        if path.exists():
            raise ToolExists(f"{path.relative_to(root)} exists already; pick another NAME")
    env = environment(_TEMPLATES)
    schema = env.get_template("schema.json.j2").render(name=name, group=group)
    json.loads(schema)  # the template must stay JSON whatever it is given
    for path in (schema_path, test_path):
        path.parent.mkdir(parents=True, exist_ok=True)
    schema_path.write_text(schema, encoding="utf-8")
    test_path.write_text(env.get_template("test_tool.py.j2").render(name=name, group=group), encoding="utf-8")
    return [schema_path, test_path]


def next_steps(root: Path, name: str, group: str) -> str:
    model = load_catalog(root / "schemas").granular[name].model_name
    module = f"src/cdpilot/handlers/{group}.py"
    create = "" if (root / module).exists() else " (a new module: import it in handlers/table.py)"
    return "\n".join(
        [
            "next:",
            "  1. edit the schema: description, properties, examples, annotations",
            f"  2. make generate          -> {name} joins the catalog; make check-generated now fails naming it",
            f"  3. write `async def {name}(args: {model}, ctx: ToolContext) -> ToolResult` in {module}{create}",
            f'  4. add "{name}": {group}.{name} to HANDLERS in src/cdpilot/handlers/table.py',
            f"  5. make check-generated && make test   (tests/e2e/test_{name}.py runs its examples)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen.new_tool", description=__doc__)
    parser.add_argument("--name", required=True, help="the tool's name, lower_snake")
    parser.add_argument("--group", required=True, help="its group: the schema folder and handler module")
    args = parser.parse_args(argv)
    try:
        written = new_tool(REPO, args.name, args.group)
    except (ValueError, ToolExists) as exc:
        print(f"new-tool: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path.relative_to(REPO)}")
    print(next_steps(REPO, args.name, args.group))
    return 0


if __name__ == "__main__":
    sys.exit(main())
