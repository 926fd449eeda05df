"""Pure renderers: typed facts from the browser layer in, the text an agent reads out.

Nothing here awaits, touches a browser or imports the protocol client, so every answer can be
unit-tested on hand-built facts. Renderers cut text only with `cdpilot.text.clip`, and name tools
as ``{tool:<granular name>}``, which the registry spells for the active mode.
"""
