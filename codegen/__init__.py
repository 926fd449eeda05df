"""cdpilot's build step: compiles `schemas/` into the committed `generated/` package.

A dev tool, not shipped in the wheel. Entry point: ``python -m codegen [--check]``.
"""

GENERATOR_VERSION = "cdpilot-codegen 1"
