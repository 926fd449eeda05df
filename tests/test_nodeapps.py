"""The Node.js test apps agree with their README, with no node or browser: every marker the README
names for node-api and node-vitest is on exactly one line of the file it names (`marker_line` takes
the first, so a duplicate would silently move a breakpoint), and node-api's maps hold no sources'
text (the debugger must read the TypeScript from disk, which is what those tests are about)."""

from __future__ import annotations

import json
import re

from tests.support.devapps import APPS, DEVAPPS
from tests.support.nodeapps import NODE_API, NODE_VITEST, marker_line

_PATH = re.compile(r"^(node-api|node-vitest)/[\w/.-]+\.\w+$")
_MARKER = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")


def _readme_markers() -> dict[str, list[str]]:
    """For each file a README marker line names, the markers listed after it (other code in
    backticks, such as `const cost = ...`, is neither a path nor a marker)."""
    found: dict[str, list[str]] = {}
    for line in (DEVAPPS / "README.md").read_text().splitlines():
        if not line.startswith(("- `node-api/", "- `node-vitest/")):
            continue
        current = ""
        for token in re.findall(r"`([^`]+)`", line):
            if _PATH.match(token):
                current = token
                found.setdefault(current, [])
            elif current and _MARKER.match(token):
                found[current].append(token)
    return found


def test_every_readme_marker_is_on_one_line_of_its_file() -> None:
    markers = _readme_markers()
    assert set(markers) == {
        "node-api/src/prices.ts",
        "node-api/src/server.ts",
        "node-api/src/workers.ts",
        "node-vitest/src/cart.ts",
        "node-vitest/test/cart.test.ts",
    }
    for relative, names in markers.items():
        path = DEVAPPS / relative
        assert names, relative
        for name in names:
            marker_line(path, name)  # raises KeyError when missing
            assert len(re.findall(r"//\s*@" + re.escape(name) + r"\s*$", path.read_text(), re.MULTILINE)) == 1, name
        # and the README lists every marker of the file
        assert sorted(re.findall(r"//\s*@([\w-]+)\s*$", path.read_text(), re.MULTILINE)) == sorted(names), relative


def test_node_api_maps_point_at_sources_without_their_text() -> None:
    options = json.loads((DEVAPPS / NODE_API / "tsconfig.json").read_text())["compilerOptions"]
    assert options["sourceMap"] is True
    assert not {"inlineSources", "inlineSourceMap", "sourceRoot", "mapRoot"} & set(options)
    assert (options["rootDir"], options["outDir"]) == ("src", "dist")


def test_node_apps_are_installed_by_devapps() -> None:
    assert {NODE_API, NODE_VITEST} <= set(APPS)
    for app in (NODE_API, NODE_VITEST):
        assert (DEVAPPS / app / "package-lock.json").is_file()
