"""Pure renderers: typed facts from the browser layer in, the text an agent reads out.

Nothing here awaits, touches a browser or imports the protocol client, so every answer can be
unit-tested on hand-built facts. Renderers cut text only with `cdpilot.text.clip`, and name tools
as ``{tool:<granular name>}``, which the registry spells for the active mode.

Each module is ``<subject>_answers``; a public renderer is named by what it returns: ``*_answer``
a whole answer, ``*_line`` one line of one, ``*_lines`` several (a list), ``*_text`` a part of a
line or a block of lines (docs/architecture.md; tests/test_layout.py checks it).
"""
